//! acopy for compiler frontends.
//!
//! One call takes IR holding acopy ops (a [`melior::ir::Module`] built with
//! [`dialect::builders`] or [`dialect::kernel`], or MLIR text) to PTX, LLVM IR
//! or lowered MLIR, with the tensor-map manifest as a typed value and every
//! diagnostic as data:
//!
//! ```no_run
//! let source = std::fs::read_to_string("kernels.mlir").unwrap();
//! let options = acopy::Options { chip: Some(acopy::Chip::parse("sm_90").unwrap()), ..Default::default() };
//! match acopy::compile(source.as_str(), &options) {
//!     Ok(compiled) => for output in &compiled.outputs { println!("{}", output.text) },
//!     Err(failed) => for d in &failed.diagnostics { eprintln!("{d}") },
//! }
//! ```
//!
//! The pass order is inside [`compile`]: the dialect's own checks,
//! `acopy-lower` (which verifies first), the manifest, then the upstream
//! passes to LLVM IR or PTX. A frontend with its own pass manager uses
//! [`add_passes`], [`manifest`] and [`add_emit_passes`] in that order
//! instead. `docs/embedding.md` says why the order matters.
//!
//! The sub-crates are re-exported: [`melior`] (the MLIR bindings, 0.27, which a
//! dependent crate must use too), [`dialect`], [`passes`], [`target`] and
//! [`manifest_format`] (the tensor-map manifest types, acopy-manifest).

mod compile;
mod context;
mod options;
mod passes_api;
mod pipeline;

pub use acopy_dialect as dialect;
pub use acopy_manifest as manifest_format;
pub use acopy_passes as passes;
pub use acopy_passes::diagnostics::{
    Detail, Diagnostic, MulticastSlots, PipelinedLoop, Position, Severity, TileSlots, WaitScheme,
};
pub use acopy_target as target;
pub use acopy_target::Chip;
pub use melior;

pub use acopy_passes::emit::Emit;
pub use compile::{compile, verify, Compiled, Failed, Input, Output};
pub use context::{create_context, prepare_context};
pub use options::Options;
pub use passes_api::{add_emit_passes, add_passes, add_verify_pass, manifest};
pub use pipeline::{Instrumentation, Passes, Pipeline, Prepared, Ran, RunError};
