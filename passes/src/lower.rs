//! `acopy-lower`: acopy ops to NVVM, cp.async or TMA by the chip.

use melior::ir::{operation::OperationLike, OperationRef};

use crate::{
    external::{external_pass, PassId, PassResult},
    PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str = "Lower acopy ops to NVVM: cp.async below sm_90, TMA on sm_90 and newer";

static ID: PassId = PassId;

/// Creates the `acopy-lower` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(&ID, "acopy-lower", SUMMARY, options, run)
}

fn run(operation: OperationRef, _options: &PassOptions) -> PassResult {
    acopy_dialect::diagnostics::emit_error(
        operation.location(),
        "acopy-lower is not implemented yet",
    );
    Err(())
}
