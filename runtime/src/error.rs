//! Errors of the host runtime.

use acopy_manifest::ElementType;
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
    /// Static plus dynamic shared memory above what the device allows per block even
    /// after opting in (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN`).
    #[error("kernel `{kernel}` needs {static_bytes} bytes of static and {dynamic_bytes} of dynamic shared memory, {} in all, above the device's {limit} bytes per block", u64::from(*static_bytes) + u64::from(*dynamic_bytes))]
    SharedMemory {
        kernel: String,
        static_bytes: u32,
        dynamic_bytes: u32,
        limit: u32,
    },
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

/// Largest tensor rank.
pub const MAX_RANK: usize = 5;
/// Largest box dimension, in elements.
pub const MAX_BOX_DIM: u32 = 256;
/// Largest global dimension, in elements (2^32).
pub const MAX_GLOBAL_DIM: u64 = 1 << 32;
/// Global byte strides must be below this (2^40).
pub const STRIDE_LIMIT: u64 = 1 << 40;

/// A limit of `cuTensorMapEncodeTiled` that the request breaks. Dimension indices
/// (`dim`) count in the caller's order, **outermost first**.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TensorMapError {
    #[error("tensor rank {rank} is outside 1..={MAX_RANK}")]
    Rank { rank: usize },
    #[error(
        "ranks differ: box has {box_rank} dimensions, shape {shape_rank}, strides {strides_rank}"
    )]
    RankMismatch {
        box_rank: usize,
        shape_rank: usize,
        strides_rank: usize,
    },
    #[error("box dimension {dim} is {value}; it must be in 1..={MAX_BOX_DIM}")]
    BoxDim { dim: usize, value: u32 },
    #[error("global dimension {dim} is {value}; it must be in 1..=2^32")]
    GlobalDim { dim: usize, value: u64 },
    #[error("the innermost stride is {stride} elements; TMA needs a contiguous innermost dimension (stride 1)")]
    InnerStride { stride: u64 },
    #[error("stride of dimension {dim} is {bytes} bytes; it must be a multiple of 16")]
    StrideAlignment { dim: usize, bytes: u64 },
    #[error("stride of dimension {dim} is {bytes} bytes; it must be below 2^40")]
    StrideTooLarge { dim: usize, bytes: u64 },
    #[error("global address {address:#x} is not 16-byte aligned")]
    BaseAlignment { address: u64 },
    #[error("the inner box dimension is {bytes} bytes; it must be a multiple of 16")]
    InnerBoxBytes { bytes: u64 },
    #[error("the inner box dimension is {bytes} bytes, more than the {swizzle}-byte swizzle span")]
    SwizzleSpanExceeded { bytes: u64, swizzle: u32 },
    #[error("the inner box dimension is {bytes} bytes; acopy's swizzle={swizzle} lowering needs exactly {swizzle} bytes")]
    SwizzleSpanMismatch { bytes: u64, swizzle: u32 },
    #[error(
        "oob_fill nan_request_zero_fma needs a floating-point element type, not {element_type}"
    )]
    OobFillNeedsFloat { element_type: ElementType },
}
