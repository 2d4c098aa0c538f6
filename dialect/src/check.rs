use melior::ir::{operation::OperationLike, operation::WalkOrder, operation::WalkResult, Module};

use crate::{diagnostics::emit_error, AcopyOp};

/// Reads every acopy op of `module` through its view and emits an error at each
/// op that cannot be read (a malformed attribute, a wrong memory space, ...).
///
/// Returns the number of errors emitted. This is the dialect's own verifier:
/// run it after parsing, since acopy.td leaves attribute values to the views.
pub fn check_module(module: &Module) -> usize {
    let mut errors = 0;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(Err(error)) = AcopyOp::from_op(op) {
            emit_error(op.location(), &error.to_string());
            errors += 1;
        }
        WalkResult::Advance
    });
    errors
}
