//! What both schedules do to a marked loop's body: issue a copy of an iteration into
//! a slot (its operands recomputed for that iteration), point the consumers at the slot
//! view, and erase the copies, the wait and what only they used.

use acopy_dialect::{builders, CopyGmemToSmem};
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, Value};

use crate::ir;
use crate::ir::build::{self, Builder as B, Ix};
use crate::ir::op_names::{affine, memref};
use crate::plan::loops::{
    loop_plan::{Induction, LoopPlan},
    slots,
};

use super::shared_globals::barrier_view;
use super::slot_layout::{slot_view, Base};

type R<T> = Result<T, String>;
/// Every use of each tile, taken before the tile changes type.
pub(super) fn tile_uses<'c, 'a>(
    plan: &LoopPlan<'c, 'a>,
) -> Vec<Vec<(OperationRef<'c, 'a>, usize)>> {
    plan.tiles
        .iter()
        .map(|tile| crate::ir::query::users(tile.value))
        .collect()
}

/// The consumers read the slot `slot` of each tile (views built by `b`).
pub(super) fn redirect_consumers<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    tile_uses: &[Vec<(OperationRef<'c, 'a>, usize)>],
    slot: Ix<'c, 'a>,
) -> R<()> {
    for ((tile, uses), base) in plan.tiles.iter().zip(tile_uses).zip(bases) {
        let view = slot_view(b, base, tile, slot)?;
        // A wgmma descriptor or swizzled index needs the tile's alignment
        // proved (its swizzle pattern starts at 8 x S bytes); every slot has
        // it by construction.
        let described = uses.iter().any(|(user, _)| {
            let name = ir::op_name(user);
            name == acopy_dialect::names::WGMMA_DESCRIPTOR
                || name == acopy_dialect::names::SWIZZLED_INDEX
        });
        let view = if described {
            b.assume_aligned(view, tile.align)?
        } else {
            view
        };
        for (user, operand) in uses {
            if plan.copies.iter().any(|copy| copy.op == *user) {
                continue;
            }
            // SAFETY: `user` reads the tile at `operand`; the view is built
            // before the wait, which comes before every consumer.
            unsafe { build::set_operand(*user, *operand, view) };
        }
    }
    Ok(())
}

/// Erases the loop's copies, its wait and the native form's barrier init
/// (the rewrite has replaced them), then the body's ops left dead.
pub(super) fn erase_originals(plan: &LoopPlan) {
    // SAFETY (the three erasures): the copies, the wait and the native
    // barrier's init have no results in use (the consumers read the views now),
    // and the plan's handles to them are not used after.
    for copy in &plan.copies {
        unsafe { build::erase(copy.op) };
    }
    unsafe { build::erase(plan.wait) };
    if let Some(native) = &plan.native {
        unsafe { build::erase(native.init) };
    }
    erase_dead(plan.body);
}

pub(super) fn internal(error: melior::Error) -> String {
    format!("internal error: {error}")
}

/// A loop bound, step or induction value as an `index`: a constant read as
/// the loop reads it, a value of a narrower induction type extended by the
/// loop's signedness (docs/pipelining.md, "Induction variables").
pub(super) fn bound<'c, 'a>(
    b: &B<'c, 'a>,
    value: Result<Value<'c, 'a>, melior::Error>,
    induction: Induction,
) -> R<Ix<'c, 'a>> {
    let value = value.map_err(internal)?;
    if let Some(constant) = ir::constant_int(value) {
        let extended = induction.extend(constant);
        return i64::try_from(extended)
            .map(Ix::Const)
            .map_err(|_| format!("internal error: loop bound {extended} is not an index"));
    }
    match induction.bits {
        None => Ok(Ix::Val(value)),
        Some(_) => Ok(Ix::Val(b.extend_to_index(value, induction.unsigned)?)),
    }
}

/// The copies of one iteration into `slot`: with `iv`, the operand ops are
/// cloned for that induction value; without, the originals are used.
pub(super) fn issue<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    iv: Option<Value<'c, 'a>>,
    slot: Ix<'c, 'a>,
    barriers: Option<Value<'c, 'a>>,
) -> R<()> {
    issue_remapped(b, plan, bases, (iv, slot, barriers), &[])
}

/// [`issue`], with the values of `outer` replaced by their copies: the
/// producer warp's clone of a persistent kernel's loop around the marked one
/// computes its own.
pub(super) fn issue_remapped<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    (iv, slot, barriers): (Option<Value<'c, 'a>>, Ix<'c, 'a>, Option<Value<'c, 'a>>),
    outer: &[(Value<'c, 'a>, Value<'c, 'a>)],
) -> R<()> {
    let induction: Value = plan.body.argument(0).map_err(internal)?.into();
    // The clones read the induction variable in its own type.
    let iv = match (iv, plan.induction.bits) {
        (Some(iv), Some(bits)) => Some(b.index_cast_unfolded(iv, b.int_type(bits))?),
        (iv, _) => iv,
    };
    for copy in &plan.copies {
        let view =
            CopyGmemToSmem::from_op(copy.op).map_err(|error| format!("internal error: {error}"))?;
        let mut map: Vec<(Value, Value)> = outer.to_vec();
        if let Some(iv) = iv {
            map.push((induction, iv));
            for op in &copy.slice {
                let clone = b.clone_op(*op);
                for index in 0..clone.operand_count() {
                    let operand = clone.operand(index).map_err(internal)?;
                    if let Some((_, new)) = map.iter().find(|(old, _)| *old == operand) {
                        // SAFETY: `index` is below the clone's operand count, and
                        // `new` was built before the clone, in its block.
                        unsafe { build::set_operand(clone, index, *new) };
                    }
                }
                for index in 0..op.result_count() {
                    let old: Value = op.result(index).map_err(internal)?.into();
                    let new: Value = clone.result(index).map_err(internal)?.into();
                    map.push((old, new));
                }
            }
        }
        let remap = |value: Value<'c, 'a>| {
            map.iter()
                .find(|(old, _)| *old == value)
                .map_or(value, |(_, new)| *new)
        };
        let tile = &plan.tiles[copy.tile];
        let dst = slot_view(b, &bases[copy.tile], tile, slot)?;
        // A TMA copy needs its slot's alignment proved, and so does a swizzled
        // cp.async copy (its pattern starts at 8 S bytes); a slot in dynamic
        // shared memory has it only from the run-time round-up of the base.
        let promised = barriers.is_some()
            || (plan.dynamic.is_some() && tile.align > slots::DYNAMIC_BASE_ALIGN);
        let dst = if promised {
            b.assume_aligned(dst, tile.align)?
        } else {
            dst
        };
        let barrier = match barriers {
            Some(storage) => Some(barrier_view(b, storage, slot)?),
            None => None,
        };
        let indices: Vec<Value> = view.indices.iter().map(|index| remap(*index)).collect();
        let options = builders::CopyOptions {
            oob_mode: view.oob_mode,
            swizzle: view.swizzle,
            assume_aligned_start: view.assume_aligned_start,
            collective_axes: view.collective_axes.clone().unwrap_or_default(),
            ..Default::default()
        };
        let op = builders::copy_gmem_to_smem(
            b.context,
            copy.op.location(),
            remap(view.src),
            dst,
            &indices,
            barrier,
            None,
            &options,
        )
        .map_err(internal)?;
        b.insert(op);
    }
    Ok(())
}

/// Erases the body's side-effect-free ops left without uses (the originals'
/// operand computations), latest first.
pub(super) fn erase_dead(body: melior::ir::BlockRef) {
    let ops = crate::ir::query::top_level_ops(body);
    for op in ops.into_iter().rev() {
        let name = ir::op_name(&op);
        let pure = name.starts_with("arith.")
            || name.starts_with("index.")
            || matches!(
                ir::table_op(&op),
                Some(affine::APPLY | memref::SUBVIEW | memref::CAST)
            );
        if pure && op.result_count() > 0 && crate::ir::query::users_of_op(op) == 0 {
            // SAFETY: a live, pure op of the body without users; `ops` holds
            // no op it contains, and it is not visited again.
            unsafe { build::erase(op) };
        }
    }
}

#[cfg(test)]
mod tests {
    /// An error of melior's the rewrite cannot recover from reaches the user
    /// as an internal error that says what failed (a mutation survivor of
    /// shard 5, 2026-12-03: the message emptied).
    #[test]
    fn internal_errors_say_what_failed() {
        let message = super::internal(melior::Error::OperandNotFound("src"));
        assert!(message.starts_with("internal error: "), "{message}");
        assert!(message.contains("src"), "{message}");
    }
}
