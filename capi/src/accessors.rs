//! The `acopyResult*` functions: reading and freeing an `AcopyResult`.

use std::{ffi::c_char, ptr};

use crate::{
    result::{self, AcopyDiagnostic, AcopyOutput, AcopyResult},
    status::AcopyStatus,
};

/// # Safety
/// `raw` is any pointer: acopy reads it only if it made it.
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetStatus(raw: *const AcopyResult) -> AcopyStatus {
    // SAFETY: `find` checks the pointer against the live set.
    match unsafe { result::find(raw) } {
        Ok(result) => result.status,
        Err(status) => status,
    }
}

/// # Safety
/// As [`acopyResultGetStatus`].
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetMessage(raw: *const AcopyResult) -> *const c_char {
    // SAFETY: `find` checks the pointer against the live set.
    unsafe { result::find(raw) }.map_or(ptr::null(), AcopyResult::message)
}

/// # Safety
/// As [`acopyResultGetStatus`].
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetManifestJson(raw: *const AcopyResult) -> *const c_char {
    // SAFETY: `find` checks the pointer against the live set.
    unsafe { result::find(raw) }.map_or(ptr::null(), AcopyResult::manifest)
}

/// # Safety
/// As [`acopyResultGetStatus`].
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetNumDiagnostics(raw: *const AcopyResult) -> isize {
    // SAFETY: `find` checks the pointer against the live set.
    unsafe { result::find(raw) }.map_or(-1, |result| result.num_diagnostics() as isize)
}

/// # Safety
/// As [`acopyResultGetStatus`]; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetDiagnostic(
    raw: *const AcopyResult,
    index: isize,
    out: *mut AcopyDiagnostic,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe { write_item(raw, index, out, AcopyResult::diagnostic) }
}

/// # Safety
/// As [`acopyResultGetStatus`].
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetNumOutputs(raw: *const AcopyResult) -> isize {
    // SAFETY: `find` checks the pointer against the live set.
    unsafe { result::find(raw) }.map_or(-1, |result| result.num_outputs() as isize)
}

/// # Safety
/// As [`acopyResultGetDiagnostic`].
#[no_mangle]
pub unsafe extern "C" fn acopyResultGetOutput(
    raw: *const AcopyResult,
    index: isize,
    out: *mut AcopyOutput,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe { write_item(raw, index, out, AcopyResult::output) }
}

/// Any pointer: acopy frees it only if it made it and has not freed it.
#[no_mangle]
pub extern "C" fn acopyResultDestroy(raw: *mut AcopyResult) -> AcopyStatus {
    result::destroy(raw)
}

/// Writes item `index` of a result (`get` reads it) to `out`: the status
/// every indexed accessor returns (a null or foreign result, a null `out`, an
/// index out of range).
///
/// # Safety
/// `raw` any pointer; `out` null or writable.
unsafe fn write_item<T>(
    raw: *const AcopyResult,
    index: isize,
    out: *mut T,
    get: impl Fn(&AcopyResult, usize) -> Option<T>,
) -> AcopyStatus {
    // SAFETY: `find` checks the pointer against the live set.
    let result = match unsafe { result::find(raw) } {
        Ok(result) => result,
        Err(status) => return status,
    };
    if out.is_null() {
        return AcopyStatus::NullHandle;
    }
    match usize::try_from(index)
        .ok()
        .and_then(|index| get(result, index))
    {
        Some(item) => {
            // SAFETY: not null; writable (the caller's contract).
            unsafe { out.write(item) };
            AcopyStatus::Ok
        }
        None => AcopyStatus::InvalidArgument,
    }
}
