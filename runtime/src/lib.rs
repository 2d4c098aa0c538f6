//! Host side of acopy: run the kernels the compiler produces.
//!
//! * [`Runtime`]: the CUDA driver (through `cudarc`, loaded with `dlopen` at run time, so
//!   this crate builds and tests on machines without a GPU). [`Runtime::new`] returns an
//!   error, not a panic, when `libcuda` or a device is missing
//!   ([`RuntimeError::is_no_gpu`]).
//! * [`Module`] / [`Function`]: PTX loaded with `cuModuleLoadDataEx`; launches through
//!   `cuLaunchKernelEx`, with the cluster-dimension attribute when the cluster is not
//!   1x1x1, and shared memory opted in when static plus dynamic exceed 48 KiB
//!   ([`shared_memory`]).
//! * [`tensor_map`]: [`encode_params`] (pure: manifest entry + memref layout → the exact
//!   `cuTensorMapEncodeTiled` arguments, every documented limit checked) and [`encode`].
//! * [`KernelArgs`] / [`Runtime::bind`]: argument packing per the kernel ABI, documented
//!   in [`args`].
//!
//! ```no_run
//! use acopy_runtime::{Arg, LaunchConfig, Runtime};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let rt = match Runtime::new() {
//!     Ok(rt) => rt,
//!     Err(e) if e.is_no_gpu() => { println!("SKIPPED: {e}"); return Ok(()); }
//!     Err(e) => return Err(e.into()),
//! };
//! let manifest = acopy_manifest::Manifest::from_json(&std::fs::read_to_string("k.manifest.json")?)?;
//! let module = rt.load_ptx(&std::fs::read_to_string("k.ptx")?, "k.ptx")?;
//! let f = module.function("k")?;
//! let src = rt.alloc(256 * 512 * 4)?;
//! let out = rt.alloc(64 * 128 * 4)?;
//! let mut args = rt.bind(&[src.memref(&[256, 512]), out.memref(&[64, 128])], manifest.kernel("k"))?;
//! f.launch(&LaunchConfig::linear(1, 128), &mut args)?;
//! rt.synchronize()?;
//! # Ok(()) }
//! ```

pub mod args;
mod cuda;
mod driver;
mod error;
pub mod ptx;
pub mod shared_memory;
pub mod tensor_map;

pub use acopy_manifest as manifest;
pub use args::{Arg, KernelArgs, MemrefArg, ParamKind};
pub use driver::{
    DeviceBuffer, DeviceInfo, Event, Function, LaunchConfig, LoadedKernel, Module, Runtime,
};
pub use error::RuntimeError;
pub use shared_memory::DEFAULT_MAX_SMEM;
pub use tensor_map::{encode, encode_params, CuTensorMap, TensorMapError, TiledParams};

/// The raw driver bindings, for what this crate does not wrap.
pub use cudarc::driver::sys;
