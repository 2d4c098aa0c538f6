//! A warp-specialized loop (`producer = "warp"` or `"warpgroup"`): the block
//! it needs (P17), where it may stand (P18) and, for a producer warpgroup, the
//! chip and path (P19).
//!
//! The pass adds one 32-thread producer warp after the kernel's B declared
//! threads; the producer runs the kernel up to the loop, then only the copies,
//! and leaves. The loop may also stand in one `scf.for` at the kernel's top
//! level that carries no values (a persistent kernel's loop over tiles): the
//! producer then runs that loop too, with only its value computations and the
//! copies, and the rings' phases continue from one entry to the next. So the kernel's block must be known and one-dimensional (the
//! consumers keep thread ids 0..B, and wgmma's warpgroups stay aligned), the
//! code before the loop may only compute values (the producer runs it too),
//! and the code after the loop runs in the consumers alone: no acopy op and
//! no barrier of the whole block there, except `gpu.barrier`, which the pass
//! turns into a barrier of the B consumers (docs/pipelining.md, "Warp
//! specialization").

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, RegionLike,
};

pub use super::loop_plan::{WarpPlan, PRODUCER_THREADS};
use super::registers;
use super::{attr, loop_plan::Broken};
use crate::ir::op_names::{self, gpu, prefixes};
use crate::{ir, target};
use acopy_target::{Capability, Chip};

/// The most threads a block may have.
const MAX_BLOCK: u32 = 1024;

/// The loop's warp plan when it asks for a producer warp or warpgroup (P19,
/// P17, P18). `removed` is an op before the loop that the rewrite removes
/// (the native TMA form's `barrier_init`), which P18 lets stand there.
pub fn plan_for(
    producer: attr::Producer,
    chip: Chip,
    loop_op: OperationRef,
    function: OperationRef,
    removed: Option<OperationRef>,
) -> Result<Option<WarpPlan>, (Broken, String)> {
    match producer {
        attr::Producer::Block => Ok(None),
        attr::Producer::Warp | attr::Producer::Warpgroup => {
            check(producer, chip, loop_op, function, removed).map(Some)
        }
    }
}

/// P19 (a producer warpgroup), P17, then P18, for `loop_op` in the kernel
/// `function`.
pub fn check(
    producer: attr::Producer,
    chip: Chip,
    loop_op: OperationRef,
    function: OperationRef,
    removed: Option<OperationRef>,
) -> Result<WarpPlan, (Broken, String)> {
    let group = producer == attr::Producer::Warpgroup;
    // A chip with setmaxnreg (sm_90a and later) always copies by TMA, which
    // one producer thread issues.
    if group && !chip.has(Capability::SetMaxNReg) {
        let why = format!("{} has no setmaxnreg", chip.name());
        return Err((Broken::WarpgroupChip, p19(&why)));
    }
    let producers = producer.threads();
    let consumers = consumer_threads(function, producers)
        .map_err(|why| (Broken::WarpBlock, p17(producer, &why)))?;
    place(loop_op, function, removed).map_err(|why| (Broken::WarpPlace, p18(producer, &why)))?;
    let registers = if group {
        registers::split(consumers, blocks_per_sm(function))
    } else {
        None
    };
    Ok(WarpPlan {
        consumers,
        producers,
        registers,
    })
}

/// P17's message, for a producer warp or warpgroup (`producer`'s word names
/// both the request and what the pass adds).
pub fn p17(producer: attr::Producer, why: &str) -> String {
    let (word, added) = (producer.word(), producer.threads());
    format!(
        "a loop marked acopy.pipeline with producer = \"{word}\" needs its kernel's block size known and one-dimensional, a multiple of {added} and at most {} threads (the pass adds one {added}-thread producer {word} after them), but {why}",
        MAX_BLOCK - added
    )
}

/// P18's message, for a producer warp or warpgroup.
pub fn p18(producer: attr::Producer, why: &str) -> String {
    let word = producer.word();
    format!(
        "a loop marked acopy.pipeline with producer = \"{word}\" must stand at the top level of its kernel or in one scf.for there that carries no values, after code that only computes values or, at the kernel's top level, also copies into shared memory and waits for the copies (the producer {word} runs it too) and before code with no acopy op other than TMA stores and their waits and no barrier of the whole block other than gpu.barrier (the consumers run it alone), but {why}"
    )
}

/// P19's message: a producer warpgroup gives its registers away with
/// `setmaxnreg`, which only architecture-specific targets have.
pub fn p19(why: &str) -> String {
    format!(
        "a loop marked acopy.pipeline with producer = \"warpgroup\" needs a chip with setmaxnreg (sm_90a, or an architecture-specific target after it such as sm_100a), but {why}"
    )
}

/// The blocks the kernel asks ptxas to fit on an SM (`nvvm.minctasm`), 1 when
/// it asks for none (`registers::split` reads 0 as 1 too): the registers a
/// thread launches with depend on it.
fn blocks_per_sm(function: OperationRef) -> u32 {
    function
        .attribute(MIN_BLOCKS_PER_SM)
        .ok()
        .and_then(|value| melior::ir::attribute::IntegerAttribute::try_from(value).ok())
        .and_then(|value| u32::try_from(value.value()).ok())
        .unwrap_or(1)
}

/// The kernel attribute `convert-gpu-to-nvvm` turns into `.minnctapersm`.
pub const MIN_BLOCKS_PER_SM: &str = op_names::attributes::NVVM_MINCTASM;

/// B, the kernel's declared block: one-dimensional, whole multiples of the
/// `producers` the pass adds (a warp or a warpgroup), with room for them.
fn consumer_threads(function: OperationRef, producers: u32) -> Result<u32, String> {
    let block = match target::known_block(function) {
        Ok(Some(block)) => block,
        Ok(None) => {
            return Err(
                "the kernel declares none (give it known_block_size or nvvm.reqntid)".into(),
            )
        }
        Err(problem) => return Err(problem.to_string()),
    };
    let [x, y, z] = block;
    if y != 1 || z != 1 {
        return Err(format!("it is {x} x {y} x {z}"));
    }
    if x % producers != 0 || x + producers > MAX_BLOCK {
        return Err(format!("it is {x}"));
    }
    Ok(x)
}

fn place(
    loop_op: OperationRef,
    function: OperationRef,
    removed: Option<OperationRef>,
) -> Result<(), String> {
    let parent = loop_op
        .parent_operation()
        .ok_or_else(|| "it has no parent".to_string())?;
    // At the kernel's top level, or in one scf.for there (a persistent kernel's
    // loop over tiles) that carries no values.
    let outer = match parent {
        parent if parent == function => None,
        parent
            if ir::is(&parent, ir::op_names::scf::FOR)
                && parent.parent_operation() == Some(function) =>
        {
            if parent.result_count() > 0 {
                return Err("the scf.for around it carries values (iter_args)".into());
            }
            Some(parent)
        }
        parent => return Err(format!("it is inside '{}'", ir::op_name(&parent))),
    };
    let blocks = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|entry| entry.next_in_region());
    if blocks.is_some() {
        return Err(
            "the kernel's body has several blocks (the consumers' part would not be one region)"
                .into(),
        );
    }
    // At the kernel's top level every thread runs the code before the split,
    // so it may also load shared memory (a tile every iteration reads, such as
    // attention's Q) and wait for it; inside the persistent loop the producer
    // runs a copy of that code, so there it may only compute values.
    computes_before(loop_op, removed, outer.is_none())?;
    consumers_after(loop_op)?;
    if let Some(outer) = outer {
        computes_before(outer, removed, true)?;
        consumers_after(outer)?;
    }
    Ok(())
}

/// The ops before `op` in its block only compute values, or are `removed`,
/// or (with `loads`) load shared memory and wait for it: the first one that
/// does more is named.
fn computes_before(
    op: OperationRef,
    removed: Option<OperationRef>,
    loads: bool,
) -> Result<(), String> {
    let mut current = op.block().and_then(|block| block.first_operation());
    while let Some(before) = current.filter(|before| *before != op) {
        let name = ir::op_name(&before);
        let kept = Some(before) != removed;
        let allowed = computes_only(&name) || (loads && loads_shared(&name));
        if kept && (before.region_count() > 0 || !allowed) {
            return Err(format!("'{name}' comes before it"));
        }
        current = before.next_in_block();
    }
    Ok(())
}

/// A copy into shared memory, its barrier or its wait: every thread of the
/// grown block runs them before the roles split (the copy's lowering deals its
/// work over that block, or one thread issues it), so the tile is there for
/// the consumers and the producer warp only waits with them.
fn loads_shared(name: &str) -> bool {
    use acopy_dialect::names;
    [
        names::COPY_GMEM_TO_SMEM,
        names::WAIT_GMEM_TO_SMEM,
        names::BARRIER_INIT,
        names::BARRIER_WAIT,
    ]
    .contains(&name)
}

/// The ops after `op` in its block need no thread outside the consumers.
fn consumers_after(op: OperationRef) -> Result<(), String> {
    let mut after = op.next_in_block();
    while let Some(op) = after {
        if let Some(name) = first_block_wide(op) {
            return Err(format!("'{name}' comes after it"));
        }
        after = op.next_in_block();
    }
    Ok(())
}

/// Ops the producer warp may run before the loop: they compute values only
/// (a special register's read, such as the SM count a persistent kernel
/// divides its tiles by, included).
fn computes_only(name: &str) -> bool {
    op_names::is_pure(name)
        || name.starts_with("math.")
        || name.starts_with(prefixes::NVVM_SREG)
        || name.starts_with(prefixes::LLVM_MLIR)
        || name == gpu::DYNAMIC_SHARED_MEMORY.name
}

/// The first op in `op` (or `op`) that needs threads outside the consumers:
/// an acopy op other than a store, or a barrier of the block other than
/// `gpu.barrier`.
fn first_block_wide(op: OperationRef) -> Option<String> {
    let mut found = None;
    op.walk(WalkOrder::PreOrder, |inner| {
        let name = ir::op_name(&inner);
        if is_block_wide(&name) {
            found = Some(name);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `name` needs every thread of the block (or lowers to something
/// that does).
pub fn is_block_wide(name: &str) -> bool {
    // Index computations, and TMA stores with their waits: a store is issued by
    // thread 0, a consumer, and the barriers its lowering adds become the
    // consumers' (`crate::target::roles`).
    let computes = [
        acopy_dialect::names::WGMMA_DESCRIPTOR,
        acopy_dialect::names::SWIZZLED_INDEX,
        acopy_dialect::names::COPY_SMEM_TO_GMEM,
        acopy_dialect::names::WAIT_SMEM_TO_GMEM,
    ];
    (name.starts_with("acopy.") && !computes.contains(&name))
        || name.starts_with(prefixes::NVVM_BARRIER)
        || name.starts_with(prefixes::NVVM_CLUSTER_OPS)
        || name == gpu::ALL_REDUCE.name
}
