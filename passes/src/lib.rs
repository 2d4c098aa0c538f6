//! acopy's passes and the pipeline that runs them.
//!
//! | pass | module | needs | guarantees |
//! |---|---|---|---|
//! | `acopy-pipeline` | [`pipeliner`] | loops marked `acopy.pipeline` | each becomes multi-buffered acopy IR, or gets a located error |
//! | `acopy-verify` | [`verify`] | acopy ops inside `gpu.module`s with a resolvable chip | every op the chip cannot do has an error at its location (docs/verification.md); the IR is unchanged |
//! | `acopy-lower` | [`lower`] | IR that `acopy-verify` accepts | no acopy op remains; NVVM ops for the chip's copy path |
//! | `acopy-prepare-emit` | [`emit::prepare`] | lowered IR | each `gpu.module` targets its chip; what LLVM would abort on is an error at the op |
//! | `acopy-tensor-map-params` | [`manifest::params`] | IR after `convert-gpu-to-nvvm` | TMA tensor-map parameters are `__grid_constant__` |
//!
//! `plan` is the analysis both passes read: what each copy is (path, window,
//! box, chunks, alignment proofs, tensor-map key, fallback decision), worked
//! out once from the IR; it imports neither `verify` nor `lower`.
//!
//! [`diagnostics`] copies MLIR's diagnostics out as data, for library callers
//! and the driver.
//!
//! [`emit`] takes lowered IR on to LLVM IR or PTX with the upstream passes, in process.
//! `per_module` runs a pipeline on each `gpu.module` apart on MLIR's thread
//! pool, with one thread's outputs and diagnostics ([`lower::per_module`],
//! [`emit::per_module`]).
//!
//! [`registry`] lists the passes once, for the driver's flags and for
//! `--pass-pipeline`; [`pipeline`] turns a pipeline string that mixes acopy and
//! upstream passes into a [`melior::pass::PassManager`]; `ir` holds the IR
//! queries and edits they share beyond melior's safe API.

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
pub mod pipeliner;
pub(crate) mod plan;
mod raise_alignment;
pub mod registry;
mod run_cache;
mod scoped_memo;
pub mod target;
pub mod verify;

pub use options::PassOptions;
