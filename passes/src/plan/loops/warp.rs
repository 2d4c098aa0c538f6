//! A warp-specialized loop (`producer = "warp"` or `"warpgroup"`): the block
//! it needs (P17), where it may stand (P18) and, for a producer warpgroup, the
//! chip and path (P19).
//!
//! The pass adds a producer warp (or warpgroup) after the kernel's B declared
//! threads; the producer runs what its copies and the loop's bounds need, then
//! only the copies, and leaves. The loop may also stand in one `scf.for` at the
//! kernel's top level that carries no values (a persistent kernel's loop over
//! tiles): the producer then runs its own copy of that loop, with only those
//! value computations and the copies, and the rings' phases continue from one
//! entry to the next. So the kernel's block must be known and one-dimensional
//! (the consumers keep thread ids 0..B, and wgmma's warpgroups stay aligned),
//! what the producer needs before the loop may only compute values, and the
//! rest of the code before the loop and all of it after runs on the consumers
//! alone (`super::warp_prologue` says which ops may: no barrier of the whole
//! block but `gpu.barrier`, which the pass turns into a barrier of the B
//! consumers; docs/pipelining.md, "Warp specialization" and "Code only the
//! consumers run").

use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};

use super::loop_plan::PipeCopy;
pub use super::loop_plan::{WarpPlan, PRODUCER_THREADS};
use super::registers;
use super::warp_prologue::{before_the_split, computes_only, consumers_only, first_block_wide};
use super::{attr, loop_plan::Broken};
use crate::ir::op_names;
use crate::{ir, target};
use acopy_target::{Capability, Chip};

/// The most threads a block may have.
const MAX_BLOCK: u32 = 1024;

/// The loop's warp plan when it asks for a producer warp or warpgroup (P19,
/// P17, P18), and the ops before it only the consumers run. `removed` is an
/// op before the loop that the rewrite removes (the native TMA form's
/// `barrier_init`), which P18 lets stand there.
pub fn plan_for<'c, 'a>(
    (producer, keeps, release): (attr::Producer, u32, attr::Release),
    chip: Chip,
    (loop_op, function): (OperationRef<'c, 'a>, OperationRef<'c, 'a>),
    copies: &[PipeCopy<'c, 'a>],
    removed: Option<OperationRef<'c, 'a>>,
) -> Result<(Option<WarpPlan>, Vec<OperationRef<'c, 'a>>), (Broken, String)> {
    match producer {
        attr::Producer::Block => Ok((None, Vec::new())),
        attr::Producer::Warp | attr::Producer::Warpgroup => {
            let (plan, alone) = check(
                (producer, keeps, release),
                chip,
                (loop_op, function),
                copies,
                removed,
            )?;
            Ok((Some(plan), alone))
        }
    }
}

/// P19 (a producer warpgroup), P17, then P18, for `loop_op` in the kernel
/// `function`: the warp plan, and the ops before the loop that only the
/// consumers run (`super::warp_prologue`). A producer warpgroup's threads
/// keep `keeps` registers (the loop's `producer_registers`, else the
/// default); its consumers release a warp at a time when `release` asks and
/// the chip can.
pub fn check<'c, 'a>(
    (producer, keeps, release): (attr::Producer, u32, attr::Release),
    chip: Chip,
    (loop_op, function): (OperationRef<'c, 'a>, OperationRef<'c, 'a>),
    copies: &[PipeCopy<'c, 'a>],
    removed: Option<OperationRef<'c, 'a>>,
) -> Result<(WarpPlan, Vec<OperationRef<'c, 'a>>), (Broken, String)> {
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
    let tma = chip.copy_path() == acopy_target::CopyPath::Tma;
    let alone = place((loop_op, function), copies, removed, tma)
        .map_err(|why| (Broken::WarpPlace, p18(producer, &why)))?;
    let registers = if group {
        registers::split(consumers, blocks_per_sm(function), keeps)
    } else {
        None
    };
    let plan = WarpPlan {
        consumers,
        producers,
        registers,
        // A chip without counted arrivals keeps one arrive a thread: the
        // request is a schedule choice, not an op the chip must run.
        warp_release: release == attr::Release::Warp && chip.has(Capability::MbarrierArriveCount),
    };
    Ok((plan, alone))
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
        "a loop marked acopy.pipeline with producer = \"{word}\" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer {word} runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but {why}"
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

fn place<'c, 'a>(
    (loop_op, function): (OperationRef<'c, 'a>, OperationRef<'c, 'a>),
    copies: &[PipeCopy<'c, 'a>],
    removed: Option<OperationRef<'c, 'a>>,
    tma: bool,
) -> Result<Vec<OperationRef<'c, 'a>>, String> {
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
    // Before the loop, the producer runs what its copies need, and the
    // consumers alone what it does not (warp_prologue.rs).
    let alone = consumers_only(loop_op, copies, removed, (outer.is_none(), tma))?;
    consumers_after(loop_op, tma)?;
    if let Some(outer) = outer {
        // At the kernel's top level every thread runs the code before the
        // persistent loop, so it may also load shared memory (a tile every
        // iteration reads) and wait for it.
        computes_before(outer, removed, true)?;
        consumers_after(outer, tma)?;
    }
    Ok(alone)
}

/// The ops before `op` in its block only compute values, or are `removed`,
/// or (with `loads`) are what every thread runs before the split
/// (`before_the_split`): the first one that does more is named.
fn computes_before(
    op: OperationRef,
    removed: Option<OperationRef>,
    loads: bool,
) -> Result<(), String> {
    let mut current = op.block().and_then(|block| block.first_operation());
    while let Some(before) = current.filter(|before| *before != op) {
        let name = ir::op_name(&before);
        let kept = Some(before) != removed;
        let allowed = computes_only(&name) || (loads && before_the_split(&name));
        if kept && (before.region_count() > 0 || !allowed) {
            return Err(format!("'{name}' comes before it"));
        }
        current = before.next_in_block();
    }
    Ok(())
}

/// The ops after `op` in its block need no thread outside the consumers.
fn consumers_after(op: OperationRef, tma: bool) -> Result<(), String> {
    let mut after = op.next_in_block();
    while let Some(op) = after {
        if let Some(name) = first_block_wide(op, tma) {
            return Err(format!("'{name}' comes after it"));
        }
        after = op.next_in_block();
    }
    Ok(())
}
