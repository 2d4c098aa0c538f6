//! Functions longer than a limit, so that a function stays a sequence of
//! steps a reader can hold: each function in the folders of [`LIMITED`] has
//! at most [`LIMIT`] lines.
//!
//! The files are read as rustfmt writes them: a function's body closes with a
//! `}` at the indentation of its `fn` line. Unit tests are left out: the body
//! of a `#[cfg(test)] mod … {` is skipped, and so are files named `tests.rs`;
//! any other `#[cfg(test)]` item is read like the code around it.

use std::{
    fmt,
    path::{Component, Path, PathBuf},
};

use crate::LayersError;

/// The most lines a function in a [`LIMITED`] folder may have, from its `fn`
/// line to its closing brace.
pub const LIMIT: usize = 80;

/// The source folders the limit covers: the passes, the dialect, the
/// runtime (its binaries in `src/bin/` too), the Python package's Rust side,
/// and every crate of `crates/` (`*` is any one folder name).
pub const LIMITED: &[&str] = &[
    "crates/*/src",
    "dialect/src",
    "passes/src",
    "runtime/src",
    "python/src",
];

/// Whether `file` (relative to the workspace root) is in a [`LIMITED`] folder.
pub fn is_limited(file: &Path) -> bool {
    LIMITED.iter().any(|folder| under(file, folder))
}

/// Whether `file` is under `folder`, where a `*` part of `folder` matches any
/// one name.
fn under(file: &Path, folder: &str) -> bool {
    let mut parts = file.components();
    folder.split('/').all(|want| match parts.next() {
        Some(Component::Normal(name)) => want == "*" || name == want,
        _ => false,
    })
}

/// The functions over [`LIMIT`] lines in those of `files` (relative to
/// `root`, as [`crate::Report::files`] holds them) that are in a [`LIMITED`]
/// folder, file by file in the order given.
pub fn over_the_limit(root: &Path, files: &[PathBuf]) -> Result<Vec<LongFunction>, LayersError> {
    let mut found = Vec::new();
    for file in files.iter().filter(|file| is_limited(file)) {
        found.extend(long_functions(root, file, LIMIT)?);
    }
    Ok(found)
}

/// A function over the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongFunction {
    pub file: std::path::PathBuf,
    pub name: String,
    /// The line of its `fn` (1-based).
    pub line: usize,
    /// Lines from its `fn` line to its closing brace, both counted.
    pub lines: usize,
}

impl fmt::Display for LongFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: fn {} has {} lines",
            self.file.display(),
            self.line,
            self.name,
            self.lines
        )
    }
}

/// The functions of `file` (read under `root`) with more than `limit` lines.
pub fn long_functions(
    root: &Path,
    file: &Path,
    limit: usize,
) -> Result<Vec<LongFunction>, LayersError> {
    if file.file_name().is_some_and(|name| name == "tests.rs") {
        return Ok(Vec::new());
    }
    let path = root.join(file);
    let text = crate::tree::read_text(&path)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if let Some(end) = test_module_end(&lines, index) {
            index = end + 1;
            continue;
        }
        if let Some((indent, name)) = function_start(line) {
            if let Some(end) = closing_line(&lines, index, indent) {
                let length = end - index + 1;
                if length > limit {
                    found.push(LongFunction {
                        file: file.to_path_buf(),
                        name,
                        line: index + 1,
                        lines: length,
                    });
                }
            }
        }
        index += 1;
    }
    Ok(found)
}

/// The line of the `}` at `indent` that closes what opens at line `start`.
fn closing_line(lines: &[&str], start: usize, indent: &str) -> Option<usize> {
    let close = format!("{indent}}}");
    lines[start + 1..]
        .iter()
        .position(|later| *later == close)
        .map(|offset| start + 1 + offset)
}

/// Where the test module that line `index` opens with `#[cfg(test)]` ends,
/// if it opens one (`#[cfg(test)]` on any other item is read as code).
fn test_module_end(lines: &[&str], index: usize) -> Option<usize> {
    if lines[index].trim() != "#[cfg(test)]" {
        return None;
    }
    let next = lines.get(index + 1)?;
    let trimmed = next.trim_start();
    let opens = (trimmed.starts_with("mod ") || trimmed.starts_with("pub mod "))
        && trimmed.trim_end().ends_with('{');
    if !opens {
        return None;
    }
    closing_line(lines, index + 1, &next[..next.len() - trimmed.len()])
}

/// The indentation and name of a line that starts a function with a body.
fn function_start(line: &str) -> Option<(&str, String)> {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    let mut rest = trimmed;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    // A declaration, or a body on the one line.
    if line.trim_end().ends_with(';') || line.trim_end().ends_with('}') {
        return None;
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some((indent, name))
}
