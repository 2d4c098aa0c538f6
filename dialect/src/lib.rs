//! The `acopy` MLIR dialect: an asynchronous global→shared memory copy and its
//! companion ops (docs/dialect.md).
//!
//! The dialect is declared in IRDL (`acopy.irdl.mlir`, embedded in this crate)
//! and loaded into any melior [`Context`](melior::Context) with [`load`]. IRDL
//! checks operand counts and base types. Everything IRDL cannot express —
//! attribute values, memory spaces, index counts — is checked by the typed
//! views in [`ops`], and [`check_module`] reports those problems as MLIR errors
//! at each op, the way an op verifier would.
//!
//! Frontends build ops with [`builders`], which fill in `operandSegmentSizes`,
//! and the kernel around them with [`kernel`].

mod attributes;
pub mod builders;
mod check;
pub mod diagnostics;
mod error;
pub mod kernel;
mod load;
mod memory;
pub mod ops;
pub mod pipeline;
mod segments;
pub mod source;
#[cfg(test)]
mod tests;

pub use attributes::{
    string_value, Axis, LeaderTracked, OobMode, ReductionOp, Swizzle, ASSUME_ALIGNED_START,
};
pub use check::check_module;
pub use error::{DialectError, ViewError};
pub use load::{load, IRDL_SOURCE};
pub use memory::MemorySpace;
pub use ops::{
    AcopyOp, BarrierInit, BarrierWait, CopyGmemToSmem, CopySmemToGmem, WaitGmemToSmem,
    WaitSmemToGmem,
};

/// The fully qualified op names.
pub mod names {
    pub const NAMESPACE: &str = "acopy";
    pub const COPY_GMEM_TO_SMEM: &str = "acopy.copy_gmem_to_smem";
    pub const WAIT_GMEM_TO_SMEM: &str = "acopy.wait_gmem_to_smem";
    pub const BARRIER_INIT: &str = "acopy.barrier_init";
    pub const BARRIER_WAIT: &str = "acopy.barrier_wait";
    pub const COPY_SMEM_TO_GMEM: &str = "acopy.copy_smem_to_gmem";
    pub const WAIT_SMEM_TO_GMEM: &str = "acopy.wait_smem_to_gmem";
    /// Every op of the dialect.
    pub const ALL: [&str; 6] = [
        COPY_GMEM_TO_SMEM,
        WAIT_GMEM_TO_SMEM,
        BARRIER_INIT,
        BARRIER_WAIT,
        COPY_SMEM_TO_GMEM,
        WAIT_SMEM_TO_GMEM,
    ];
}
