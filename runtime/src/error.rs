//! Errors of the host runtime.

use crate::tensor_map::TensorMapError;
use cudarc::driver::sys;
use std::time::Duration;

/// Everything that can go wrong on the host side.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RuntimeError {
    /// `libcuda.so` could not be loaded: no NVIDIA driver on this machine.
    #[error("the CUDA driver library could not be loaded (tried {tried})")]
    LibraryMissing { tried: String },
    /// The driver loaded but there is no usable device.
    #[error("no CUDA device: {0}")]
    NoDevice(String),
    /// A driver call failed.
    #[error("{call} failed: {name}: {message}")]
    Driver {
        call: &'static str,
        code: u32,
        name: String,
        message: String,
    },
    /// `cuModuleLoadDataEx` rejected the PTX; `log` is the JIT error log.
    #[error("loading PTX failed ({name}): {log}")]
    ModuleLoad { name: String, log: String },
    #[error("kernel `{0}` is not in the module")]
    KernelNotFound(String),
    #[error("tensor map: {0}")]
    TensorMap(#[from] TensorMapError),
    /// The packed arguments do not match the kernel's PTX `.param` list.
    #[error("arguments of kernel `{kernel}` do not match its PTX parameters: {detail}")]
    ArgMismatch { kernel: String, detail: String },
    /// Building kernel arguments from a manifest entry failed.
    #[error("binding kernel arguments: {0}")]
    Bind(String),
    #[error("bad launch configuration: {0}")]
    Launch(String),
    #[error("the GPU did not finish within {0:?} (hung kernel?)")]
    Timeout(Duration),
}

impl RuntimeError {
    /// Whether this error means "there is no GPU to run on" (print a skip reason)
    /// rather than "something is broken".
    pub fn is_no_gpu(&self) -> bool {
        matches!(
            self,
            RuntimeError::LibraryMissing { .. } | RuntimeError::NoDevice(_)
        )
    }
}

/// Turn a driver status into a `Result`, naming the call.
pub(crate) fn check(call: &'static str, r: sys::CUresult) -> Result<(), RuntimeError> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    Err(driver_error(call, r))
}

pub(crate) fn driver_error(call: &'static str, r: sys::CUresult) -> RuntimeError {
    let e = cudarc::driver::result::DriverError(r);
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{r:?}"));
    let message = e
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "no description".to_string());
    RuntimeError::Driver {
        call,
        code: r as u32,
        name,
        message,
    }
}
