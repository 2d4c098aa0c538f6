//! Emitting MLIR diagnostics at a location.
//!
//! melior exposes no way to emit a diagnostic, so this wraps the C API. The
//! diagnostics reach whatever handler is attached to the context, exactly as
//! an upstream pass's errors do.

use std::ffi::CString;

use melior::ir::Location;

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    // Interior NULs cannot come from our own messages; replace them rather than panic.
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location belongs to a live context and the message is a valid C string
    // that outlives the call.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}
