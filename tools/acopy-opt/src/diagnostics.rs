//! Collecting MLIR diagnostics and printing them as `file:line:col: error: …`.

use std::{cell::RefCell, rc::Rc};

use acopy_expect::Severity;
use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Location,
    Context,
};

/// A diagnostic copied out of MLIR, with its location resolved.
#[derive(Debug, Clone)]
pub struct Collected {
    pub severity: Severity,
    /// `(file, line, column)`, or `None` for an unknown location.
    pub position: Option<(String, u32, u32)>,
    pub message: String,
}

impl Collected {
    /// The "see current operation" note MLIR attaches to verifier errors.
    pub fn is_op_dump(&self) -> bool {
        self.severity == Severity::Note && self.message.starts_with("see current operation")
    }

    /// mlir-opt's spelling: `file:line:col: error: message`.
    pub fn render(&self, fallback_file: &str) -> String {
        match &self.position {
            Some((file, line, column)) => format!(
                "{file}:{line}:{column}: {}: {}",
                self.severity, self.message
            ),
            None => format!("{fallback_file}: {}: {}", self.severity, self.message),
        }
    }
}

/// Diagnostics gathered from a context, in the order MLIR emitted them.
#[derive(Clone, Default)]
pub struct Sink {
    collected: Rc<RefCell<Vec<Collected>>>,
}

impl Sink {
    /// Attaches a handler to `context` that records every diagnostic and its notes.
    pub fn attach(&self, context: &Context) {
        let collected = self.collected.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            record(&diagnostic, &mut collected.borrow_mut());
            true
        });
    }

    /// Takes the diagnostics recorded so far. Positions in the parsed buffer,
    /// which MLIR names `""` or `-`, are renamed to `source_name`.
    pub fn take_for(&self, source_name: &str) -> Vec<Collected> {
        let mut collected = std::mem::take(&mut *self.collected.borrow_mut());
        for diagnostic in &mut collected {
            if let Some((file, _, _)) = &mut diagnostic.position {
                if file.is_empty() || file == "-" {
                    *file = source_name.to_string();
                }
            }
        }
        collected
    }
}

fn record(diagnostic: &Diagnostic, out: &mut Vec<Collected>) {
    out.push(Collected {
        severity: severity(diagnostic.severity()),
        position: position(diagnostic.location()),
        message: diagnostic.to_string(),
    });
    for index in 0..diagnostic.note_count() {
        if let Ok(note) = diagnostic.note(index) {
            record(&note, out);
        }
    }
}

fn severity(severity: DiagnosticSeverity) -> Severity {
    match severity {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Remark => Severity::Remark,
        DiagnosticSeverity::Note => Severity::Note,
    }
}

/// The first file position inside `location`, looking through names, call
/// sites (the callee, as MLIR's own handler does) and fused locations.
fn position(location: Location) -> Option<(String, u32, u32)> {
    if location.is_file_line_col_range() {
        let file = location.file_line_col_range_filename();
        let file = file
            .as_string_ref()
            .as_str()
            .unwrap_or("<invalid utf-8>")
            .to_string();
        return Some((
            file,
            location.file_line_col_range_start_line() as u32,
            location.file_line_col_range_start_column() as u32,
        ));
    }
    if location.is_name() {
        return position(location.name_child_location());
    }
    if location.is_call_site() {
        return position(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|index| position(location.fused_location(index)));
    }
    None
}
