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

use acopy_dialect::{builders, CopyGmemToSmem};
use acopy_target::CopyPath;
use melior::{
    ir::{
        attribute::{ArrayAttribute, DictionaryAttribute, IntegerAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{IntegerType, MemRefType},
        Attribute, AttributeLike, Identifier, OperationRef, RegionLike, Type, Value,
    },
    Context,
};

use crate::ir::{
    build::{self, Builder as B, Cmp, Ix},
    op_names::{arith, gpu, memref, nvvm},
    spelled,
};
use crate::plan::loops::{
    attr,
    loop_plan::{DynamicSlots, Induction, LoopPlan, Tile, TileRoot},
    slots,
};
use crate::{ir, manifest::DYNAMIC_SHARED_MEMORY};

type R<T> = Result<T, String>;

/// The TMA path's per-loop shared state: S mbarriers and the count of tiles
/// issued so far (8 bytes each), in one `memref.global`.
struct Barriers<'c> {
    symbol: String,
    r#type: Type<'c>,
    count: u32,
    arrivals: u32,
}

/// What the rewrite of a loop chose, as it built it: the remark reports these
/// (`super::report`), never a recomputation of them.
pub struct Chosen {
    /// The `pending` count of the wait it inserted (cp.async): one constant.
    pub waits: Vec<u32>,
    /// The barrier ring it made (TMA, or a producer warp's full ring).
    pub barriers: Option<Ring>,
    /// With a producer warp, the block the kernel now declares.
    pub producer_block: Option<u32>,
}

/// The TMA path's barriers: one per slot, each expecting `arrivals` arrivals
/// per phase; `replaced_user_barrier` when the loop's own barrier (the native
/// form) was removed.
pub struct Ring {
    pub count: u32,
    pub arrivals: u32,
    pub replaced_user_barrier: bool,
}

pub fn rewrite<'c, 'a>(context: &'c Context, plan: &LoopPlan<'c, 'a>, serial: usize) -> R<Chosen> {
    let stages = i64::from(plan.stages);
    let tile_uses = tile_uses(plan);
    let bases = slot_bases(context, plan, stages)?;
    let barriers = if plan.path == CopyPath::Tma {
        Some(make_barriers(context, plan, serial)?)
    } else {
        None
    };
    let entry = prologue(context, plan, &bases, barriers.as_ref(), stages)?;
    let (b, slot, waits) = steady_state(context, plan, &bases, &entry)?;
    if plan.async_consumers.is_some() {
        refill_after_consumers(context, plan, &bases, &entry)?;
    }
    redirect_consumers(&b, plan, &bases, &tile_uses, slot)?;
    erase_originals(plan);
    let loop_op = advance_counters(context, plan, &entry, stages)?;
    finish(context, plan, loop_op, &entry, stages)?;
    Ok(Chosen {
        waits,
        barriers: barriers.map(|ring| Ring {
            count: ring.count,
            arrivals: ring.arrivals,
            replaced_user_barrier: plan.native.is_some(),
        }),
        producer_block: None,
    })
}

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
        if matches!(ir::op_name(&op).as_str(), "scf.for" | "scf.while") {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// Where each tile's slots start: its own multiplied attribution, or its
/// offset in dynamic shared memory.
pub(super) fn slot_bases<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    stages: i64,
) -> R<Vec<Base<'c, 'a>>> {
    match plan.dynamic {
        None => {
            for tile in &plan.tiles {
                multiply(context, tile, stages)?;
            }
            Ok(plan
                .tiles
                .iter()
                .map(|tile| (tile.value, Ix::Const(0)))
                .collect())
        }
        Some(dynamic) => dynamic_bases(context, plan, dynamic),
    }
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
    bases: &[Base<'c, 'a>],
    barriers: Option<&Barriers<'c>>,
    stages: i64,
) -> R<Entry<'c, 'a>> {
    let loop_op = plan.loop_op;
    let pre = B::in_place(context, loop_op)?;
    let lower = bound(&pre, loop_op.operand(0), plan.induction)?;
    let upper = bound(&pre, loop_op.operand(1), plan.induction)?;
    let step = bound(&pre, loop_op.operand(2), plan.induction)?;
    // S = 1 on cp.async issues each tile in its own iteration: no guard, no
    // counters, so no trip count (it would be left dead).
    let unguarded = plan.path == CopyPath::CpAsync && stages == 1 && plan.async_consumers.is_none();
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
    let ahead = match plan.async_consumers {
        Some(consumers) => stages - i64::from(consumers.in_flight),
        None => stages - 1,
    };
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
    bases: &[Base<'c, 'a>],
    entry: &Entry<'c, 'a>,
) -> R<(B<'c, 'a>, Ix<'c, 'a>, Vec<u32>)> {
    let b = B::in_place(context, plan.wait)?;
    let Some(counters) = &entry.counters else {
        // S = 1 on cp.async: copy, wait, consume.
        b.block_barrier()?;
        issue(&b, plan, bases, None, Ix::Const(0), None)?;
        b.insert(builders::wait_gmem_to_smem(context, b.location, 0).map_err(internal)?);
        return Ok((b, Ix::Const(0), vec![0]));
    };
    let slot = Ix::Val(counters.slot);
    let induction: Value = plan
        .body
        .argument(0)
        .map_err(|error| format!("internal error: scf.for without an induction variable: {error}"))?
        .into();
    let induction = b.ix(bound(&b, Ok(induction), plan.induction)?)?;
    let mut waits = Vec::new();
    // Asynchronous consumers: the refill comes after them
    // (`refill_after_consumers`), so here only the wait for tile k.
    let refill_here = plan.async_consumers.is_none();
    if plan.path == CopyPath::Tma {
        if refill_here {
            release_slot(&b, plan)?;
            refill(&b, plan, bases, induction, entry, counters)?;
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
        // after it (D - 1 when the refill comes after the consumers).
        let newer = if refill_here {
            b.block_barrier()?;
            refill(&b, plan, bases, induction, entry, counters)?;
            entry.ahead as u32
        } else {
            entry.ahead as u32 - 1
        };
        let pending = newer * plan.copies.len() as u32;
        b.insert(builders::wait_gmem_to_smem(b.context, b.location, pending).map_err(internal)?);
        waits.push(pending);
    }
    Ok((b, slot, waits))
}

/// With asynchronous consumers, at the end of the body: once the body's own
/// `wgmma.wait_group N` has returned, the slot of tile k - N is free; every
/// thread passes a barrier (and on TMA a `fence.proxy.async`) and the copies
/// of tile k + D go into it (docs/pipelining.md, "Asynchronous consumers").
fn refill_after_consumers<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
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
        release_slot(&b, plan)?;
    } else {
        b.block_barrier()?;
    }
    refill(&b, plan, bases, induction, entry, counters)
}

/// Before a TMA refill: every thread orders its reads of the slot before the
/// async proxy's write, then passes a barrier of the block, or of the whole
/// cluster when peers multicast into this CTA's slots (each refill writes
/// the slot in every CTA of the group, so every one of them must have left
/// it: docs/pipelining.md, "Multicast slots").
pub(super) fn release_slot(b: &B, plan: &LoopPlan) -> R<()> {
    b.proxy_fence()?;
    if plan.multicast.is_some() {
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

/// With slots in dynamic shared memory: the attributions go and the kernel
/// records the bytes it needs.
pub(super) fn record_dynamic(context: &Context, plan: &LoopPlan, stages: i64) -> R<()> {
    if let Some(dynamic) = plan.dynamic {
        remove_attributions(context, plan)?;
        let bytes = dynamic.bytes(&plan.tiles, stages as u64);
        let record = IntegerAttribute::new(IntegerType::new(context, 64).into(), bytes as i64);
        ir::set_discardable(plan.function, DYNAMIC_SHARED_MEMORY, record.into());
    }
    Ok(())
}

/// A builder at the start of the kernel, with the loop's location.
pub(super) fn at_kernel_entry<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
) -> R<B<'c, 'a>> {
    let entry = plan
        .function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|block| block.first_operation())
        .ok_or("internal error: empty kernel")?;
    Ok(B::in_place(context, entry)?.at(plan.loop_op.location()))
}

/// Where a tile's slots start: a byte buffer and the offset of slot 0 in it.
pub(super) type Base<'c, 'a> = (Value<'c, 'a>, Ix<'c, 'a>);

/// The view of `tile`'s slot `slot`, `slot * P` bytes after its base.
pub(super) fn slot_view<'c, 'a>(
    b: &B<'c, 'a>,
    base: &Base<'c, 'a>,
    tile: &Tile<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<Value<'c, 'a>> {
    let shift = b.mul(slot, Ix::Const(tile.slot as i64))?;
    let shift = b.add(base.1, shift)?;
    b.view(base.0, shift, tile.tile_type.into())
}

/// The tiles' bases in `gpu.dynamic_shared_memory`, made at the kernel's
/// entry: the dynamic base (16-byte aligned) rounded up to `dynamic.align`
/// at run time, then each tile at its offset (`DynamicSlots::offsets`).
fn dynamic_bases<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    dynamic: DynamicSlots,
) -> R<Vec<Base<'c, 'a>>> {
    let b = at_kernel_entry(context, plan)?;
    let bytes = |space: Option<Attribute<'c>>| -> Type<'c> {
        MemRefType::new(b.int_type(8), &[ir::DYNAMIC], None, space).into()
    };
    let workgroup = bytes(Some(spelled::workgroup_space(context)?));
    let raw = b.value(gpu::DYNAMIC_SHARED_MEMORY, &[], workgroup, &[])?;
    // One buffer per memory space of the tiles (3 or the gpu attribute).
    let mut buffers: Vec<(Type, Value)> = vec![(workgroup, raw)];
    let mut buffer_of = |space: Option<Attribute<'c>>| -> R<Value<'c, 'a>> {
        let r#type = bytes(space);
        if let Some((_, buffer)) = buffers.iter().find(|(known, _)| *known == r#type) {
            return Ok(*buffer);
        }
        let cast = b.value(memref::MEMORY_SPACE_CAST, &[raw], r#type, &[])?;
        buffers.push((r#type, cast));
        Ok(cast)
    };
    let buffers: Vec<Value> = plan
        .tiles
        .iter()
        .map(|tile| buffer_of(tile.tile_type.memory_space()))
        .collect::<R<_>>()?;
    let pad = if dynamic.align > slots::DYNAMIC_BASE_ALIGN {
        let address = b.value(
            memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
            &[raw],
            b.index_type(),
            &[],
        )?;
        let up = b.sub(Ix::Const(0), Ix::Val(address))?;
        b.rem_masked(up, dynamic.align)?
    } else {
        Ix::Const(0)
    };
    let offsets = DynamicSlots::offsets(&plan.tiles, u64::from(plan.stages));
    buffers
        .into_iter()
        .zip(offsets)
        .map(|(buffer, offset)| Ok((buffer, b.add(pad, Ix::Const(offset as i64))?)))
        .collect()
}

/// Removes the workgroup attributions of tiles whose slots moved to dynamic
/// shared memory (unused now), last first so earlier indices stay valid.
fn remove_attributions(context: &Context, plan: &LoopPlan) -> R<()> {
    let mut indices: Vec<usize> = plan
        .tiles
        .iter()
        .map(|tile| match tile.root {
            TileRoot::Workgroup { index, .. } => index,
        })
        .collect();
    indices.sort_unstable_by(|a, b| b.cmp(a));
    let function = plan.function;
    let inputs = ir::function_inputs(function)?;
    let entry = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: kernel without a body")?;
    for index in indices {
        let count = function
            .attribute("workgroup_attributions")
            .ok()
            .and_then(|value| IntegerAttribute::try_from(value).ok())
            .map_or(0, |value| value.value());
        let attrs = function
            .attribute("workgroup_attrib_attrs")
            .ok()
            .and_then(|value| ArrayAttribute::try_from(value).ok());
        // SAFETY: the argument has no uses left (the copies are erased and the
        // consumers read the dynamic slots); the block is the kernel's entry.
        unsafe { mlir_sys::mlirBlockEraseArgument(entry.to_raw(), (inputs + index) as u32) };
        let i64_type = IntegerType::new(context, 64);
        let count: Attribute = IntegerAttribute::new(i64_type.into(), count - 1).into();
        let name = melior::StringRef::new("workgroup_attributions");
        // SAFETY: a live op and attribute; MLIR copies the name. The count is
        // a plain attribute of gpu.func, not a property.
        unsafe {
            mlir_sys::mlirOperationSetAttributeByName(
                function.to_raw(),
                name.to_raw(),
                count.to_raw(),
            )
        };
        if let Some(attrs) = attrs {
            let kept: Vec<Attribute> = (0..attrs.len())
                .filter(|position| *position != index)
                .filter_map(|position| attrs.element(position).ok())
                .collect();
            ir::set_inherent(
                function,
                "workgroup_attrib_attrs",
                ArrayAttribute::new(context, &kept).into(),
            );
        }
    }
    Ok(())
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

/// Gives the tile's memory S padded slots: the attribution becomes
/// `memref<S*slot x i8>`, aligned to the slot alignment.
fn multiply(context: &Context, tile: &Tile, stages: i64) -> R<()> {
    let total = stages * tile.slot as i64;
    let bytes: Type = MemRefType::new(
        IntegerType::new(context, 8).into(),
        &[total],
        None,
        tile.tile_type.memory_space(),
    )
    .into();
    match tile.root {
        TileRoot::Workgroup { function, index } => {
            let argument = ir::as_argument(tile.value)
                .ok_or("internal error: a workgroup attribution that is not an argument")?;
            argument.set_type(bytes);
            if !crate::raise_alignment::raise_workgroup_alignment(function, index, tile.align) {
                return Err("internal error: cannot align the pipelined tile".into());
            }
            Ok(())
        }
    }
}

fn make_barriers<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
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
    let arrivals = plan.copies.len() as u32;
    for slot in 0..stages {
        let barrier = barrier_view(&b, storage, Ix::Const(slot))?;
        b.insert(builders::barrier_init(context, b.location, barrier, arrivals).map_err(internal)?);
    }
    Ok(Barriers {
        symbol,
        r#type,
        count: plan.stages,
        arrivals,
    })
}

/// A shared `memref.global` of `r#type` named `symbol`, 8-byte aligned, at the
/// start of the loop's gpu.module.
pub(super) fn add_global<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
    symbol: &str,
    r#type: Type<'c>,
) -> R<()> {
    let module = crate::target::enclosing(plan.function, "gpu.module")
        .ok_or("internal error: a kernel outside a gpu.module")?;
    let module_body = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: gpu.module without a body")?;
    let global = build::shared_global(context, plan.loop_op.location(), symbol, r#type, 8)?;
    match module_body.first_operation() {
        Some(first) => module_body.insert_operation_before(first, global),
        None => module_body.append_operation(global),
    };
    Ok(())
}

/// The memory space `3` (shared), as the pass spells its own buffers.
pub(super) fn shared_space(context: &Context) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), 3).into()
}

/// `memref<1xi64, 3>`: one mbarrier, or the tile count.
pub(super) fn cell_type<'c>(context: &'c Context) -> Type<'c> {
    MemRefType::new(
        IntegerType::new(context, 64).into(),
        &[1],
        None,
        Some(shared_space(context)),
    )
    .into()
}

pub(super) fn barrier_view<'c, 'a>(
    b: &B<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<Value<'c, 'a>> {
    let shift = b.mul(slot, Ix::Const(8))?;
    b.view(storage, shift, cell_type(b.context))
}

fn counter_view<'c, 'a>(b: &B<'c, 'a>, storage: Value<'c, 'a>, stages: i64) -> R<Value<'c, 'a>> {
    b.view(storage, Ix::Const(stages * 8), cell_type(b.context))
}

/// Issues the copies of iteration k + D when it exists (on cp.async,
/// empty groups when it does not), into the slot D after this one.
fn refill<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    bases: &[Base<'c, 'a>],
    induction: Value<'c, 'a>,
    entry: &Entry<'c, 'a>,
    counters: &Counters<'c, 'a>,
) -> R<()> {
    let stages = i64::from(plan.stages);
    // With no tile ahead the refill is the iteration's own copy: always issued.
    let condition = if entry.ahead == 0 {
        Err(true)
    } else {
        b.less(Ix::Val(counters.k), entry.refill_limit)?
    };
    guarded_issue(b, plan, condition, |inner| {
        let iv = inner.add(Ix::Val(induction), entry.refill_offset)?;
        let ahead = (entry.ahead % stages) as u64;
        let slot = inner.wrapping_add(Ix::Val(counters.slot), ahead, stages as u64)?;
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
fn erase_dead(body: melior::ir::BlockRef) {
    let ops = crate::ir::query::top_level_ops(body);
    for op in ops.into_iter().rev() {
        let name = ir::op_name(&op);
        let pure = name.starts_with("arith.")
            || name.starts_with("index.")
            || matches!(
                name.as_str(),
                "affine.apply" | "memref.subview" | "memref.cast"
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
