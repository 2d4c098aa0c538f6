//! Functions longer than a limit, so that a pass stays a sequence of steps a
//! reader can hold (each function of the passes under 80 lines).
//!
//! The files are read as rustfmt writes them: a function's body closes with a
//! `}` at the indentation of its `fn` line. Unit tests are left out: a file is
//! read up to its first `#[cfg(test)]` (the test module closes the file), and
//! files named `tests.rs` are skipped.

use std::{fmt, path::Path};

use crate::LayersError;

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
    let text = std::fs::read_to_string(&path).map_err(|source| LayersError::Read {
        path: path.clone(),
        source,
    })?;
    let lines: Vec<&str> = text
        .lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some((indent, name)) = function_start(line) else {
            continue;
        };
        let close = format!("{indent}}}");
        let Some(end) = lines[index + 1..]
            .iter()
            .position(|later| *later == close)
            .map(|offset| index + 1 + offset)
        else {
            continue;
        };
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
    Ok(found)
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
