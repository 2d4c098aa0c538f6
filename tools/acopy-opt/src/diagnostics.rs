//! Collecting MLIR diagnostics and printing them as `file:line:col: error: …`.

use std::{cell::RefCell, ffi::c_void, rc::Rc};

use acopy_expect::Severity;
use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Location,
    Context,
};
use mlir_sys::{MlirDiagnostic, MlirLogicalResult, MlirStringRef};

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
    ///
    /// Through the C API rather than melior's `attach_diagnostic_handler`: a
    /// message can hold bytes that are not UTF-8 (a symbol `@"\FF"` in
    /// "'func.call' op '...' does not reference a valid function"), and
    /// melior's `Diagnostic` only prints through `Display`, which fails on
    /// them, so `to_string` panicked.
    pub fn attach(&self, context: &Context) {
        type Data = Rc<RefCell<Vec<Collected>>>;
        unsafe extern "C" fn handle(
            diagnostic: MlirDiagnostic,
            data: *mut c_void,
        ) -> MlirLogicalResult {
            // A panic must not unwind into MLIR's C++ frames (it would abort):
            // on one, the diagnostic is left to MLIR's default handler.
            let handled = std::panic::catch_unwind(|| {
                // SAFETY: `data` is the `Data` boxed below, alive until
                // `destroy`; MLIR hands a live diagnostic.
                unsafe {
                    let collected = &*(data as *const Data);
                    record(diagnostic, &mut collected.borrow_mut());
                }
            });
            MlirLogicalResult {
                value: i8::from(handled.is_ok()),
            }
        }
        unsafe extern "C" fn destroy(data: *mut c_void) {
            // SAFETY: `data` came from `Box::into_raw` below, and MLIR calls
            // this once, when the handler is detached or the context dies.
            let data = unsafe { Box::from_raw(data as *mut Data) };
            // Dropping the `Rc` cannot panic unless a borrow is live, which
            // it is not here; still, nothing may unwind into MLIR.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(data)));
        }
        let data: *mut Data = Box::into_raw(Box::new(self.collected.clone()));
        // SAFETY: the context is live; `handle` and `destroy` match `data`.
        unsafe {
            mlir_sys::mlirContextAttachDiagnosticHandler(
                context.to_raw(),
                Some(handle),
                data.cast(),
                Some(destroy),
            );
        }
    }

    /// Takes the diagnostics recorded so far. Positions in the parsed buffer,
    /// which MLIR names `""` or `-`, are renamed to `source_name` and moved
    /// down by `lines_before`, the lines of the input before the chunk
    /// (parsing each `--split-input-file` chunk behind that many blank lines
    /// instead made the run quadratic in the number of chunks).
    pub fn take_for(&self, source_name: &str, lines_before: usize) -> Vec<Collected> {
        let lines_before = u32::try_from(lines_before).unwrap_or(u32::MAX);
        let mut collected = std::mem::take(&mut *self.collected.borrow_mut());
        for diagnostic in &mut collected {
            if let Some((file, line, _)) = &mut diagnostic.position {
                if file.is_empty() || file == "-" {
                    *file = source_name.to_string();
                    if *line > 0 {
                        *line = line.saturating_add(lines_before);
                    }
                }
            }
        }
        collected
    }
}

/// # Safety
///
/// `raw` must be a live diagnostic.
unsafe fn record(raw: MlirDiagnostic, out: &mut Vec<Collected>) {
    // SAFETY: the caller hands a live diagnostic.
    let diagnostic = unsafe { Diagnostic::from_raw(raw) };
    out.push(Collected {
        severity: severity(diagnostic.severity()),
        position: position(diagnostic.location()),
        // SAFETY: as above.
        message: unsafe { message(raw) },
    });
    for index in 0..diagnostic.note_count() {
        // SAFETY: `index` is below the note count; notes live as long as
        // their diagnostic.
        unsafe { record(mlir_sys::mlirDiagnosticGetNote(raw, index as isize), out) };
    }
}

/// The diagnostic's message, with bytes that are not UTF-8 replaced.
///
/// # Safety
///
/// `raw` must be a live diagnostic.
unsafe fn message(raw: MlirDiagnostic) -> String {
    unsafe extern "C" fn append(text: MlirStringRef, data: *mut c_void) {
        if text.data.is_null() || text.length == 0 {
            return;
        }
        // No panic may unwind into MLIR's printer: on one, the message stays short.
        let _ = std::panic::catch_unwind(|| {
            // SAFETY: `data` is the `Vec` below; `text` holds `length` bytes.
            unsafe {
                let bytes = &mut *(data as *mut Vec<u8>);
                bytes.extend_from_slice(std::slice::from_raw_parts(
                    text.data.cast::<u8>(),
                    text.length,
                ));
            }
        });
    }
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: `raw` is live; `append` only writes to `bytes`, which outlives the call.
    unsafe {
        mlir_sys::mlirDiagnosticPrint(raw, Some(append), (&mut bytes as *mut Vec<u8>).cast());
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
