//! acopy's passes and the pipeline that runs them.
//!
//! | pass | module | needs | guarantees |
//! |---|---|---|---|
//! | `acopy-verify` | [`verify`] | acopy ops inside `gpu.module`s with a resolvable chip | every op the chip cannot do has an error at its location (docs/verification.md); the IR is unchanged |
//! | `acopy-lower` | [`lower`] | IR that `acopy-verify` accepts | no acopy op remains; NVVM ops for the chip's copy path |
//!
//! [`diagnostics`] copies MLIR's diagnostics out as data, for library callers
//! and the driver.
//!
//! [`emit`] takes lowered IR on to LLVM IR or PTX with the upstream passes, in process.
//!
//! [`registry`] lists the passes once, for the driver's flags and for
//! `--pass-pipeline`; [`pipeline`] turns a pipeline string that mixes acopy and
//! upstream passes into a [`melior::pass::PassManager`]; `ir` holds the IR
//! queries and edits they share beyond melior's safe API.

mod alignment_proof;
pub mod context;
pub mod diagnostics;
#[cfg(test)]
mod dialect_doc_tests;
pub mod emit;
mod external;
mod ir;
pub mod lower;
pub mod manifest;
pub mod options;
mod per_module;
pub mod pipeline;
pub mod registry;
mod run_cache;
mod scoped_memo;
pub mod target;
pub mod verify;

pub use options::PassOptions;
