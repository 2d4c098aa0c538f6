//! Emitting MLIR diagnostics at a location.
//!
//! melior exposes no way to emit a diagnostic, so this wraps the C API for
//! errors and a small C++ shim (`diagnostics_shim.cpp`, built by `build.rs`)
//! for remarks and warnings, which the C API lacks. The diagnostics reach
//! whatever handler is attached to the context, exactly as an upstream pass's
//! do.

use std::ffi::{c_char, CString};

use melior::ir::Location;

extern "C" {
    fn acopyEmitRemark(location: mlir_sys::MlirLocation, message: *const c_char);
    fn acopyEmitWarning(location: mlir_sys::MlirLocation, message: *const c_char);
}

/// `message` as a C string. Interior NULs cannot come from our own messages;
/// replace them rather than panic.
fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', " ")).unwrap_or_default()
}

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let message = c_message(message);
    // SAFETY: the location belongs to a live context and the message is a valid C string
    // that outlives the call.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}

/// Emits a remark diagnostic at `location`.
pub fn emit_remark(location: Location, message: &str) {
    let message = c_message(message);
    // SAFETY: as for `emit_error`; the shim only reads both for the call.
    unsafe { acopyEmitRemark(location.to_raw(), message.as_ptr()) }
}

/// Emits a warning diagnostic at `location`.
pub fn emit_warning(location: Location, message: &str) {
    let message = c_message(message);
    // SAFETY: as for `emit_error`; the shim only reads both for the call.
    unsafe { acopyEmitWarning(location.to_raw(), message.as_ptr()) }
}
