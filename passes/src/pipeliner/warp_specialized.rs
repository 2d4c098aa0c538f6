//! The rewrite of a warp-specialized loop (`producer = "warp"`;
//! docs/pipelining.md, "Warp specialization").
//!
//! The kernel's B threads stay the consumers; the pass adds one producer warp
//! (threads B..B+32) and two rings of S mbarriers: `full[s]` completes when
//! slot s holds its tile, `empty[s]` when every consumer has left it. With n
//! the tile's number and `phase = (n / S) & 1`, carried by both loops:
//!
//! ```text
//! kernel entry: full[s] expects A arrivals, empty[s] B (thread 0 inits)
//! (code before the loop: every thread)
//! if tid >= B {acopy.issuers}:            // the producer
//!   [TMA: if tid == B]
//!   for k, slot, phase:
//!     barrier_wait empty[slot], !phase    // passes at once in the first round
//!     copies k -> slot (TMA: on full[slot])
//!     [cp.async: cp.async.mbarrier.arrive.noinc full[slot]]
//! if tid < B:                             // the consumers
//!   for k, slot, phase:
//!     barrier_wait full[slot], phase
//!     consumers on slot                   // gpu.barrier -> a barrier of the B
//!     mbarrier.arrive empty[slot - N]     // N wgmma groups in flight: k >= N
//!   (the rest of the kernel)
//! ```
//! A (full's arrivals per phase) is one per copy on TMA (each copy's
//! `arrive.expect_tx`) and the producer's 32 lanes on cp.async. The
//! producer never waits for a release the consumers do not make: tile k
//! waits for the release of tile k - S, which the consumers make in iteration
//! k - S + N <= T - 1 (N < S, rule P16).

use acopy_dialect::builders;
use acopy_target::CopyPath;
use melior::{
    ir::{
        attribute::{DenseI32ArrayAttribute, StringAttribute},
        block::BlockLike,
        operation::OperationLike,
        Attribute, OperationRef, RegionLike, Value, ValueLike,
    },
    Context,
};

use super::rewrite::{mark_done, Chosen, Schedule};
use super::rings::RingSchedule;
use super::warp_producer::producer;
use super::warp_rings::{make_rings, next_slot_and_phase, ring_cell, ring_pointer, Roles};
use super::{loop_body as common, slot_layout};
use crate::ir::{
    build::{self, Builder as B, Cmp, Ix},
    op_names::{arith, gpu, nvvm},
};
use crate::plan::collective::Collective;
use crate::plan::loops::{warp::WarpPlan, LoopPlan};
use crate::{ir, target};

type R<T> = Result<T, String>;

pub fn rewrite<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    warp: WarpPlan,
    serial: usize,
) -> R<Chosen> {
    let stages = i64::from(plan.stages);
    let tile_uses = common::tile_uses(plan);
    let bases = slot_layout::slot_bases(context, plan, stages)?;
    let outer = outer_loop(plan);
    let schedule = checked_schedule(plan, warp, outer.is_some())?;
    let rings = make_rings(context, plan, &schedule, serial)?;
    // The roles split at the kernel's top level: before the loop, or before
    // the persistent loop around it.
    let anchor = outer.unwrap_or(plan.loop_op);
    let pre = B::in_place(context, anchor)?;
    let storage = pre.get_global(&rings.symbol, rings.r#type)?;
    let thread = pre.thread_id("x")?;
    let consumers = pre.index(i64::from(warp.consumers))?;
    let is_producer = pre.cmpi(Cmp::Uge, thread, consumers)?;
    let roles = Roles {
        warp,
        storage,
        thread,
        anchor,
        outer,
    };
    producer(context, plan, &roles, &bases, is_producer)?;
    let is_consumer = pre.cmpi(Cmp::Ult, thread, consumers)?;
    // At the top level, what only the consumers run before the loop goes
    // into their region first; in a persistent loop it moves with the loop.
    let alone = if outer.is_none() {
        plan.consumers_only.as_slice()
    } else {
        &[]
    };
    consumer_region(context, (anchor, alone), is_consumer, warp)?;
    // Across entries of the persistent loop the consumers carry the slot and
    // the phase through it, as the producer does through its copy of it.
    let entry = match outer {
        Some(outer) => Some(outer_counters(context, outer)?),
        None => None,
    };

    let b = B::in_place(context, plan.wait)?;
    let (k, slot, phase) = consumer_counters(&b, plan)?;
    let full = ring_cell(&b, storage, Ix::Val(slot), 0)?;
    b.insert(builders::barrier_wait(b.location, full, phase).map_err(common::internal)?);
    common::redirect_consumers(&b, plan, &bases, &tile_uses, Ix::Val(slot))?;
    common::erase_originals(plan);
    release(context, plan, &schedule, storage, (k, slot))?;
    let loop_op = advance(context, plan, (k, slot, phase), entry, stages)?;
    if outer.is_some() {
        release_in_flight(context, plan, &schedule, storage, loop_op)?;
    }
    if let Some(outer) = outer {
        // SAFETY: `outer` is not used after (it is rebuilt).
        unsafe { carry_outer(context, outer, loop_op)? };
    }
    consumer_barriers(context, plan.function)?;
    if release_group(plan).is_some() {
        cluster_exit(context, plan.function)?;
    }
    declared_block(context, plan.function, warp)?;
    grow_block(context, plan.function, warp)?;
    if warp.registers.is_some() {
        blocks_per_sm_declared(context, plan.function);
    }
    slot_layout::record_dynamic(context, plan, stages)?;
    mark_done(context, loop_op, stages);
    Ok(Chosen {
        schedule: Schedule::ProducerWarp(schedule),
        producer: Some(warp),
    })
}

/// The rings' arrivals and releases, as numbers, checked free of deadlock
/// before a line of IR is built (rings.rs).
fn checked_schedule(plan: &LoopPlan, warp: WarpPlan, persistent: bool) -> R<RingSchedule> {
    let schedule = RingSchedule::new(
        plan.stages,
        plan.path == CopyPath::Tma,
        plan.copies.len() as u32,
        warp.consumers,
        plan.async_consumers
            .map_or(0, |consumers| consumers.in_flight),
        persistent,
    )
    .for_group(release_group(plan).map_or(1, |group| group.size() as u32));
    schedule
        .check()
        .map_err(|deadlock| format!("internal error: {deadlock}"))?;
    tracing::debug!("{schedule}");
    Ok(schedule)
}

/// The persistent `scf.for` around the marked loop, if any (P18 allows one
/// at the kernel's top level).
fn outer_loop<'c, 'a>(plan: &LoopPlan<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    plan.loop_op
        .parent_operation()
        .filter(|parent| *parent != plan.function)
}

/// The slot and phase the persistent loop carries into each entry of the
/// marked loop, as body arguments (their iter_args come with [`carry_outer`]).
fn outer_counters<'c, 'a>(
    context: &'c Context,
    outer: OperationRef<'c, 'a>,
) -> R<[Value<'c, 'a>; 2]> {
    let body = outer
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: a persistent loop without a body")?;
    let b = B::in_place(context, outer)?;
    let types = [b.index_type(), b.int_type(1)];
    let arguments = build::loop_carried::add_body_arguments(body, &types, b.location);
    Ok([arguments[0], arguments[1]])
}

/// Gives the persistent loop its iter_args: slot 0 and phase 0 on entry, and
/// each trip yields what the marked loop (`inner`, its last two results) ends
/// with.
///
/// # Safety
/// `outer` is rebuilt: no handle to it may be used afterwards.
unsafe fn carry_outer<'c, 'a>(
    context: &'c Context,
    outer: OperationRef<'c, 'a>,
    inner: OperationRef<'c, 'a>,
) -> R<()> {
    let count = inner.result_count();
    let nexts: Vec<Value> = [count - 2, count - 1]
        .iter()
        .map(|index| inner.result(*index).map(Into::into))
        .collect::<Result<_, _>>()
        .map_err(common::internal)?;
    let b = B::in_place(context, outer)?;
    let inits = [b.index(0)?, b.int(1, 0)?];
    // SAFETY: the caller's contract.
    unsafe { build::loop_carried::carry(context, outer, &inits, &nexts)? };
    Ok(())
}

/// Moves `alone` (ops before the loop only the consumers run, in order), the
/// loop and every op after it (but the kernel's terminator) into
/// `scf.if %is_consumer {acopy.consumers = array<i32: 0, B>}` (the mark tells
/// `acopy-lower` that only the B consumers run what is in it).
fn consumer_region<'c, 'a>(
    context: &'c Context,
    (anchor, alone): (OperationRef<'c, 'a>, &[OperationRef<'c, 'a>]),
    is_consumer: Value<'c, 'a>,
    warp: WarpPlan,
) -> R<()> {
    let consumers = warp.consumers;
    let pre = B::in_place(context, anchor)?;
    let mut inner_end = None;
    pre.if_then(is_consumer, |inner| {
        if let Some(split) = warp.registers {
            // What the producer warpgroup gave back, before the consumers'
            // code (which ptxas may then compile for that many registers).
            inner.set_max_registers(split.consumers, true)?;
        }
        inner_end = Some(inner.anchor());
        Ok(())
    })?;
    let end = inner_end.ok_or("internal error: no consumer region")?;
    let region =
        crate::ir::query::previous_op(anchor).ok_or("internal error: no consumer region")?;
    let range: Attribute = DenseI32ArrayAttribute::new(context, &[0, consumers as i32]).into();
    ir::set_discardable(region, target::CONSUMERS, range);
    for op in alone {
        // SAFETY: both ops are live; what `op` reads is defined before the
        // scf.if, or by an op of `alone` moved before it (warp_prologue.rs).
        unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), end.to_raw()) };
    }
    let mut current = Some(anchor);
    while let Some(op) = current {
        current = op.next_in_block();
        if current.is_none() {
            // The kernel's terminator stays.
            break;
        }
        // SAFETY: both ops are live; `op` moves into a block its values'
        // definitions dominate (they are before the scf.if or moved with it).
        unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), end.to_raw()) };
    }
    Ok(())
}

/// The consumer loop's counters, as body arguments: k, slot and phase.
fn consumer_counters<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
) -> R<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>)> {
    let types = [b.index_type(), b.index_type(), b.int_type(1)];
    let arguments = build::loop_carried::add_body_arguments(plan.body, &types, b.location);
    Ok((arguments[0], arguments[1], arguments[2]))
}

/// At the end of the body: the consumers release the slot they are done
/// with, this iteration's, or with N wgmma groups in flight tile k - N's;
/// with N = 1, right after the body's earlier wait that completes every group
/// of iteration k - 1, when it has one (`early_release`): then, as in
/// FlashAttention-3, the producer refills a slot half an iteration sooner,
/// and a ping-pong turn that spans the wait for the next tile finds its slot
/// already released by the other warpgroup.
fn release<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    schedule: &RingSchedule,
    storage: Value<'c, 'a>,
    (k, slot): (Value<'c, 'a>, Value<'c, 'a>),
) -> R<()> {
    let stages = i64::from(plan.stages);
    let end = plan
        .body
        .terminator()
        .ok_or("internal error: scf.for body without a terminator")?;
    let early = plan.early_release.and_then(|wait| wait.next_in_block());
    let b = B::in_place(context, early.unwrap_or(end))?.at(plan.loop_op.location());
    let in_flight = schedule.release_lag;
    let arrive = |b: &B<'c, 'a>| -> R<()> {
        let back = schedule.release_offset();
        let released = b.wrapping_add(Ix::Val(slot), back, stages as u64)?;
        release_slot(b, plan, storage, released)
    };
    if in_flight == 0 {
        return arrive(&b);
    }
    let done = b.cmpi(Cmp::Sge, k, b.index(i64::from(in_flight))?)?;
    b.if_then(done, arrive)
}

/// After an entry of a loop inside a persistent loop whose wgmma leave N
/// groups in flight: the last min(N, T) tiles were never released in the loop
/// (their release comes N iterations later), and the next entry's producer
/// waits for them. The consumers wait for every wgmma group (the user's own
/// `wait_group 0` after the loop then has nothing left) and release those tiles.
fn release_in_flight<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    schedule: &RingSchedule,
    storage: Value<'c, 'a>,
    loop_op: OperationRef<'c, 'a>,
) -> R<()> {
    let in_flight = schedule.releases_after_loop;
    if in_flight == 0 {
        return Ok(());
    }
    let stages = i64::from(plan.stages);
    let after = loop_op
        .next_in_block()
        .ok_or("internal error: scf.for is the last op of its block")?;
    let b = B::in_place(context, after)?.at(loop_op.location());
    let count = loop_op.result_count();
    let result = |index: usize| -> R<Value<'c, 'a>> {
        loop_op
            .result(index)
            .map(Into::into)
            .map_err(common::internal)
    };
    let (trips, end_slot) = (result(count - 3)?, result(count - 2)?);
    b.wgmma_wait_all()?;
    for back in 1..=i64::from(in_flight) {
        let issued = b.cmpi(Cmp::Sge, trips, b.index(back)?)?;
        b.if_then(issued, |b| {
            let slot = b.wrapping_add(
                Ix::Val(end_slot),
                (stages - back % stages) as u64 % stages as u64,
                stages as u64,
            )?;
            release_slot(b, plan, storage, slot)
        })?;
    }
    Ok(())
}

/// The group of CTAs whose slots one refill writes: the loop's multicast
/// group (of more than one CTA: `multicast::shared_group`), `None` when every
/// copy is the CTA's own.
fn release_group(plan: &LoopPlan) -> Option<Collective> {
    plan.multicast
        .as_ref()
        .and_then(|slots| slots.group.clone())
}

/// Lane 0's release of its warp (the instruction is predicated on lane 0).
const LANE_ARRIVE: &str = "mbarrier.arrive.shared.b64 _, [$0], 32;";

/// Lane 0's release of its warp on a peer's barrier (a `mapa` address in the
/// cluster's shared window; `.release.cta`, the default, as the arrive it
/// replaces: docs/pipelining.md, "Multicast slots with a producer warp").
const PEER_ARRIVE: &str = "mbarrier.arrive.shared::cluster.b64 _, [$0], 32;";

/// One consumer thread leaves `slot`: it arrives on `empty[slot]`, and when
/// peers multicast into the slot (a refill writes it in every CTA of the
/// group) on each peer's too, so that no producer of the group refills it
/// before every CTA's consumers have left it (docs/pipelining.md, "Multicast
/// slots with a producer warp"). The peers' arrivals go once per warp:
/// `bar.warp.sync`, then lane 0's `mbarrier.arrive` of 32 on the peer's
/// barrier (`mapa`). The arrive keeps the default `.release.cta`: the hazard is
/// the warp's reads of the slot before a peer's refill writes it, and those
/// reads are done (their values in registers, wgmma waited for) when the warp
/// arrives; a `.release.cluster` only added a cluster-wide fence that stalled
/// every release (ncu's `membar` stalls; the GEMM ran at 0.6x on the H100).
/// With `release = "warp"` the CTA's own barrier gets the same: one arrive of
/// 32 a warp, by lane 0.
fn release_slot<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<()> {
    let stages = i64::from(plan.stages);
    let pointer = ring_pointer(b, storage, slot, stages)?;
    let group = release_group(plan);
    // `release = "warp"`: one lane arrives for its warp, as the peers'
    // arrivals already do: one shared-memory arrive a warp instead of 32 on
    // the slot's barrier every K step (the count the barrier expects is the
    // same; docs/pipelining.md, "Releases a warp at a time"). Asked for per
    // loop: it is faster for some kernels and slower for others.
    let per_warp = plan.warp.is_some_and(|warp| warp.warp_release);
    if !per_warp {
        b.op(nvvm::MBARRIER_ARRIVE, &[pointer], &[b.int_type(64)], &[])?;
        if group.is_none() {
            return Ok(());
        }
    }
    b.op(nvvm::BAR_WARP_SYNC, &[b.int(32, -1)?], &[], &[])?;
    let lane = b.binary(arith::REMUI, b.thread_id("x")?, b.index(32)?)?;
    let first_lane = b.cmpi(Cmp::Eq, lane, b.index(0)?)?;
    if per_warp {
        // Lane 0's arrive is one predicated instruction, not a branch to it: a
        // branch in the release sits inside a ping-pong loop's rotated body.
        predicated_arrive(b, LANE_ARRIVE, pointer, first_lane)?;
    }
    let Some(group) = group else {
        return Ok(());
    };
    // Each peer's arrive is one instruction predicated on lane 0 and on the
    // member being a peer, not a branch: a branch made the warp diverge and
    // reconverge every K step (Nsight Compute, the 128 x 64 pair at 1024 x
    // 1024 x 8192: 249 divergent branches a warp against 0.7 unpaired;
    // bench/RESULTS.md, 2026-12-07, seventh session). Every lane computes the
    // peer's address (`mapa` is arithmetic on a rank of the cluster).
    let (index, first) = group.position(b)?;
    for member in 0..group.size() {
        let peer = b.cmpi(Cmp::Ne, index, b.int(32, member as i64)?)?;
        let arrives = b.binary(arith::ANDI, first_lane, peer)?;
        let offset = b.int(32, group.member_offset(member) as i64)?;
        let rank = b.binary(arith::ADDI, first, offset)?;
        let remote = b.value(nvvm::MAPA, &[pointer, rank], b.ptr_type(7)?, &[])?;
        predicated_arrive(b, PEER_ARRIVE, remote, arrives)?;
    }
    Ok(())
}

/// One arrive of 32 counts on the mbarrier at `address` (`code`: the
/// inline PTX, `$0` the address), issued by the lanes where `predicate`
/// holds: an instruction predicate, no branch.
fn predicated_arrive<'c, 'a>(
    b: &B<'c, 'a>,
    code: &str,
    address: Value<'c, 'a>,
    predicate: Value<'c, 'a>,
) -> R<()> {
    b.op(
        nvvm::INLINE_PTX,
        &[address, predicate],
        &[],
        &[
            ("ptxCode", StringAttribute::new(b.context, code).into()),
            ("operandSegmentSizes", b.segments(&[1, 0, 1])),
        ],
    )?;
    Ok(())
}

/// Before the kernel returns, every thread of the cluster meets (both roles,
/// after their regions): no CTA leaves while a peer's multicast copies still
/// land in its slots or a peer's consumers still arrive on its barriers.
fn cluster_exit<'c, 'a>(context: &'c Context, function: OperationRef<'c, 'a>) -> R<()> {
    let region = function.region(0).map_err(common::internal)?;
    let mut block = region.first_block();
    while let Some(current) = block {
        block = current.next_in_region();
        if let Some(end) = current.terminator().filter(|end| ir::is(end, gpu::RETURN)) {
            B::in_place(context, end)?.cluster_barrier()?;
        }
    }
    Ok(())
}

/// The counters' next values; the loop is rebuilt to carry them.
fn advance<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    (k, slot, phase): (Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>),
    entry: Option<[Value<'c, 'a>; 2]>,
    stages: i64,
) -> R<OperationRef<'c, 'a>> {
    let end = plan
        .body
        .terminator()
        .ok_or("internal error: scf.for body without a terminator")?;
    let b = B::in_place(context, end)?.at(plan.loop_op.location());
    let next_k = b.ix(b.add(Ix::Val(k), Ix::Const(1))?)?;
    let [next_slot, next_phase] = next_slot_and_phase(&b, slot, phase, stages)?;
    let pre = B::in_place(context, plan.loop_op)?;
    let [first_slot, first_phase] = match entry {
        Some(entry) => entry,
        None => [pre.index(0)?, pre.int(1, 0)?],
    };
    let inits = [pre.index(0)?, first_slot, first_phase];
    // SAFETY: the plan's handle to the loop is not used after this.
    unsafe {
        build::loop_carried::carry(
            context,
            plan.loop_op,
            &inits,
            &[next_k, next_slot, next_phase],
        )
    }
}

/// Each barrier of the whole block the consumers run (in the loop and after
/// it) becomes a barrier of the B consumers: the producer warp never reaches
/// it (`crate::target::roles`).
fn consumer_barriers<'c, 'a>(context: &'c Context, function: OperationRef<'c, 'a>) -> R<()> {
    let stranded = target::roles::name_barriers(context, function)?;
    match stranded.first() {
        None => Ok(()),
        Some(barrier) => Err(format!("internal error: {}", barrier.message)),
    }
}

/// Every `gpu.block_dim x` of the kernel reads the declared block, B, and
/// every `gpu.global_id x` is `block_id x * B + thread_id x`: the block grows
/// by the producer warp below, but what the kernel computes from its block
/// size is what it meant for B threads (y and z stay 1).
fn declared_block(context: &Context, function: OperationRef, warp: WarpPlan) -> R<()> {
    let x = crate::ir::spelled::gpu_dim(context, "x")?;
    let mut reads = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = ir::op_name(&op);
        let along_x = op.attribute("dimension").is_ok_and(|dim| dim == x);
        if along_x && (name == gpu::BLOCK_DIM.name || name == gpu::GLOBAL_ID.name) {
            reads.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    for raw in reads {
        // SAFETY: found by the walk above; each is listed once.
        let op = unsafe { OperationRef::from_raw(raw) };
        let b = B::in_place(context, op)?;
        let block = b.index(i64::from(warp.consumers))?;
        let value = if ir::op_name(&op) == gpu::BLOCK_DIM.name {
            block
        } else {
            let first = b.mul(Ix::Val(b.block_id("x")?), Ix::Val(block))?;
            b.ix(b.add(first, Ix::Val(b.thread_id("x")?))?)?
        };
        let old = op.result(0).map_err(common::internal)?;
        // SAFETY: both values are live and of type index; `value` is built
        // before `op`, so it dominates every use.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value.to_raw()) };
        // SAFETY: its one result has no uses left; no handle to it is kept.
        unsafe { build::erase(op) };
    }
    Ok(())
}

/// The kernel's declared block grows by the producer warp. The grown block is
/// also the function's inherent `known_block_size`, which `convert-gpu-to-nvvm`
/// turns into PTX's `.maxntid`: without it ptxas does not know the block and
/// may use more registers than a block of B + 32 threads can launch with (288
/// threads launch with at most 168), and the launch fails.
fn grow_block(context: &Context, function: OperationRef, warp: WarpPlan) -> R<()> {
    let block = [warp.block() as i32, 1, 1];
    let mut grown = false;
    for name in target::BLOCK_ATTRIBUTES {
        if function.has_attribute(name) {
            let value: Attribute = DenseI32ArrayAttribute::new(context, &block).into();
            if name == INHERENT_BLOCK {
                ir::set_inherent(function, name, value);
            } else {
                ir::set_discardable(function, name, value);
            }
            grown = true;
        }
    }
    if !grown {
        return Err("internal error: a warp-specialized kernel without a declared block".into());
    }
    if !function.has_attribute(INHERENT_BLOCK) {
        let value: Attribute = DenseI32ArrayAttribute::new(context, &block).into();
        ir::set_inherent(function, INHERENT_BLOCK, value);
    }
    Ok(())
}

/// A kernel whose warpgroups move registers declares how many blocks share an
/// SM (`nvvm.minctasm`, PTX's `.minnctapersm`; 1 unless it asked for more):
/// only then does ptxas fix the registers a thread launches with at the bound
/// the split was computed from. Without it ptxas may launch with fewer, and
/// then ignores every setmaxnreg (its C7508 "unable to determine register
/// count at entry").
fn blocks_per_sm_declared(context: &Context, function: OperationRef) {
    use crate::plan::loops::warp::MIN_BLOCKS_PER_SM;
    if !function.has_attribute(MIN_BLOCKS_PER_SM) {
        let one = melior::ir::attribute::IntegerAttribute::new(
            melior::ir::r#type::IntegerType::new(context, 32).into(),
            1,
        );
        ir::set_discardable(function, MIN_BLOCKS_PER_SM, one.into());
    }
}

/// `gpu.func`'s own block-size attribute, the one the lowering to NVVM reads.
const INHERENT_BLOCK: &str = "known_block_size";
