//! MLIR diagnostics as data: a context handler that copies every diagnostic
//! (with its notes and resolved position) out of MLIR, for library callers and
//! for the driver, which prints them as `file:line:col: error: …`.

use std::{
    ffi::c_void,
    sync::{Arc, Mutex},
};

pub use acopy_expect::Severity;
use melior::{
    diagnostic::{Diagnostic as MlirDiagnosticView, DiagnosticSeverity},
    ir::Location,
    Context,
};
use mlir_sys::{MlirDiagnostic, MlirLogicalResult, MlirStringRef};

use crate::verify::RULES;

/// A position in a source buffer (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The buffer's name: the file name given when parsing, or `""` / `-`
    /// for a buffer MLIR did not name.
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl Position {
    /// The first file position inside `location`, looking through names, call
    /// sites (the callee, as MLIR's own handler does) and fused locations.
    pub fn of(location: Location) -> Option<Position> {
        if location.is_file_line_col_range() {
            let file = location.file_line_col_range_filename();
            let file = file
                .as_string_ref()
                .as_str()
                .unwrap_or("<invalid utf-8>")
                .to_string();
            return Some(Position {
                file,
                line: location.file_line_col_range_start_line() as u32,
                column: location.file_line_col_range_start_column() as u32,
            });
        }
        if location.is_name() {
            return Position::of(location.name_child_location());
        }
        if location.is_call_site() {
            return Position::of(location.call_site_callee());
        }
        if location.is_fused() {
            return (0..location.fused_num_locations())
                .find_map(|index| Position::of(location.fused_location(index)));
        }
        None
    }

    /// A location in `context` at this position.
    pub fn location<'c>(&self, context: &'c Context) -> Location<'c> {
        Location::new(
            context,
            &self.file,
            self.line as usize,
            self.column as usize,
        )
    }
}

/// One diagnostic, copied out of MLIR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// `None` for an unknown location.
    pub position: Option<Position>,
    pub message: String,
    /// The verification rule (`E1`…, `T1`…, `A1`…; `docs/verification.md`)
    /// whose message this is, for errors from the rules table.
    pub rule: Option<&'static str>,
    /// The notes MLIR attached, in order.
    pub notes: Vec<Diagnostic>,
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

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render("<unknown>"))?;
        for note in &self.notes {
            write!(f, "\n{}", note.render("<unknown>"))?;
        }
        Ok(())
    }
}

/// The rule of [`RULES`] whose template `message` fits: the template's fixed
/// pieces, in order, with anything between them (the values it fills in).
pub fn rule_of(message: &str) -> Option<&'static str> {
    RULES
        .iter()
        .find(|rule| fits_template(rule.template, message))
        .map(|rule| rule.id)
}

/// Whether `message` is `template` with each `{…}` replaced by some text.
fn fits_template(template: &str, message: &str) -> bool {
    let mut rest = message;
    let mut pattern = template;
    let mut anchored = true;
    loop {
        let (piece, after) = match pattern.find('{') {
            Some(open) => {
                let close = pattern[open..]
                    .find('}')
                    .map_or(pattern.len(), |c| open + c + 1);
                (&pattern[..open], Some(&pattern[close..]))
            }
            None => (pattern, None),
        };
        match after {
            // The last piece ends the message (or anything may follow a
            // trailing placeholder, which `after` handles by looping once more).
            None => {
                return if anchored {
                    rest == piece
                } else {
                    rest.ends_with(piece)
                };
            }
            Some(after) => {
                if anchored {
                    let Some(tail) = rest.strip_prefix(piece) else {
                        return false;
                    };
                    rest = tail;
                } else if !piece.is_empty() {
                    let Some(found) = rest.find(piece) else {
                        return false;
                    };
                    rest = &rest[found + piece.len()..];
                }
                anchored = false;
                pattern = after;
            }
        }
    }
}

/// Diagnostics gathered from a context, in the order MLIR emitted them.
///
/// Shared and locked, so a context with multi-threading on may emit from
/// several threads (MLIR serialises handler calls; the lock makes that safe
/// on the Rust side as well).
#[derive(Clone, Default)]
pub struct Collector {
    collected: Arc<Mutex<Vec<Diagnostic>>>,
}

/// A handler attached by [`Collector::attach`]; [`Attached::detach`] removes it.
#[must_use = "the handler stays attached until detached or the context dies"]
pub struct Attached {
    context: mlir_sys::MlirContext,
    id: mlir_sys::MlirDiagnosticHandlerID,
}

impl Attached {
    /// Removes the handler from its context.
    ///
    /// # Safety
    ///
    /// The context it was attached to must still be alive.
    pub unsafe fn detach(self) {
        // SAFETY: the caller keeps the context alive; the id came from it.
        unsafe { mlir_sys::mlirContextDetachDiagnosticHandler(self.context, self.id) }
    }
}

type Shared = Arc<Mutex<Vec<Diagnostic>>>;

impl Collector {
    /// Attaches a handler to `context` that records every diagnostic and its
    /// notes, and marks them handled (so MLIR prints nothing itself). It stays
    /// attached until the context dies; see [`Collector::attach_scoped`] for
    /// a context the caller keeps.
    ///
    /// Through the C API rather than melior's `attach_diagnostic_handler`: a
    /// message can hold bytes that are not UTF-8 (a symbol `@"\FF"` in
    /// "'func.call' op '...' does not reference a valid function"), and
    /// melior's `Diagnostic` only prints through `Display`, which fails on
    /// them, so `to_string` panicked.
    pub fn attach(&self, context: &Context) {
        let _ = self.attach_scoped(context);
    }

    /// [`Collector::attach`], returning the handle that detaches it.
    pub fn attach_scoped(&self, context: &Context) -> Attached {
        unsafe extern "C" fn handle(
            diagnostic: MlirDiagnostic,
            data: *mut c_void,
        ) -> MlirLogicalResult {
            // A panic must not unwind into MLIR's C++ frames (it would
            // abort): on one, the diagnostic is left to MLIR's own handler.
            let handled = std::panic::catch_unwind(|| {
                // SAFETY: `data` is the `Shared` boxed below, alive until
                // `destroy`; MLIR hands a live diagnostic.
                unsafe {
                    let shared = &*(data as *const Shared);
                    let copied = copy(diagnostic);
                    // A poisoned lock only means another thread panicked
                    // while pushing; the list itself is still whole.
                    match shared.lock() {
                        Ok(mut list) => list.push(copied),
                        Err(poisoned) => poisoned.into_inner().push(copied),
                    }
                }
            });
            MlirLogicalResult {
                value: i8::from(handled.is_ok()),
            }
        }
        unsafe extern "C" fn destroy(data: *mut c_void) {
            // SAFETY: `data` came from `Box::into_raw` below, and MLIR calls
            // this once, when the handler is detached or the context dies.
            let data = unsafe { Box::from_raw(data as *mut Shared) };
            // Nothing may unwind into MLIR, not even a drop.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(data)));
        }
        let data: *mut Shared = Box::into_raw(Box::new(self.collected.clone()));
        // SAFETY: the context is live; `handle` and `destroy` match `data`.
        let id = unsafe {
            mlir_sys::mlirContextAttachDiagnosticHandler(
                context.to_raw(),
                Some(handle),
                data.cast(),
                Some(destroy),
            )
        };
        Attached {
            context: context.to_raw(),
            id,
        }
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Diagnostic> {
        match self.collected.lock() {
            Ok(mut list) => std::mem::take(&mut *list),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }

    /// [`Collector::take`], with positions in the unnamed parsed buffer
    /// renamed to `source_name` ([`Diagnostic::rename_buffer`]).
    pub fn take_for(&self, source_name: &str) -> Vec<Diagnostic> {
        self.take_for_chunk(source_name, 0)
    }

    /// [`Collector::take_for`] for a chunk that starts after `lines_before`
    /// lines of the input ([`Diagnostic::place_in`]).
    pub fn take_for_chunk(&self, source_name: &str, lines_before: usize) -> Vec<Diagnostic> {
        let lines_before = u32::try_from(lines_before).unwrap_or(u32::MAX);
        let mut collected = self.take();
        for diagnostic in &mut collected {
            diagnostic.place_in(source_name, lines_before);
        }
        collected
    }
}

/// # Safety
///
/// `raw` must be a live diagnostic.
unsafe fn copy(raw: MlirDiagnostic) -> Diagnostic {
    // SAFETY: the caller hands a live diagnostic.
    let view = unsafe { MlirDiagnosticView::from_raw(raw) };
    let severity = severity(view.severity());
    // SAFETY: as above.
    let message = unsafe { message(raw) };
    let rule = (severity == Severity::Error)
        .then(|| rule_of(&message))
        .flatten();
    let notes = (0..view.note_count())
        // SAFETY: `index` is below the note count; notes live as long as
        // their diagnostic.
        .map(|index| unsafe { copy(mlir_sys::mlirDiagnosticGetNote(raw, index as isize)) })
        .collect();
    Diagnostic {
        severity,
        position: Position::of(view.location()),
        message,
        rule,
        notes,
    }
}

/// An `MlirStringCallback` that appends the text to the `Vec<u8>` that
/// `data` points to: how MLIR's printers hand text to Rust as bytes (text
/// parsed from bytes that are not UTF-8 prints them back, which melior's
/// `Display` cannot hold).
///
/// # Safety
///
/// `data` must point to a live `Vec<u8>` that nothing else uses during the
/// print.
pub unsafe extern "C" fn append_bytes(text: MlirStringRef, data: *mut c_void) {
    if text.data.is_null() || text.length == 0 {
        return;
    }
    // No panic may unwind into MLIR's printer: on one, the text stays short.
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: `data` is the caller's `Vec`; `text` holds `length` bytes.
        unsafe {
            let bytes = &mut *(data as *mut Vec<u8>);
            bytes.extend_from_slice(std::slice::from_raw_parts(
                text.data.cast::<u8>(),
                text.length,
            ));
        }
    });
}

/// The diagnostic's message, with bytes that are not UTF-8 replaced.
///
/// # Safety
///
/// `raw` must be a live diagnostic.
unsafe fn message(raw: MlirDiagnostic) -> String {
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: `raw` is live; `append_bytes` only writes to `bytes`, which outlives the call.
    unsafe {
        mlir_sys::mlirDiagnosticPrint(raw, Some(append_bytes), (&mut bytes as *mut Vec<u8>).cast());
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn severity(severity: DiagnosticSeverity) -> Severity {
    match severity {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Remark => Severity::Remark,
        DiagnosticSeverity::Note => Severity::Note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fit_their_messages_only() {
        let e10 = "Expected dtypes to match but src had type {T1} and dst had type {T2}";
        assert!(fits_template(
            e10,
            "Expected dtypes to match but src had type f32 and dst had type f16"
        ));
        assert!(!fits_template(
            e10,
            "Expected dtypes to match but src had type f32"
        ));
        assert!(!fits_template(
            e10,
            "x Expected dtypes to match but src had type a and dst had type b"
        ));
        assert!(fits_template("plain text", "plain text"));
        assert!(!fits_template("plain text", "plain text and more"));
        assert!(fits_template("{X} ends", "anything ends"));
        assert!(!fits_template("{X} ends", "anything ends here"));
        assert!(fits_template("starts {X}", "starts with anything"));
    }

    #[test]
    fn every_documented_message_names_its_rule() {
        assert_eq!(
            rule_of(
                "The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS"
            ),
            Some("E4")
        );
        assert_eq!(
            rule_of("Expected dtypes to match but src had type f32 and dst had type f16"),
            Some("E10")
        );
        assert_eq!(rule_of("'acopy.copy_gmem_to_smem' op something else"), None);
        // Each fixed-text rule's message maps back to that rule (or to an
        // earlier rule with the same text, which the table order decides).
        for rule in RULES.iter().filter(|rule| !rule.template.contains('{')) {
            let found = rule_of(rule.template).expect("a fixed message has a rule");
            let first = RULES
                .iter()
                .find(|other| other.template == rule.template)
                .map(|other| other.id);
            assert_eq!(Some(found), first, "{}", rule.template);
        }
    }
}
