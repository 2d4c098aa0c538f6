//! The write-after-read warning for loops nobody pipelines.
//!
//! A plain `scf.for` whose body copies into a shared tile, waits and reads the
//! tile races with itself: a thread that finishes its reads starts the next
//! iteration's copy while slower threads still read the tile (on an H200 an
//! sm_80 loop of this form gave wrong data in 21 of 44 launches). Nothing
//! orders the reads before the next copy unless a `gpu.barrier` sits between
//! them: after the last read, or before the copy. [`check`] finds the copies
//! without one; `acopy-verify` warns at each (docs/verification.md, "The
//! write-after-read warning").

use acopy_dialect::names;
use melior::ir::{operation::OperationLike, OperationRef, RegionLike};

use super::attr;
use crate::ir;

/// The warning for each racing copy of the loop `loop_op`, at the copy.
pub fn check<'c, 'a>(loop_op: OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, String)> {
    if !ir::is(&loop_op, ir::op_names::scf::FOR)
        || loop_op.has_attribute(attr::PIPELINE)
        || loop_op.has_attribute(attr::PIPELINED)
    {
        return Vec::new();
    }
    let Some(body) = loop_op
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
    else {
        return Vec::new();
    };
    let top = crate::ir::query::top_level_ops(body);
    let barriers: Vec<usize> = top
        .iter()
        .enumerate()
        .filter(|(_, op)| ir::is(op, ir::op_names::gpu::BARRIER))
        .map(|(position, _)| position)
        .collect();
    let mut warnings = Vec::new();
    for (position, copy) in top.iter().enumerate() {
        if ir::op_name(copy) != names::COPY_GMEM_TO_SMEM {
            continue;
        }
        let Ok(tile) = copy.operand(1) else {
            continue;
        };
        // The tile's readers in this body after the copy, by their top-level op.
        let mut readers: Vec<(usize, String)> = Vec::new();
        for (user, _) in crate::ir::query::users(tile) {
            if ir::op_name(&user).starts_with("acopy.") {
                continue;
            }
            let Some(ancestor) = crate::ir::query::ancestor_in(user, body) else {
                continue;
            };
            if let Some(at) = top.iter().position(|op| *op == ancestor) {
                if at > position {
                    readers.push((at, ir::op_name(&user)));
                }
            }
        }
        let Some(last) = readers.iter().map(|(at, _)| *at).max() else {
            continue;
        };
        let ordered = barriers
            .iter()
            .any(|barrier| *barrier > last || *barrier < position);
        if ordered {
            continue;
        }
        let mut names: Vec<String> = readers.into_iter().map(|(_, name)| name).collect();
        names.sort();
        names.dedup();
        let names = names
            .iter()
            .map(|name| format!("'{name}'"))
            .collect::<Vec<_>>()
            .join(", ");
        warnings.push((
            *copy,
            format!(
                "this copy into the tile {} can overwrite it while other threads still read it in the previous iteration ({names}): nothing orders those reads before the next iteration's copy; add a gpu.barrier at the end of the loop body, or mark the loop with acopy.pipeline, which orders them",
                crate::ir::query::describe(tile)
            ),
        ));
    }
    warnings
}
