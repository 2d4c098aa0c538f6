//! The `acopy` MLIR dialect: an asynchronous global→shared memory copy and its
//! companion ops (docs/dialect.md).
//!
//! The ops are defined in ODS (`acopy.td`, compiled by `build.rs` with the
//! parser and printer of their custom assembly format) and loaded into any
//! melior [`Context`](melior::Context) with [`load`], or inserted into a
//! registry through [`dialect_handle`]. ODS checks operand counts and kinds.
//! Everything else — attribute values, memory spaces, index counts — is
//! checked by the typed views in [`ops`], and [`check_module`] reports those
//! problems as MLIR errors at each op, the way an op verifier would.
//! `acopy.irdl.mlir` is the same definition in IRDL, generated for upstream
//! tools ([`IRDL_SOURCE`]).
//!
//! Frontends build ops with [`builders`], which fill in `operandSegmentSizes`,
//! and the kernel around them with [`kernel`].

mod attributes;
pub mod builders;
mod check;
mod context_scope;
pub mod diagnostics;
mod error;
pub mod kernel;
mod load;
mod memory;
pub mod names;
pub mod ops;
mod segments;
pub mod source;
#[cfg(test)]
mod tests;

pub use attributes::{
    string_value, Axis, LeaderTracked, OobMode, ReductionOp, Swizzle, ASSUME_ALIGNED_START,
};
pub use check::check_module;
pub use context_scope::with_context;
pub use error::{DialectError, ViewError};
pub use load::{dialect_handle, load, IRDL_SOURCE};
pub use memory::MemorySpace;
pub use ops::{
    AcopyOp, BarrierInit, BarrierWait, CopyGmemToSmem, CopySmemToGmem, Major, SwizzledIndex,
    WaitGmemToSmem, WaitSmemToGmem, WgmmaDescriptor,
};
