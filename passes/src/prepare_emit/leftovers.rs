//! `acopy-check-lowered`: the last pass on each `gpu.module` of the emit
//! route, before LLVM translation.
//!
//! **Needs**: a `gpu.module` after the upstream conversions of the route
//! ([`super::route::UPSTREAM`]).
//!
//! **Guarantees**: the pass succeeds only when every op left in the module is
//! an `llvm` or `nvvm` op (what the translation to LLVM IR takes). Otherwise
//! it fails with one error per op the route did not lower, at that op's
//! location (the conversions keep the source location), naming the op and
//! its dialect; and, where every op was lowered but a
//! `builtin.unrealized_conversion_cast` is still alive (a value whose type
//! has no LLVM form on both sides), one error at each such cast naming the
//! two types. Without it the translation fails with a bare "LLVM Translation
//! failed for operation: builtin.unrealized_conversion_cast" at a function
//! argument, which names neither the op nor the fix (docs/embedding.md,
//! "The emit route").
//!
//! It verifies the module first and fails, with the verifier's errors, on IR
//! that does not verify: the emit route's pass managers verify only here, not
//! after each upstream pass (`crate::emit::route::UPSTREAM`), so IR that
//! reaches the translation has still been verified, once instead of a dozen
//! times (bench/RESULTS.md, 2026-12-06 evening).
//!
//! **Options**: none. **Layout**: nothing is rewritten.

use acopy_dialect::diagnostics::emit_error;
use melior::ir::{
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
    OperationRef, ValueLike,
};

use crate::{
    external::{external_pass, PassId, PassResult},
    ir, PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str =
    "Refuse, at the op, anything in a gpu.module that the emit route left unlowered";

const CAST: &str = crate::ir::op_names::builtin::UNREALIZED_CONVERSION_CAST.name;

static ID: PassId = PassId;

/// Creates `acopy-check-lowered`.
pub fn create_pass() -> melior::pass::Pass {
    external_pass(
        &ID,
        "acopy-check-lowered",
        SUMMARY,
        PassOptions::default(),
        &[],
        run,
    )
}

/// Whether LLVM translation takes `name` as it is.
fn translatable(name: &str) -> bool {
    name.starts_with("llvm.") || name.starts_with("nvvm.")
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    // The verifier reports its own errors, as the pass manager's would.
    if !module.verify() {
        return Err(());
    }
    let mut foreign = Vec::new();
    let mut casts = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if op == module {
            return WalkResult::Advance;
        }
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if name == CAST {
            casts.push(op.to_raw());
            WalkResult::Advance
        } else if translatable(name) {
            WalkResult::Advance
        } else {
            foreign.push(op.to_raw());
            // Its body is reported with it.
            WalkResult::Skip
        }
    });
    let report = if foreign.is_empty() { casts } else { foreign };
    for raw in &report {
        // SAFETY: the walk found these ops under `module`, which the pass holds
        // and which nothing above rewrote.
        let op = unsafe { OperationRef::from_raw(*raw) };
        emit_error(op.location(), &message(op));
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(())
    }
}

/// The error for one op left behind.
fn message(op: OperationRef) -> String {
    let name = ir::op_name(&op);
    if name != CAST {
        let dialect = name.split('.').next().unwrap_or_default();
        return format!(
            "'{name}' (dialect '{dialect}') is not lowered by the emit route, so it cannot become LLVM IR or PTX: the route lowers what upstream's gpu-lower-to-nvvm-pipeline lowers in a gpu.module (docs/embedding.md, \"The emit route\"); rewrite it into ops the route lowers before emitting LLVM IR or PTX"
        );
    }
    let from = op
        .operand(0)
        .map(|value| value.r#type().to_string())
        .unwrap_or_default();
    let to = op
        .result(0)
        .map(|result: OperationResult| result.r#type().to_string())
        .unwrap_or_default();
    format!(
        "a value of type {from} is still cast to {to} after the emit route: no conversion gives it an LLVM form on both sides, so LLVM IR cannot be made (docs/embedding.md, \"The emit route\"); remove the cast or give both sides one LLVM type"
    )
}
