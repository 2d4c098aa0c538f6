//! Loading the CUDA driver library, once per process: the one step both the driver
//! wrapper ([`crate::driver`]) and the tensor-map encoder ([`crate::tensor_map`]) need
//! before their first driver call, kept apart so that neither imports the other.

use crate::error::{driver_error, RuntimeError};
use cudarc::driver::sys;
use std::sync::OnceLock;

/// Load `libcuda` and call `cuInit` once. Errors (not panics) when the library or a
/// device is missing.
pub(crate) fn init_driver() -> Result<(), RuntimeError> {
    static INIT: OnceLock<Result<(), RuntimeError>> = OnceLock::new();
    INIT.get_or_init(|| {
        // SAFETY: only tries to dlopen the candidate names.
        if !unsafe { sys::is_culib_present() } {
            let mut tried = cudarc::get_lib_name_candidates("cuda");
            let mut seen = std::collections::HashSet::new();
            tried.retain(|n| seen.insert(n.clone()));
            return Err(RuntimeError::LibraryMissing {
                tried: tried.join(", "),
            });
        }
        // SAFETY: the library is present, so resolving the symbol cannot panic.
        let r = unsafe { sys::cuInit(0) };
        use sys::CUresult::*;
        match r {
            CUDA_SUCCESS => Ok(()),
            // "No GPU here": a machine without a device, or only the toolkit's stub.
            CUDA_ERROR_NO_DEVICE | CUDA_ERROR_STUB_LIBRARY | CUDA_ERROR_INVALID_DEVICE => Err(
                RuntimeError::NoDevice(driver_error("cuInit", r).to_string()),
            ),
            _ => Err(driver_error("cuInit", r)),
        }
    })
    .clone()
}
