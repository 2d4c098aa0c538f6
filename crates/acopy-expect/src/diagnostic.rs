//! A diagnostic as data: what MLIR reported, where, and under which rule, and
//! how mlir-opt spells it. The one type that users of acopy see: the passes
//! copy MLIR's diagnostics into it, the driver prints it, the facade and the
//! Python package hand it out, and [`crate::check`] matches it against
//! `expected-*` directives. It lives here, below all of them, because it holds
//! no MLIR handle.

use std::fmt;

use crate::detail::Detail;

/// Severity of a diagnostic or expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    /// The lowercase name used in directives and messages (`"error"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }

    pub(crate) const ALL: [Severity; 4] = [
        Severity::Error,
        Severity::Warning,
        Severity::Remark,
        Severity::Note,
    ];
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in a source buffer (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The buffer's name: the file name given when parsing, or `""` / `-`
    /// for a buffer MLIR did not name.
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// One diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// `None` for an unknown location.
    pub position: Option<Position>,
    pub message: String,
    /// The verification rule (`E1`…, `T1`…, `A1`…; docs/verification.md)
    /// that reported this error, for errors from the rules table.
    pub rule: Option<&'static str>,
    /// The notes attached to it, in order.
    pub notes: Vec<Diagnostic>,
    /// What a remark reports, as data (`None` for the others): for
    /// `acopy-pipeline`'s remark at each loop it rewrote,
    /// [`Detail::Pipelined`]. The message is its `Display`.
    pub detail: Option<Detail>,
}

impl Diagnostic {
    /// The "see current operation" note MLIR attaches to verifier errors.
    pub fn is_op_dump(&self) -> bool {
        self.severity == Severity::Note && self.message.starts_with("see current operation")
    }

    /// mlir-opt's spelling of this diagnostic alone (not its notes):
    /// `file:line:col: error: message`, or `fallback_file: error: message`
    /// for an unknown location.
    pub fn render(&self, fallback_file: &str) -> String {
        match &self.position {
            Some(Position { file, line, column }) => {
                format!(
                    "{file}:{line}:{column}: {}: {}",
                    self.severity, self.message
                )
            }
            None => format!("{fallback_file}: {}: {}", self.severity, self.message),
        }
    }

    /// Renames positions in the unnamed parsed buffer (`""` or `-`) to
    /// `source_name`, in this diagnostic and its notes.
    pub fn rename_buffer(&mut self, source_name: &str) {
        self.place_in(source_name, 0);
    }

    /// [`Diagnostic::rename_buffer`], and moves those positions down by
    /// `lines_before` lines: for a chunk of a larger input (a
    /// `--split-input-file` case) parsed on its own, so that positions name
    /// lines of the whole input.
    pub fn place_in(&mut self, source_name: &str, lines_before: u32) {
        if let Some(position) = &mut self.position {
            if position.file.is_empty() || position.file == "-" {
                position.file = source_name.to_string();
                if position.line > 0 {
                    position.line = position.line.saturating_add(lines_before);
                }
            }
        }
        for note in &mut self.notes {
            note.place_in(source_name, lines_before);
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render("<unknown>"))?;
        for note in &self.notes {
            write!(f, "\n{}", note.render("<unknown>"))?;
        }
        Ok(())
    }
}
