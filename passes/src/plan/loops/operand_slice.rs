//! What a copy issued early must recompute: the pure body ops its operands
//! come from (rule P7).

use acopy_dialect::CopyGmemToSmem;
use melior::ir::{operation::OperationLike, BlockRef, OperationRef};

use crate::ir;
use crate::ir::op_names::is_pure;
use crate::ir::query::{ancestor_in, top_level_ops};

/// The body ops the copy's operands (all but dst) are computed by, in
/// program order; an error names the first operand that depends on a memory
/// read, an op with regions, or an iter_arg (P7).
pub(crate) fn operand_slice<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    body: BlockRef<'c, 'a>,
    early: Option<u32>,
) -> Result<Vec<OperationRef<'c, 'a>>, String> {
    let mut operands = vec![("src".to_string(), view.src)];
    for (position, index) in view.indices.iter().enumerate() {
        operands.push((format!("index #{position}"), *index));
    }
    let mut slice: Vec<OperationRef> = Vec::new();
    for (role, operand) in operands {
        let mut stack = vec![operand];
        while let Some(value) = stack.pop() {
            if let Some((block, position)) = ir::block_argument(value) {
                if block == body && position > 0 {
                    return Err(p7(early, &role, &format!("the iter_arg #{}", position - 1)));
                }
                continue;
            }
            let Some(op) = ir::defining_op(value) else {
                continue;
            };
            if op.block() != Some(body) {
                if ancestor_in(op, body).is_some() {
                    return Err(p7(early, &role, "a value defined in a nested region"));
                }
                continue;
            }
            if slice.contains(&op) {
                continue;
            }
            let name = ir::op_name(&op);
            if !is_pure(&name) || op.region_count() > 0 {
                return Err(p7(early, &role, &format!("'{name}'")));
            }
            slice.push(op);
            stack.extend(op.operands());
        }
    }
    // Program order: the clone must define each value before its uses.
    let order = top_level_ops(body);
    slice.sort_by_key(|op| order.iter().position(|other| other == op));
    Ok(slice)
}

/// `early`: how many iterations early, when the stage count is given.
fn p7(early: Option<u32>, role: &str, what: &str) -> String {
    let early = match early {
        Some(early) => format!("{early} iterations early"),
        None => "iterations early (stages = \"auto\")".to_string(),
    };
    format!("a pipelined copy is issued {early}, so its operands must be computed from the induction variable and loop-invariant values by pure ops, but its {role} depends on {what}")
}
