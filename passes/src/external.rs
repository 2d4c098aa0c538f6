//! Wrapping a Rust function as an MLIR pass.

use melior::{
    ir::{r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass},
};

use crate::PassOptions;

/// A unique address per pass, which MLIR uses as the pass's TypeID.
#[repr(align(8))]
pub(crate) struct PassId;

/// What a pass body returns: `Err` after it has emitted its error diagnostics.
pub(crate) type PassResult = Result<(), ()>;

/// Makes an MLIR pass that runs `body` on the op it is scheduled on.
pub(crate) fn external_pass(
    id: &'static PassId,
    argument: &'static str,
    summary: &'static str,
    options: PassOptions,
    body: fn(OperationRef, &PassOptions) -> PassResult,
) -> Pass {
    create_external(
        move |operation: OperationRef, pass: ExternalPass| {
            tracing::debug!(pass = argument, ?options, "running");
            if body(operation, &options).is_err() {
                pass.signal_failure();
            }
        },
        TypeId::create(id),
        argument,
        argument,
        summary,
        "",
        &[],
    )
}
