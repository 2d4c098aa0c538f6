//! The rewrite of one analysed loop into multi-buffered acopy IR
//! (docs/pipelining.md has the schedule and the proofs).
//!
//! With S slots, T trips, C copies per iteration and k = (iv - lb) / step:
//!
//! ```text
//! cp.async (S >= 2)                      TMA
//! gpu.barrier                            base = counter; fence.proxy.async; gpu.barrier
//! j in 0..S-1: if j < T: copies j        j in 0..S-1: if j < T: copies j -> slot (base+j)%S, bar
//! for k:                                 for k:  n = base + k
//!   wait pending = C*min(S-2, T-1-k)       fence.proxy.async; gpu.barrier
//!   if k+S-1 < T: copies k+S-1              if k+S-1 < T: copies k+S-1 -> slot (n+S-1)%S, bar
//!   consumers on slot k%S                   barrier_wait bar[n%S], parity (n/S)&1
//!                                           consumers on slot n%S
//!                                        counter = base + T
//! ```
//! S = 1 on cp.async is `gpu.barrier; copies; wait 0; consumers`.

use acopy_dialect::{builders, CopyGmemToSmem};
use acopy_target::CopyPath;
use melior::{
    ir::{
        attribute::DictionaryAttribute, block::BlockLike, operation::OperationLike,
        r#type::MemRefType, Attribute, Identifier, OperationRef, RegionLike, Type, Value,
    },
    Context,
};

use super::{
    analysis::{self, LoopPlan, TileRoot},
    attr,
    build::{self, Ix, B},
};
use crate::ir;

type R<T> = Result<T, String>;

/// The TMA path's per-loop shared state: S mbarriers and the count of tiles
/// issued so far (8 bytes each), in one `memref.global`.
struct Barriers<'c> {
    symbol: String,
    r#type: Type<'c>,
}

pub fn rewrite<'c, 'a>(context: &'c Context, plan: &LoopPlan<'c, 'a>, serial: usize) -> R<()> {
    let stages = i64::from(plan.stages);
    let loop_op = plan.loop_op;
    let tma = plan.path == CopyPath::Tma;

    // Every use of each tile, taken before the tile changes type.
    let tile_uses: Vec<Vec<(OperationRef, usize)>> = plan
        .tiles
        .iter()
        .map(|tile| analysis::users(tile.value))
        .collect();
    for tile in &plan.tiles {
        multiply(context, tile, stages)?;
    }

    let barriers = if tma {
        Some(make_barriers(context, plan, serial)?)
    } else {
        None
    };

    // Before the loop.
    let pre = B::before(context, loop_op)?;
    let lower = value_ix(loop_op.operand(0))?;
    let upper = value_ix(loop_op.operand(1))?;
    let step = value_ix(loop_op.operand(2))?;
    let trips = match plan.static_trips {
        Some(trips) => Ix::Const(trips),
        None => {
            let span = pre.sub(upper, lower)?;
            let count = pre.ceil_div(span, step)?;
            pre.max(count, Ix::Const(0))?
        }
    };
    let mut counter = None;
    let base = match &barriers {
        Some(barriers) => {
            let storage = pre.get_global(&barriers.symbol, barriers.r#type)?;
            let cell = counter_view(&pre, storage, stages)?;
            let count = pre.load(cell, pre.constant(0, 0)?, pre.int_type(64))?;
            counter = Some((storage, cell));
            pre.proxy_fence()?;
            Ix::Val(pre.cast(count, 0)?)
        }
        None => Ix::Const(0),
    };
    // Consumers of the previous entry of this loop (an outer loop) are done
    // with every slot before the prologue refills them.
    pre.barrier()?;
    for j in 0..stages - 1 {
        let Some(b) = pre.guarded(pre.less(Ix::Const(j), trips)?)? else {
            continue;
        };
        let offset = b.mul(Ix::Const(j), step)?;
        let iv = b.add(lower, offset)?;
        let slot = b.rem(b.add(base, Ix::Const(j))?, stages)?;
        issue(&b, plan, Some(b.ix(iv)?), slot, counter.map(|(s, _)| s))?;
    }

    // In the body, where the wait was.
    let body = plan.body;
    let induction: Value = body
        .argument(0)
        .map_err(|error| format!("internal error: scf.for without an induction variable: {error}"))?
        .into();
    let b = B::before(context, plan.wait)?;
    let since = b.sub(Ix::Val(induction), lower)?;
    let k = b.div(since, step)?;
    let n = b.add(base, k)?;
    let slot = if tma {
        b.proxy_fence()?;
        b.barrier()?;
        refill(
            &b,
            plan,
            induction,
            k,
            trips,
            step,
            n,
            counter.map(|(s, _)| s),
        )?;
        let slot = b.rem(n, stages)?;
        let storage = counter
            .map(|(s, _)| s)
            .ok_or("internal error: no barriers")?;
        let barrier = barrier_view(&b, storage, slot)?;
        let phase = b.div(n, Ix::Const(stages))?;
        let parity = b.rem(phase, 2)?;
        let parity = b.ix(parity)?;
        let parity = b.cast(parity, 1)?;
        b.insert(builders::barrier_wait(b.location, barrier, parity).map_err(internal)?);
        slot
    } else if stages == 1 {
        b.barrier()?;
        issue(&b, plan, None, Ix::Const(0), None)?;
        b.insert(builders::wait_gmem_to_smem(context, b.location, 0).map_err(internal)?);
        Ix::Const(0)
    } else {
        wait_for_tile(&b, plan, k, trips)?;
        refill(&b, plan, induction, k, trips, step, k, None)?;
        b.rem(k, stages)?
    };
    // The consumers read the slot of this iteration.
    for (tile, uses) in plan.tiles.iter().zip(&tile_uses) {
        let shift = b.mul(slot, Ix::Const(tile.slot as i64))?;
        let view = b.view(tile.value, shift, tile.tile_type.into())?;
        for (user, operand) in uses {
            if plan.copies.iter().any(|copy| copy.op == *user) {
                continue;
            }
            build::set_operand(*user, *operand, view);
        }
    }
    // The originals are replaced; their operands' ops may now be dead.
    for copy in &plan.copies {
        build::erase(copy.op);
    }
    build::erase(plan.wait);
    // The native form's barrier is replaced by the pass's: its init goes too.
    if let Some(native) = &plan.native {
        build::erase(native.init);
    }
    erase_dead(body);

    if let Some((_, cell)) = counter {
        let after = loop_op
            .next_in_block()
            .ok_or("internal error: scf.for is the last op of its block")?;
        let a = B::before(context, after)?.at(loop_op.location());
        let next = a.add(base, trips)?;
        let next = a.ix(next)?;
        let next = a.cast(next, 64)?;
        let zero = a.constant(0, 0)?;
        a.store(next, cell, zero)?;
    }

    // Mark the loop done, with what was chosen.
    let record: Attribute = DictionaryAttribute::new(
        context,
        &[(
            Identifier::new(context, "stages"),
            pre.attr(&format!("{stages} : i64"))?,
        )],
    )
    .into();
    // SAFETY: a live op; the name outlives the call.
    unsafe {
        let name = melior::StringRef::new(attr::PIPELINE);
        mlir_sys::mlirOperationRemoveDiscardableAttributeByName(loop_op.to_raw(), name.to_raw());
    }
    ir::set_discardable(loop_op, attr::PIPELINED, record);
    Ok(())
}

fn internal(error: melior::Error) -> String {
    format!("internal error: {error}")
}

fn value_ix<'c, 'a>(value: Result<Value<'c, 'a>, melior::Error>) -> R<Ix<'c, 'a>> {
    let value = value.map_err(internal)?;
    Ok(match ir::constant_int(value) {
        Some(constant) => Ix::Const(constant),
        None => Ix::Val(value),
    })
}

/// Gives the tile's memory S padded slots: the attribution becomes
/// `memref<S*slot x i8>`, aligned to the slot alignment.
fn multiply(context: &Context, tile: &analysis::Tile, stages: i64) -> R<()> {
    let total = stages * tile.slot as i64;
    let bytes: Type = MemRefType::new(
        melior::ir::r#type::IntegerType::new(context, 8).into(),
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
        TileRoot::Global { .. } => Err("internal error: a global tile".into()),
    }
}

fn make_barriers<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
    serial: usize,
) -> R<Barriers<'c>> {
    let stages = i64::from(plan.stages);
    let r#type: Type = MemRefType::new(
        melior::ir::r#type::IntegerType::new(context, 8).into(),
        &[stages * 8 + 8],
        None,
        Some(Attribute::parse(context, "3").ok_or("internal error: memory space")?),
    )
    .into();
    let module = crate::target::enclosing(plan.function, "gpu.module")
        .ok_or("internal error: a kernel outside a gpu.module")?;
    let module_body = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: gpu.module without a body")?;
    let symbol = format!("__acopy_pipeline_{serial}");
    let global = build::shared_global(context, plan.loop_op.location(), &symbol, r#type, 8)?;
    match module_body.first_operation() {
        Some(first) => module_body.insert_operation_before(first, global),
        None => module_body.append_operation(global),
    };
    // Once per kernel, at its entry: the count starts at 0 and each slot's
    // barrier expects one arrival per copy of an iteration.
    let entry = plan
        .function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|block| block.first_operation())
        .ok_or("internal error: empty kernel")?;
    let b = B::before(context, entry)?.at(plan.loop_op.location());
    let storage = b.get_global(&symbol, r#type)?;
    let cell = counter_view(&b, storage, stages)?;
    let zero = b.constant(0, 0)?;
    let zero64 = b.constant(64, 0)?;
    b.store(zero64, cell, zero)?;
    let arrivals = plan.copies.len() as u32;
    for slot in 0..stages {
        let barrier = barrier_view(&b, storage, Ix::Const(slot))?;
        b.insert(builders::barrier_init(context, b.location, barrier, arrivals).map_err(internal)?);
    }
    Ok(Barriers { symbol, r#type })
}

fn barrier_view<'c, 'a>(
    b: &B<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<Value<'c, 'a>> {
    let r#type = Type::parse(b.context, "memref<1xi64, 3>").ok_or("internal error: type")?;
    let shift = b.mul(slot, Ix::Const(8))?;
    b.view(storage, shift, r#type)
}

fn counter_view<'c, 'a>(b: &B<'c, 'a>, storage: Value<'c, 'a>, stages: i64) -> R<Value<'c, 'a>> {
    let r#type = Type::parse(b.context, "memref<1xi64, 3>").ok_or("internal error: type")?;
    b.view(storage, Ix::Const(stages * 8), r#type)
}

/// On cp.async, waits for tile k: after it, min(S-2, T-1-k) iterations'
/// groups were committed (every group of a later tile is one of them).
fn wait_for_tile<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    k: Ix<'c, 'a>,
    trips: Ix<'c, 'a>,
) -> R<()> {
    let stages = i64::from(plan.stages);
    let copies = plan.copies.len() as u32;
    let full = (stages - 2) as u32;
    let wait = |b: &B<'c, 'a>, groups: u32| -> R<()> {
        b.insert(
            builders::wait_gmem_to_smem(b.context, b.location, groups * copies)
                .map_err(internal)?,
        );
        Ok(())
    };
    if full == 0 {
        return wait(b, 0);
    }
    let left = b.sub(trips, Ix::Const(1))?;
    let left = b.sub(left, k)?;
    let ahead = b.min(left, Ix::Const(i64::from(full)))?;
    if let Ix::Const(ahead) = ahead {
        return wait(b, ahead as u32);
    }
    let cases: Vec<i64> = (0..i64::from(full)).collect();
    let builders = b.switch(b.ix(ahead)?, &cases)?;
    for (groups, inner) in builders.iter().enumerate() {
        wait(inner, groups as u32)?;
    }
    Ok(())
}

/// Issues the copies of iteration k + S - 1 when it exists.
#[allow(clippy::too_many_arguments)]
fn refill<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    induction: Value<'c, 'a>,
    k: Ix<'c, 'a>,
    trips: Ix<'c, 'a>,
    step: Ix<'c, 'a>,
    count: Ix<'c, 'a>,
    barriers: Option<Value<'c, 'a>>,
) -> R<()> {
    let stages = i64::from(plan.stages);
    let ahead = stages - 1;
    let next = b.add(k, Ix::Const(ahead))?;
    let Some(inner) = b.guarded(b.less(next, trips)?)? else {
        return Ok(());
    };
    let offset = inner.mul(Ix::Const(ahead), step)?;
    let iv = inner.add(Ix::Val(induction), offset)?;
    let slot = inner.rem(inner.add(count, Ix::Const(ahead))?, stages)?;
    issue(&inner, plan, Some(inner.ix(iv)?), slot, barriers)
}

/// The copies of one iteration into `slot`: with `iv`, the operand ops are
/// cloned for that induction value; without, the originals are used.
fn issue<'c, 'a>(
    b: &B<'c, 'a>,
    plan: &LoopPlan<'c, 'a>,
    iv: Option<Value<'c, 'a>>,
    slot: Ix<'c, 'a>,
    barriers: Option<Value<'c, 'a>>,
) -> R<()> {
    let induction: Value = plan.body.argument(0).map_err(internal)?.into();
    for copy in &plan.copies {
        let view =
            CopyGmemToSmem::from_op(copy.op).map_err(|error| format!("internal error: {error}"))?;
        let mut map: Vec<(Value, Value)> = Vec::new();
        if let Some(iv) = iv {
            map.push((induction, iv));
            for op in &copy.slice {
                let clone = b.clone_op(*op);
                for index in 0..clone.operand_count() {
                    let operand = clone.operand(index).map_err(internal)?;
                    if let Some((_, new)) = map.iter().find(|(old, _)| *old == operand) {
                        build::set_operand(clone, index, *new);
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
        let shift = b.mul(slot, Ix::Const(tile.slot as i64))?;
        let dst = b.view(tile.value, shift, tile.tile_type.into())?;
        let dst = if barriers.is_some() {
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
    let ops = analysis::top_level_ops(body);
    for op in ops.into_iter().rev() {
        let name = ir::op_name(&op);
        let pure = name.starts_with("arith.")
            || name.starts_with("index.")
            || matches!(
                name.as_str(),
                "affine.apply" | "memref.subview" | "memref.cast"
            );
        if pure && op.result_count() > 0 && analysis::users_of_op(op) == 0 {
            build::erase(op);
        }
    }
}
