//! The one way a C entry point runs: its body's error or panic becomes an
//! `AcopyResult` with a status, never an unwind into C.

use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::{Context, ContextRef};
use mlir_sys::MlirContext;

use crate::{
    result::{hand_out, AcopyResult},
    status::{AcopyStatus, CallError},
};

/// Runs `body`, stores what it made (or why it failed) in `*out` when `out`
/// is not null, and returns its status.
///
/// # Safety
/// `out` is null or points to writable memory for one pointer.
pub unsafe fn call(
    out: *mut *mut AcopyResult,
    body: impl FnOnce() -> Result<AcopyResult, CallError>,
) -> AcopyStatus {
    let result = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(result)) => result,
        Ok(Err(error)) => AcopyResult::new(error.status(), &error.to_string()),
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("no message");
            let error = CallError::Panicked(detail.to_string());
            AcopyResult::new(error.status(), &error.to_string())
        }
    };
    // SAFETY: the caller's contract.
    unsafe { hand_out(result, out) }
}

/// [`call`] for an entry point that returns only a status.
pub fn status(body: impl FnOnce() -> Result<(), CallError>) -> AcopyStatus {
    // SAFETY: a null `out`: nothing is stored.
    unsafe {
        call(std::ptr::null_mut(), || {
            body().map(|()| AcopyResult::new(AcopyStatus::Ok, ""))
        })
    }
}

/// The caller's context as a melior `&Context` for the length of `body`.
///
/// # Safety
/// `raw` is a live context.
pub unsafe fn with_context<T>(raw: MlirContext, body: impl FnOnce(&Context) -> T) -> T {
    // SAFETY: the caller's contract; a ContextRef never destroys the context.
    let context = unsafe { ContextRef::from_raw(raw) };
    // SAFETY: `context` lives for the whole call of `body`.
    body(unsafe { context.to_ref() })
}
