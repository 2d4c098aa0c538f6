//! The producer warp of a warp-specialized loop (docs/pipelining.md, "Warp
//! specialization"): its region, `scf.if tid >= B {acopy.issuers}`, and in it its own
//! loop over the trips (inside its own copy of a persistent loop when there is one),
//! which waits for each slot's release on `empty` and issues the copies into it on
//! `full`. The consumers' side is `warp_specialized`.

use acopy_dialect::builders;
use acopy_target::CopyPath;
use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute, block::BlockLike, operation::OperationLike, Attribute,
        OperationRef, RegionLike, Value,
    },
    Context,
};

use super::loop_body as common;
use super::slot_layout::Base;
use super::warp_rings::{next_slot_and_phase, ring_cell, ring_pointer, Roles};
use crate::ir::{
    build::{self, Builder as B, Cmp, Ix},
    op_names::{arith, nvvm},
};
use crate::plan::loops::LoopPlan;
use crate::{ir, target};

type R<T> = Result<T, String>;

/// `scf.if %is_producer {acopy.issuers}` before the loop: its own loop over
/// the trips, waiting for each slot's release and issuing the copies into it.
pub(super) fn producer<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    roles: &Roles<'c, 'a>,
    bases: &[Base<'c, 'a>],
    is_producer: Value<'c, 'a>,
) -> R<()> {
    let Roles {
        warp,
        storage,
        thread,
        anchor,
        outer,
    } = *roles;
    let pre = B::in_place(context, anchor)?;
    let issuers = match plan.path {
        CopyPath::Tma => 1,
        CopyPath::CpAsync => warp.producers,
    };
    pre.if_then(is_producer, |p| {
        if let Some(split) = warp.registers {
            // The whole producer warpgroup, in step, before anything else.
            p.set_max_registers(split.producer, false)?;
        }
        if plan.path == CopyPath::Tma {
            let first = p.index(i64::from(warp.consumers))?;
            let elected = p.cmpi(Cmp::Eq, thread, first)?;
            p.if_then(elected, |e| producer_loops(e, plan, bases, storage, outer))
        } else {
            producer_loops(p, plan, bases, storage, outer)
        }
    })?;
    let region =
        crate::ir::query::previous_op(anchor).ok_or("internal error: no producer region")?;
    let first = warp.consumers as i32;
    let range: Attribute = DenseI32ArrayAttribute::new(context, &[first, issuers as i32]).into();
    ir::set_discardable(region, target::ISSUERS, range);
    Ok(())
}

/// The producer's loop: slot and phase carried, for every trip of the
/// original loop (its bounds, read as `index`).
pub(super) fn producer_loop<'c, 'a>(
    p: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    storage: Value<'c, 'a>,
    (inits, outer): ([Value<'c, 'a>; 2], &[(Value<'c, 'a>, Value<'c, 'a>)]),
) -> R<OperationRef<'c, 'a>> {
    let stages = i64::from(plan.stages);
    let loop_op = plan.loop_op;
    let remap = |index: usize| -> R<Value<'c, 'a>> {
        let value = loop_op.operand(index).map_err(common::internal)?;
        Ok(outer
            .iter()
            .find(|(old, _)| *old == value)
            .map_or(value, |(_, new)| *new))
    };
    let lower = p.ix(common::bound(p, Ok(remap(0)?), plan.induction)?)?;
    let upper = p.ix(common::bound(p, Ok(remap(1)?), plan.induction)?)?;
    let step = p.ix(common::bound(p, Ok(remap(2)?), plan.induction)?)?;
    let mut body = None;
    p.for_loop(lower, upper, step, |inner, iv| {
        body = inner.anchor().block().map(|block| (block, iv));
        Ok(())
    })?;
    let (block, iv) = body.ok_or("internal error: no producer loop")?;
    let made = block
        .parent_operation()
        .ok_or("internal error: producer loop without an op")?;
    let types = [p.index_type(), p.int_type(1)];
    let counters = build::loop_carried::add_body_arguments(block, &types, p.location);
    let (slot, phase) = (counters[0], counters[1]);
    let end = block
        .terminator()
        .ok_or("internal error: producer loop without a yield")?;
    let b = B::in_place(p.context, end)?.at(p.location);
    let empty = ring_cell(&b, storage, Ix::Val(slot), stages)?;
    let released = b.binary(arith::XORI, phase, b.int(1, 1)?)?;
    b.insert(builders::barrier_wait(b.location, empty, released).map_err(common::internal)?);
    let tma = plan.path == CopyPath::Tma;
    let slot_ix = Ix::Val(slot);
    common::issue_remapped(
        &b,
        plan,
        bases,
        (Some(iv), slot_ix, tma.then_some(storage)),
        outer,
    )?;
    if !tma {
        let full = ring_pointer(&b, storage, Ix::Val(slot), 0)?;
        b.op(
            nvvm::CP_ASYNC_MBARRIER_ARRIVE,
            &[full],
            &[],
            &[(
                "noinc",
                melior::ir::attribute::BoolAttribute::new(p.context, true).into(),
            )],
        )?;
    }
    let nexts = next_slot_and_phase(&b, slot, phase, stages)?;
    // SAFETY: `made` is the loop just built; no handle to it is kept.
    unsafe { build::loop_carried::carry(p.context, made, &inits, &nexts) }
}

/// The producer's loops: its copy of the persistent loop when there is one
/// (the ops before the marked loop in its body cloned, the slot and phase
/// carried through it), around its loop over the marked loop's trips.
pub(super) fn producer_loops<'c, 'a>(
    p: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    storage: Value<'c, 'a>,
    outer: Option<OperationRef<'c, 'a>>,
) -> R<()> {
    // The counters' first values come before the loops.
    let inits = [p.index(0)?, p.int(1, 0)?];
    let Some(outer) = outer else {
        return producer_loop(p, plan, bases, storage, (inits, &[])).map(|_| ());
    };
    let operand = |index| outer.operand(index).map_err(common::internal);
    let mut body = None;
    p.for_loop(operand(0)?, operand(1)?, operand(2)?, |inner, iv| {
        body = inner
            .anchor()
            .block()
            .map(|block| (inner.anchor(), block, iv));
        Ok(())
    })?;
    let (end, block, iv) = body.ok_or("internal error: no producer persistent loop")?;
    let made = block
        .parent_operation()
        .ok_or("internal error: producer loop without an op")?;
    let types = [p.index_type(), p.int_type(1)];
    let counters = build::loop_carried::add_body_arguments(block, &types, p.location);
    let b = B::in_place(p.context, end)?.at(p.location);
    let original: Value = outer
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|body| body.argument(0).ok())
        .ok_or("internal error: a persistent loop without an induction variable")?
        .into();
    let mut map = vec![(original, iv)];
    // The value computations before the marked loop, for this trip.
    let mut current = outer
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|body| body.first_operation());
    // The native form's barrier_init is removed, not run by the producer.
    let removed = plan.native.as_ref().map(|native| native.init);
    while let Some(op) = current {
        if op == plan.loop_op {
            break;
        }
        // Nor what only the consumers run (warp_prologue.rs).
        if Some(op) == removed || plan.consumers_only.contains(&op) {
            current = op.next_in_block();
            continue;
        }
        let clone = b.clone_op(op);
        for index in 0..clone.operand_count() {
            let operand = clone.operand(index).map_err(common::internal)?;
            if let Some((_, new)) = map.iter().find(|(old, _)| *old == operand) {
                // SAFETY: `index` is below the clone's operand count; `new` is
                // defined before the clone, in its block or above.
                unsafe { build::set_operand(clone, index, *new) };
            }
        }
        for index in 0..op.result_count() {
            let old: Value = op.result(index).map_err(common::internal)?.into();
            let new: Value = clone.result(index).map_err(common::internal)?.into();
            map.push((old, new));
        }
        current = op.next_in_block();
    }
    let inner = producer_loop(&b, plan, bases, storage, ([counters[0], counters[1]], &map))?;
    let nexts = [
        inner.result(0).map_err(common::internal)?.into(),
        inner.result(1).map_err(common::internal)?.into(),
    ];
    // SAFETY: `made` is the loop just built; no handle to it is kept.
    unsafe { build::loop_carried::carry(p.context, made, &inits, &nexts)? };
    Ok(())
}
