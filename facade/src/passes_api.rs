//! acopy's passes in a frontend's own pass manager.
//!
//! The order is fixed: [`add_passes`] (or [`add_verify_pass`] alone), run,
//! then [`manifest`], then [`add_emit_passes`] in a second pass manager, run.
//! The manifest is read from records `acopy-lower` leaves on the kernels and
//! the PTX step drops, so it cannot come from one pass manager that does
//! everything; [`manifest`] refuses IR at any other point.

use acopy_manifest::Manifest;
use acopy_passes::{emit, manifest::CollectError, pass_pipeline::PipelineError};
use melior::{ir::Module, pass::OperationPassManager};

use crate::Options;

/// Adds `acopy-lower` to `manager` (anchored on `builtin.module`): it checks
/// every acopy op as `acopy-verify` does, fails with located errors on ops the
/// chip cannot do, and otherwise replaces them with NVVM ops. Uses
/// `options.chip` and `options.fallback`.
pub fn add_passes(manager: OperationPassManager, options: &Options) {
    manager.add_pass(acopy_passes::lower::create_pass(options.pass_options()));
}

/// Adds `acopy-verify` alone: the errors, without changing the IR.
pub fn add_verify_pass(manager: OperationPassManager, options: &Options) {
    manager.add_pass(acopy_passes::verify::create_pass(options.pass_options()));
}

/// The tensor-map manifest of `module`, after [`add_passes`]' passes ran and
/// before [`add_emit_passes`]' did; an error (never an empty manifest) at any
/// other point.
pub fn manifest(module: &Module, options: &Options) -> Result<Manifest, CollectError> {
    acopy_passes::manifest::collect(module.as_operation(), options.chip)
}

/// Adds the passes that take lowered IR to `options.emit` (none for
/// [`crate::Emit::Mlir`]); [`acopy_passes::emit::collect`] then reads the texts.
pub fn add_emit_passes(
    manager: OperationPassManager,
    options: &Options,
) -> Result<(), PipelineError> {
    emit::add_passes(manager, options.emit, options.chip)
}
