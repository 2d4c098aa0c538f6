//! Docs that name files name files that exist: every inline-code span of a
//! Markdown doc that reads as a source path (`passes/src/plan/chunk.rs`, or a
//! name relative to a folder the text gives, `plan/chunk.rs`, `chunk.rs`)
//! must match a file of the tree, so that a rename that forgets a doc fails
//! `cargo test` instead of sending a newcomer to a file that is gone.

use std::{
    fmt,
    path::{Path, PathBuf},
};

pub use crate::tree::tree_files;

/// The endings of the spans read as paths.
pub const EXTENSIONS: [&str; 9] = ["rs", "md", "sh", "py", "mlir", "toml", "json", "cpp", "td"];

/// A span of a doc that names no file of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StalePath {
    pub doc: PathBuf,
    /// 1-based.
    pub line: usize,
    pub path: String,
}

impl fmt::Display for StalePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: `{}` is no file of the tree",
            self.doc.display(),
            self.line,
            self.path
        )
    }
}

/// The inline-code spans of `text` that read as paths (only path characters,
/// a known ending) and match none of `files` (relative paths), as a whole path
/// or as the end of one after a `/`.
pub fn stale_paths(doc: &Path, text: &str, files: &[PathBuf]) -> Vec<StalePath> {
    let mut stale = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for span in line.split('`').skip(1).step_by(2) {
            if !reads_as_path(span) || names_a_file(span, files) {
                continue;
            }
            stale.push(StalePath {
                doc: doc.to_path_buf(),
                line: index + 1,
                path: span.to_string(),
            });
        }
    }
    stale
}

fn reads_as_path(span: &str) -> bool {
    let path_characters = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    let ending = span.rsplit_once('.').map(|(_, ending)| ending);
    path_characters
        && !span.starts_with('.')
        && ending.is_some_and(|ending| EXTENSIONS.contains(&ending))
}

fn names_a_file(span: &str, files: &[PathBuf]) -> bool {
    let span = Path::new(span);
    files.iter().any(|file| file.ends_with(span))
}
