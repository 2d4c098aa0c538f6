//! Collecting: a context handler that copies every diagnostic (with its
//! notes, resolved position and rule id) out of MLIR.

use std::{
    ffi::c_void,
    sync::{Arc, Mutex},
};

use melior::{
    diagnostic::{Diagnostic as MlirDiagnosticView, DiagnosticSeverity},
    Context,
};
use mlir_sys::{MlirDiagnostic, MlirLogicalResult, MlirStringRef};

use super::{detail::detail_at, position::position_of, rule::rule_at, Diagnostic, Severity};

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
    let location = view.location();
    let rule = (severity == Severity::Error)
        .then(|| rule_at(location))
        .flatten();
    let detail = (severity == Severity::Remark)
        .then(|| detail_at(location))
        .flatten();
    let notes = (0..view.note_count())
        // SAFETY: `index` is below the note count; notes live as long as
        // their diagnostic.
        .map(|index| unsafe { copy(mlir_sys::mlirDiagnosticGetNote(raw, index as isize)) })
        .collect();
    Diagnostic {
        severity,
        position: position_of(location),
        message,
        rule,
        notes,
        detail,
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
