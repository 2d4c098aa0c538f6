//! The driver's view of MLIR diagnostics: `acopy_passes::diagnostics`
//! collects them (the library's handler, shared with embedders); the driver
//! flattens notes after their diagnostic, as mlir-opt prints them.

use acopy_passes::diagnostics::{Collector, Diagnostic};
use melior::Context;

/// Diagnostics gathered from a context, in the order MLIR emitted them.
#[derive(Clone, Default)]
pub struct Sink {
    collector: Collector,
}

impl Sink {
    /// Attaches a handler to `context` that records every diagnostic and its notes.
    pub fn attach(&self, context: &Context) {
        self.collector.attach(context);
    }

    /// Takes the diagnostics recorded so far, each followed by its notes
    /// (which are taken out of it). Positions in the parsed buffer, which
    /// MLIR names `""` or `-`, are renamed to `source_name` and moved down by
    /// `lines_before`, the lines of the input before the chunk (parsing each
    /// `--split-input-file` chunk behind that many blank lines instead made
    /// the run quadratic in the number of chunks).
    pub fn take_for(&self, source_name: &str, lines_before: usize) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for diagnostic in self.collector.take_for_chunk(source_name, lines_before) {
            flatten(diagnostic, &mut out);
        }
        out
    }
}

fn flatten(mut diagnostic: Diagnostic, out: &mut Vec<Diagnostic>) {
    let notes = std::mem::take(&mut diagnostic.notes);
    out.push(diagnostic);
    for note in notes {
        flatten(note, out);
    }
}
