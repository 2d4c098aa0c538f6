//! The rewrite of one analysed loop into multi-buffered acopy IR
//! (docs/pipelining.md has the schedule and the proofs).
//!
//! With S slots, T trips, C copies per iteration and k the iteration number:
//!
//! ```text
//! cp.async (S >= 2)                         TMA
//! gpu.barrier                               base = counter; fence.proxy.async; gpu.barrier
//! j in 0..S-1: if j < T: copies j           j in 0..S-1: if j < T: copies j -> slot (base+j)%S, bar
//!              else: C empty groups         slot = base % S, parity = (base / S) & 1
//! for k, slot (carried; slot = k % S):      for k, slot, parity (carried; slot = (base+k) % S):
//!   gpu.barrier                               fence.proxy.async; gpu.barrier
//!   if k < T-(S-1): copies k+S-1              if k < T-(S-1): copies k+S-1 -> slot+S-1 (mod S), bar
//!                   -> slot+S-1 (mod S)       barrier_wait bar[slot], parity
//!   else: C empty groups                      consumers on slot
//!   wait pending = C*(S-1)                    slot += 1 (mod S); parity ^= (slot == 0)
//!   consumers on slot                       counter = base + T
//!   slot += 1 (mod S)
//! ```
//! S = 1 on cp.async is `gpu.barrier; copies; wait 0; consumers`. The
//! counters are `iter_args` of the loop (`ir::build::loop_carried`), so the
//! steady state divides nothing; the empty commit groups keep exactly S-1
//! iterations' groups behind tile k at its wait, so one constant count serves
//! every trip (docs/pipelining.md, "The steady state"). With asynchronous
//! consumers (wgmma) the refill moves after them instead (`refill_after_consumers`).
//! When peer CTAs multicast into the slots (`LoopPlan::multicast`), the barrier
//! before each TMA refill is a cluster barrier (`release_slot`) and one follows
//! the loop (`cluster_tail`; docs/pipelining.md, "Multicast slots").

use acopy_dialect::builders;
use acopy_target::CopyPath;
use melior::{
    ir::{
        attribute::{DictionaryAttribute, IntegerAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{IntegerType, MemRefType},
        Attribute, Identifier, OperationRef, Type, Value,
    },
    Context,
};

use crate::ir;
use crate::ir::{
    build::{self, Builder as B, Cmp, Ix},
    op_names::{arith, nvvm, scf},
};
use crate::plan::loops::{attr, loop_plan::LoopPlan};

use super::block_schedule::{BarrierRing, BlockSchedule, Refill};
use super::loop_body::{bound, erase_originals, internal, issue, redirect_consumers, tile_uses};
use super::rings::RingSchedule;
use super::shared_globals::{add_global, barrier_view, cell_type, shared_space};
use super::slot_layout::{at_kernel_entry, record_dynamic, slot_bases, Base};

type R<T> = Result<T, String>;

/// The TMA path's per-loop shared state: S mbarriers and the count of tiles
/// issued so far (8 bytes each), in one `memref.global`.
struct Barriers<'c> {
    symbol: String,
    r#type: Type<'c>,
}

/// What the rewrite of a loop chose: the schedule it built the IR from,
/// which the remark reports (`super::report`), never a recomputation of it.
pub struct Chosen {
    pub schedule: Schedule,
    /// With a producer warp or warpgroup, what the rewrite added: its
    /// threads, the block the kernel now declares, the registers it moves.
    pub producer: Option<crate::plan::loops::warp::WarpPlan>,
}

/// The schedule of a rewritten loop, one of the two kinds.
pub enum Schedule {
    /// The whole block copies and consumes (block_schedule.rs).
    Block(BlockSchedule),
    /// A producer warp copies on full and empty rings (rings.rs).
    ProducerWarp(RingSchedule),
}

pub fn rewrite<'c, 'a>(context: &'c Context, plan: &LoopPlan<'c, 'a>, serial: usize) -> R<Chosen> {
    let stages = i64::from(plan.stages);
    // Which tile issues when, the waits' counts and the barriers, as numbers
    // worked out once (block_schedule.rs); the IR below and the remark read them.
    let schedule = BlockSchedule::of(plan);
    // Played out as numbers first (block_play.rs): a schedule that would read a
    // tile before it lands, or overwrite one still read, is never built.
    schedule
        .check()
        .map_err(|hazard| format!("internal error: {hazard}"))?;
    tracing::debug!("{schedule}");
    let tile_uses = tile_uses(plan);
    let bases = slot_bases(context, plan, stages)?;
    let barriers = match schedule.barriers {
        Some(ring) => Some(make_barriers(context, plan, ring, serial)?),
        None => None,
    };
    let entry = prologue(context, plan, &schedule, &bases, barriers.as_ref())?;
    let (b, slot) = steady_state(context, plan, &schedule, &bases, &entry)?;
    if schedule.refill == Refill::AfterConsumers {
        refill_after_consumers(context, plan, &schedule, &bases, &entry)?;
    }
    redirect_consumers(&b, plan, &bases, &tile_uses, slot)?;
    erase_originals(plan);
    let loop_op = advance_counters(context, plan, &entry, stages)?;
    finish(context, plan, loop_op, &entry, stages)?;
    Ok(Chosen {
        schedule: Schedule::Block(schedule),
        producer: None,
    })
}

/// Consumers of the previous entry of this loop (an outer loop) are done with
/// every slot before the prologue refills them; wgmma it left in flight read
/// their slots until they complete.
fn previous_entry_done(pre: &B, plan: &LoopPlan) -> R<()> {
    if plan.async_consumers.is_some() && reentered(plan) {
        pre.wgmma_wait_all()?;
    }
    pre.block_barrier()
}

/// Whether the loop may be entered again: an `scf.for` or `scf.while`
/// encloses it inside its kernel.
fn reentered(plan: &LoopPlan) -> bool {
    let mut current = plan.loop_op.parent_operation();
    while let Some(op) = current {
        if op == plan.function {
            return false;
        }
        if ir::is(&op, scf::FOR) || ir::is(&op, scf::WHILE) {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// The schedule's loop-carried counters (docs/pipelining.md, "The steady
/// state"): block arguments of the body, their values on entry, and (once
/// the body is built) their values for the next iteration.
struct Counters<'c, 'a> {
    /// The iteration number k, from 0.
    k: Value<'c, 'a>,
    /// The slot of this iteration's tiles, `(base + k) mod S`.
    slot: Value<'c, 'a>,
    /// TMA: the parity of the slot's barrier phase, `((base + k) / S) & 1`.
    parity: Option<Value<'c, 'a>>,
    /// The slot of the loop's first tile, `base mod S` (the prologue's too).
    first_slot: Ix<'c, 'a>,
    /// Their values on entry, in the same order.
    inits: Vec<Value<'c, 'a>>,
}

/// What the prologue before the loop made that the body and the epilogue use.
struct Entry<'c, 'a> {
    trips: Ix<'c, 'a>,
    /// D, the tiles issued ahead: S - 1 (the refill comes after the wait),
    /// or S - N with N wgmma groups in flight (after the consumers).
    ahead: i64,
    /// `T - D`: iteration k refills when k is below it.
    refill_limit: Ix<'c, 'a>,
    /// `D * step`: how far ahead of the induction variable a refill is.
    refill_offset: Ix<'c, 'a>,
    /// The count of tiles issued before this entry of the loop (TMA), or 0.
    base: Ix<'c, 'a>,
    /// TMA: the barriers' storage and the view of its count cell.
    counter: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
    /// None for S = 1 on cp.async, whose loop needs none.
    counters: Option<Counters<'c, 'a>>,
}

impl<'c, 'a> Entry<'c, 'a> {
    fn storage(&self) -> Option<Value<'c, 'a>> {
        self.counter.map(|(storage, _)| storage)
    }
}

/// Before the loop: the trip count, the tile count so far (TMA), the
/// counters' first values and the copies of the first S - 1 iterations, each
/// guarded by `j < T`.
fn prologue<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    schedule: &BlockSchedule,
    bases: &[Base<'c, 'a>],
    barriers: Option<&Barriers<'c>>,
) -> R<Entry<'c, 'a>> {
    let stages = i64::from(schedule.stages);
    let loop_op = plan.loop_op;
    let pre = B::in_place(context, loop_op)?;
    let lower = bound(&pre, loop_op.operand(0), plan.induction)?;
    let upper = bound(&pre, loop_op.operand(1), plan.induction)?;
    let step = bound(&pre, loop_op.operand(2), plan.induction)?;
    // S = 1 on cp.async issues each tile in its own iteration: no guard, no
    // counters, so no trip count (it would be left dead).
    let unguarded = !schedule.counters;
    let trips = match plan.static_trips {
        Some(trips) => Ix::Const(trips),
        None if unguarded => Ix::Const(0),
        None => {
            let span = pre.sub(upper, lower)?;
            let count = pre.ceil_div(span, step)?;
            pre.max(count, Ix::Const(0))?
        }
    };
    let mut counter = None;
    let base = match barriers {
        Some(barriers) => {
            let storage = pre.get_global(&barriers.symbol, barriers.r#type)?;
            let cell = counter_view(&pre, storage, stages)?;
            let count = pre.load(cell, pre.index(0)?, pre.int_type(64))?;
            counter = Some((storage, cell));
            pre.proxy_fence()?;
            Ix::Val(pre.index_cast_unfolded(count, pre.index_type())?)
        }
        None => Ix::Const(0),
    };
    let ahead = i64::from(schedule.ahead);
    let counters = if unguarded {
        None
    } else {
        Some(add_counters(&pre, plan, base, stages)?)
    };
    let entry = Entry {
        trips,
        ahead,
        refill_limit: pre.sub(trips, Ix::Const(ahead))?,
        refill_offset: pre.mul(Ix::Const(ahead), step)?,
        base,
        counter,
        counters,
    };
    previous_entry_done(&pre, plan)?;
    let first_slot = entry
        .counters
        .as_ref()
        .map_or(Ix::Const(0), |c| c.first_slot);
    for j in 0..entry.ahead {
        let slot = pre.wrapping_add(first_slot, j as u64, stages as u64)?;
        let issue_j = |b: &B<'c, 'a>| -> R<()> {
            let offset = b.mul(Ix::Const(j), step)?;
            let iv = b.add(lower, offset)?;
            issue(b, plan, bases, Some(b.ix(iv)?), slot, entry.storage())
        };
        guarded_issue(&pre, plan, pre.less(Ix::Const(j), trips)?, issue_j)?;
    }
    Ok(entry)
}

/// The counters as body arguments, and their first values (built by `pre`).
fn add_counters<'c, 'a>(
    pre: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    base: Ix<'c, 'a>,
    stages: i64,
) -> R<Counters<'c, 'a>> {
    let index = pre.index_type();
    let tma = plan.path == CopyPath::Tma;
    let mut types = vec![index, index];
    if tma {
        types.push(pre.int_type(1));
    }
    let arguments = build::loop_carried::add_body_arguments(plan.body, &types, pre.location);
    let slot = pre.rem_masked(base, stages as u64)?;
    let mut inits = vec![pre.index(0)?, pre.ix(slot)?];
    if tma {
        // The one division of the schedule: once per entry of the loop.
        let phase = pre.div(base, Ix::Const(stages))?;
        let parity = pre.ix(pre.rem_masked(phase, 2)?)?;
        inits.push(pre.index_cast_unfolded(parity, pre.int_type(1))?);
    }
    Ok(Counters {
        k: arguments[0],
        slot: arguments[1],
        parity: arguments.get(2).copied(),
        first_slot: slot,
        inits,
    })
}

/// `copies` when `condition` holds; on cp.async, otherwise one empty commit
/// group per copy, so that every iteration commits the same number of groups
/// and the waits can count them with a constant.
fn guarded_issue<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    condition: Result<Value<'c, 'a>, bool>,
    copies: impl FnOnce(&B<'c, 'a>) -> R<()>,
) -> R<()> {
    let empty_groups = |b: &B<'c, 'a>| -> R<()> {
        if plan.path == CopyPath::CpAsync {
            for _ in &plan.copies {
                b.op(nvvm::CP_ASYNC_COMMIT_GROUP, &[], &[], &[])?;
            }
        }
        Ok(())
    };
    match condition {
        Err(true) => copies(b),
        Err(false) => empty_groups(b),
        Ok(condition) if plan.path == CopyPath::CpAsync => {
            b.if_then_else(condition, copies, empty_groups)
        }
        Ok(condition) => b.if_then(condition, copies),
    }
}

/// In the body, where the wait was: the refill of a later iteration and the
/// wait for this one's tiles; a builder there, the slot the consumers read
/// and the `pending` counts of the waits inserted.
fn steady_state<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    schedule: &BlockSchedule,
    bases: &[Base<'c, 'a>],
    entry: &Entry<'c, 'a>,
) -> R<(B<'c, 'a>, Ix<'c, 'a>)> {
    let b = B::in_place(context, plan.wait)?;
    let Some(counters) = &entry.counters else {
        // S = 1 on cp.async: copy, wait, consume.
        b.block_barrier()?;
        issue(&b, plan, bases, None, Ix::Const(0), None)?;
        let pending = schedule.pending.ok_or("internal error: no wait count")?;
        b.insert(builders::wait_gmem_to_smem(context, b.location, pending).map_err(internal)?);
        return Ok((b, Ix::Const(0)));
    };
    let slot = Ix::Val(counters.slot);
    let induction: Value = plan
        .body
        .argument(0)
        .map_err(|error| format!("internal error: scf.for without an induction variable: {error}"))?
        .into();
    let induction = b.ix(bound(&b, Ok(induction), plan.induction)?)?;
    // Asynchronous consumers: the refill comes after them
    // (`refill_after_consumers`), so here only the wait for tile k.
    let refill_here = schedule.refill == Refill::BeforeWait;
    if plan.path == CopyPath::Tma {
        if refill_here {
            release_slot(&b, schedule)?;
            refill(&b, plan, schedule, bases, induction, entry, counters)?;
        }
        let storage = entry.storage().ok_or("internal error: no barriers")?;
        let barrier = barrier_view(&b, storage, slot)?;
        let parity = counters.parity.ok_or("internal error: no parity")?;
        b.insert(builders::barrier_wait(b.location, barrier, parity).map_err(internal)?);
    } else {
        // As on TMA, the refill goes before the wait, behind a barrier of its
        // own (every thread has left the slot of tile k - 1), so all S tiles
        // are in flight while tile k is awaited; the wait's own barrier then
        // publishes tile k. Behind tile k stay the groups of the D tiles issued
        // after it (D - 1 when the refill comes after the consumers): the
        // schedule's `pending`.
        if refill_here {
            b.block_barrier()?;
            refill(&b, plan, schedule, bases, induction, entry, counters)?;
        }
        let pending = schedule.pending.ok_or("internal error: no wait count")?;
        b.insert(builders::wait_gmem_to_smem(b.context, b.location, pending).map_err(internal)?);
    }
    Ok((b, slot))
}

/// With asynchronous consumers, at the end of the body: once the body's own
/// `wgmma.wait_group N` has returned, the slot of tile k - N is free; every
/// thread passes a barrier (and on TMA a `fence.proxy.async`) and the copies
/// of tile k + D go into it (docs/pipelining.md, "Asynchronous consumers").
fn refill_after_consumers<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    schedule: &BlockSchedule,
    bases: &[Base<'c, 'a>],
    entry: &Entry<'c, 'a>,
) -> R<()> {
    let counters = entry
        .counters
        .as_ref()
        .ok_or("internal error: asynchronous consumers without counters")?;
    let end = plan
        .body
        .terminator()
        .ok_or("internal error: scf.for body without a terminator")?;
    let b = B::in_place(context, end)?.at(plan.loop_op.location());
    let induction: Value = plan.body.argument(0).map_err(internal)?.into();
    let induction = b.ix(bound(&b, Ok(induction), plan.induction)?)?;
    if plan.path == CopyPath::Tma {
        release_slot(&b, schedule)?;
    } else {
        b.block_barrier()?;
    }
    refill(&b, plan, schedule, bases, induction, entry, counters)
}

/// Before a TMA refill: every thread orders its reads of the slot before the
/// async proxy's write, then passes a barrier of the block, or of the whole
/// cluster when peers multicast into this CTA's slots (each refill writes
/// the slot in every CTA of the group, so every one of them must have left
/// it: docs/pipelining.md, "Multicast slots").
fn release_slot(b: &B, schedule: &BlockSchedule) -> R<()> {
    b.proxy_fence()?;
    if schedule.cluster_release {
        b.cluster_barrier()
    } else {
        b.block_barrier()
    }
}

/// After a loop whose slots peers multicast into: every CTA of the cluster
/// has waited for every tile of the loop (so no peer writes into this CTA's
/// slots any more, and none leaves while its own copies still land in a
/// peer), and its consumers, wgmma included, have left every slot before a
/// later entry's prologue refills them in every CTA of the group.
fn cluster_tail(b: &B, plan: &LoopPlan) -> R<()> {
    if plan.multicast.is_none() {
        return Ok(());
    }
    if plan.async_consumers.is_some() {
        b.wgmma_wait_all()?;
    }
    b.proxy_fence()?;
    b.cluster_barrier()
}

/// At the end of the body, the counters' next values; then the loop is
/// rebuilt to carry them (the new loop is returned: `plan.loop_op` is gone).
fn advance_counters<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    entry: &Entry<'c, 'a>,
    stages: i64,
) -> R<OperationRef<'c, 'a>> {
    let Some(counters) = &entry.counters else {
        return Ok(plan.loop_op);
    };
    let end = plan
        .body
        .terminator()
        .ok_or("internal error: scf.for body without a terminator")?;
    let b = B::in_place(context, end)?.at(plan.loop_op.location());
    let k = b.add(Ix::Val(counters.k), Ix::Const(1))?;
    let slot = b.wrapping_add(Ix::Val(counters.slot), 1, stages as u64)?;
    let mut nexts = vec![b.ix(k)?, b.ix(slot)?];
    if let Some(parity) = counters.parity {
        // The phase turns when the slot wraps to 0.
        let wrapped = b.cmpi(Cmp::Eq, b.ix(slot)?, b.index(0)?)?;
        nexts.push(b.binary(arith::XORI, parity, wrapped)?);
    }
    // SAFETY: the plan's handle to the loop is not used after this (finish
    // takes the new loop), and its body's handles stay valid.
    unsafe { build::loop_carried::carry(context, plan.loop_op, &counters.inits, &nexts) }
}

/// After the rewrite: the kernel's dynamic shared bytes, the tile count for
/// the next entry of the loop (TMA), and the loop marked done.
fn finish<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    loop_op: OperationRef<'c, 'a>,
    entry: &Entry<'c, 'a>,
    stages: i64,
) -> R<()> {
    record_dynamic(context, plan, stages)?;

    if let Some((_, cell)) = entry.counter {
        let after = loop_op
            .next_in_block()
            .ok_or("internal error: scf.for is the last op of its block")?;
        let a = B::in_place(context, after)?.at(loop_op.location());
        cluster_tail(&a, plan)?;
        let next = a.add(entry.base, entry.trips)?;
        let next = a.ix(next)?;
        let next = a.index_cast_unfolded(next, a.int_type(64))?;
        let zero = a.index(0)?;
        a.store(next, cell, zero)?;
    }

    mark_done(context, loop_op, stages);
    Ok(())
}

/// Marks `loop_op` pipelined (`acopy.pipelined = {stages = S}`), so that it
/// is never pipelined twice.
pub(super) fn mark_done(context: &Context, loop_op: OperationRef, stages: i64) {
    let stages = IntegerAttribute::new(IntegerType::new(context, 64).into(), stages).into();
    let record: Attribute =
        DictionaryAttribute::new(context, &[(Identifier::new(context, "stages"), stages)]).into();
    // SAFETY: a live op; the name outlives the call.
    unsafe {
        let name = melior::StringRef::new(attr::PIPELINE);
        mlir_sys::mlirOperationRemoveDiscardableAttributeByName(loop_op.to_raw(), name.to_raw());
    }
    ir::set_discardable(loop_op, attr::PIPELINED, record);
}

fn make_barriers<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
    ring: BarrierRing,
    serial: usize,
) -> R<Barriers<'c>> {
    let stages = i64::from(plan.stages);
    let r#type: Type = MemRefType::new(
        IntegerType::new(context, 8).into(),
        &[stages * 8 + 8],
        None,
        Some(shared_space(context)),
    )
    .into();
    let symbol = format!("__acopy_pipeline_{serial}");
    add_global(context, plan, &symbol, r#type)?;
    // Once per kernel, at its entry: the count starts at 0 and each slot's
    // barrier expects one arrival per copy of an iteration.
    let b = at_kernel_entry(context, plan)?;
    let storage = b.get_global(&symbol, r#type)?;
    let cell = counter_view(&b, storage, stages)?;
    let zero = b.index(0)?;
    let zero64 = b.int(64, 0)?;
    b.store(zero64, cell, zero)?;
    for slot in 0..i64::from(ring.count) {
        let barrier = barrier_view(&b, storage, Ix::Const(slot))?;
        let init = builders::barrier_init(context, b.location, barrier, ring.arrivals);
        b.insert(init.map_err(internal)?);
    }
    Ok(Barriers { symbol, r#type })
}

fn counter_view<'c, 'a>(b: &B<'c, 'a>, storage: Value<'c, 'a>, stages: i64) -> R<Value<'c, 'a>> {
    b.view(storage, Ix::Const(stages * 8), cell_type(b.context))
}

/// Issues the copies of iteration k + D when it exists (on cp.async,
/// empty groups when it does not), into the slot D after this one.
fn refill<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    schedule: &BlockSchedule,
    bases: &[Base<'c, 'a>],
    induction: Value<'c, 'a>,
    entry: &Entry<'c, 'a>,
    counters: &Counters<'c, 'a>,
) -> R<()> {
    let stages = u64::from(schedule.stages);
    // With no tile ahead the refill is the iteration's own copy: always issued.
    let condition = if schedule.refills_always() {
        Err(true)
    } else {
        b.less(Ix::Val(counters.k), entry.refill_limit)?
    };
    guarded_issue(b, plan, condition, |inner| {
        let iv = inner.add(Ix::Val(induction), entry.refill_offset)?;
        let ahead = schedule.refill_slot_offset();
        let slot = inner.wrapping_add(Ix::Val(counters.slot), ahead, stages)?;
        issue(
            inner,
            plan,
            bases,
            Some(inner.ix(iv)?),
            slot,
            entry.storage(),
        )
    })
}
