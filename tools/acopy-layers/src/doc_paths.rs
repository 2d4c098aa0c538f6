//! Docs that name files name files that exist: every inline-code span of a
//! Markdown doc that reads as a source path (`passes/src/plan/chunk.rs`, or a
//! name relative to a folder the text gives, `plan/chunk.rs`, `chunk.rs`)
//! must match a file of the tree, so that a rename that forgets a doc fails
//! `cargo test` instead of sending a newcomer to a file that is gone.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use crate::LayersError;

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

/// Every file under `root` (relative to it), without the build folder
/// `target/` at the top and hidden folders, which hold build outputs and tools
/// rather than the project (`passes/src/target/` is read).
pub fn tree_files(root: &Path) -> Result<Vec<PathBuf>, LayersError> {
    let mut files = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        let dir = root.join(&folder);
        let entries = std::fs::read_dir(&dir).map_err(|source| LayersError::Read {
            path: dir.clone(),
            source,
        })?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name_text = name.to_string_lossy();
            let build_folder = folder.as_os_str().is_empty() && name_text == "target";
            if name_text.starts_with('.') || build_folder {
                continue;
            }
            let path = folder.join(&name);
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(path),
                Ok(_) => files.push(path),
                Err(_) => {}
            }
        }
    }
    files.sort();
    Ok(files)
}
