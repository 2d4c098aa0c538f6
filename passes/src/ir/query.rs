//! Questions about IR beyond melior's safe API that the loop analysis
//! (`crate::plan::loops`) and the pipeliner ask: how to name a value in a
//! message, which ops use it and where an op sits (which ops are pure, the
//! op-name table says: `super::op_names::is_pure`).

use melior::ir::{
    block::BlockLike, operation::OperationLike, BlockRef, OperationRef, Value, ValueLike,
};

use super as ir;
use super::op_names::memref;

/// A value, named for messages: a workgroup attribution or kernel argument by
/// its position, an op result by its op, with the type.
pub(crate) fn describe(value: Value) -> String {
    let r#type = value.r#type();
    if let Some((block, position)) = ir::block_argument(value) {
        if let Some(function) = block.parent_operation() {
            if ir::is(&function, ir::op_names::gpu::FUNC) {
                let inputs = ir::function_inputs(function).unwrap_or(usize::MAX);
                return if position >= inputs {
                    format!("(workgroup attribution #{} : {type})", position - inputs)
                } else {
                    format!("(kernel argument #{position} : {type})")
                };
            }
        }
        return format!("(block argument #{position} : {type})");
    }
    match ir::defining_op(value) {
        Some(op) if ir::is(&op, memref::GET_GLOBAL) => format!(
            "({} : {type})",
            op.attribute("name")
                .map(|name| name.to_string())
                .unwrap_or_default()
        ),
        Some(op) => format!("(the result of '{}' : {type})", ir::op_name(&op)),
        None => format!("({type})"),
    }
}

/// Whether `op` is `ancestor` or nested in it.
pub(crate) fn is_inside(op: OperationRef, ancestor: OperationRef) -> bool {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if candidate == ancestor {
            return true;
        }
        current = candidate.parent_operation();
    }
    false
}

/// The op of `block` that is or holds `op`.
pub(crate) fn ancestor_in<'c, 'a>(
    op: OperationRef<'c, 'a>,
    block: BlockRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if candidate.block() == Some(block) {
            return Some(candidate);
        }
        current = candidate.parent_operation();
    }
    None
}

/// The ops that use `value`, once per use.
pub(crate) fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut found = Vec::new();
    // SAFETY: walking the use list of a live value; each owner is a live op.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            let owner = mlir_sys::mlirOpOperandGetOwner(operand);
            let number = mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize;
            found.push((OperationRef::from_raw(owner), number));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// The ops under `operation` (itself included) that `wanted` picks, in walk
/// order (pre-order: outermost first).
pub(crate) fn ops_where<'c, 'a>(
    operation: OperationRef<'c, 'a>,
    mut wanted: impl FnMut(OperationRef) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    use melior::ir::operation::{WalkOrder, WalkResult};
    let mut found = Vec::new();
    operation.walk(WalkOrder::PreOrder, |op| {
        if wanted(op) {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: the walk found these ops under `operation`, which is live.
    found
        .into_iter()
        .map(|raw| unsafe { OperationRef::from_raw(raw) })
        .collect()
}

/// The ops of `block`, in order.
pub(crate) fn top_level_ops<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut current = block.first_operation();
    while let Some(op) = current {
        ops.push(op);
        current = op.next_in_block();
    }
    ops
}

/// The op before `op` in its block (MLIR's C API has no accessor for it).
pub(crate) fn previous_op<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let block = op.block()?;
    let mut previous = None;
    let mut current = block.first_operation();
    while let Some(candidate) = current {
        if candidate == op {
            return previous;
        }
        previous = Some(candidate);
        current = candidate.next_in_block();
    }
    None
}

/// How many uses the results of `op` have.
pub(crate) fn users_of_op(op: OperationRef) -> usize {
    (0..op.result_count())
        .filter_map(|index| op.result(index).ok())
        .map(|result| users(result.into()).len())
        .sum()
}
