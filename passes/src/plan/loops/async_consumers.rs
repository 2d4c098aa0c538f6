//! Consumers that read a slot after they are issued: `nvvm.wgmma.mma_async`
//! reading a pipelined tile through `acopy.wgmma_descriptor` (rules P14–P16).
//!
//! A wgmma reads shared memory until the `wgmma.wait_group` that covers its
//! group returns, so a slot it reads may be refilled only after that wait.
//! With the body's own `nvvm.wgmma.wait.group.sync.aligned N` after the last
//! wgmma, the groups of iterations up to k - N are complete at the end of
//! iteration k: the pass refills there, the slot of tile k - N, and keeps
//! D = S - N tiles ahead (docs/pipelining.md, "Asynchronous consumers").

use acopy_dialect::names;
use melior::ir::{attribute::IntegerAttribute, operation::OperationLike, OperationRef};

use super::{
    body_form::BodyForm,
    loop_plan::{AsyncConsumers, Broken, LoopProblem, Tile},
};
use crate::ir::query::{ancestor_in, users};
use crate::{ir, plan::alignment::memory_root};

/// The op that waits for wgmma groups, as upstream's NVVM dialect names it.
pub const WGMMA_WAIT: &str = crate::ir::op_names::nvvm::WGMMA_WAIT_GROUP.name;

/// Reads the body's wgmma consumers of the pipelined `tiles`: `None` when it
/// has none, else how many groups stay in flight; P14 when it does not wait
/// for them in the body, P15 when a descriptor leaves the iteration.
pub(crate) fn read<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    form: &BodyForm<'c, 'a>,
    tiles: &[Tile<'c, 'a>],
) -> Result<Option<AsyncConsumers>, LoopProblem<'c, 'a>> {
    let at = |op, broken| LoopProblem::rule(op, broken);
    let roots: Vec<_> = tiles.iter().map(|tile| memory_root(tile.value)).collect();
    let mut last_reader: Option<usize> = None;
    let mut found = false;
    // Descriptors at any depth: a K loop of descriptors nested in the body
    // reads the slot as one at the top level does.
    for op in &descriptors(form) {
        if ir::op_name(op) != names::WGMMA_DESCRIPTOR {
            continue;
        }
        let Ok(tile) = op.operand(0) else { continue };
        if !roots.contains(&memory_root(tile)) {
            continue;
        }
        found = true;
        let Ok(descriptor) = op.result(0) else {
            continue;
        };
        for (user, _) in users(descriptor.into()) {
            let Some(ancestor) = ancestor_in(user, form.body) else {
                return Err(at(
                    *op,
                    (
                        Broken::DescriptorEscapes,
                        p15("is used outside the loop's body"),
                    ),
                ));
            };
            if ir::is(&ancestor, ir::op_names::scf::YIELD) {
                return Err(at(
                    *op,
                    (
                        Broken::DescriptorEscapes,
                        p15("is yielded to the next iteration"),
                    ),
                ));
            }
            let position = form.top.iter().position(|top| *top == ancestor);
            last_reader = last_reader.max(position);
        }
    }
    if !found {
        return Ok(None);
    }
    let after = last_reader.map_or(form.wait_position, |position| {
        position.max(form.wait_position)
    });
    let wait = form.top[after..]
        .iter()
        .find(|op| ir::is(op, crate::ir::op_names::nvvm::WGMMA_WAIT_GROUP));
    let Some(wait) = wait else {
        return Err(at(
            loop_op,
            (
                Broken::AsyncWait,
                format!("a loop marked acopy.pipeline whose consumers read a pipelined tile with wgmma (through acopy.wgmma_descriptor) must wait for them in its body, with a {WGMMA_WAIT} N at the body's top level after the last wgmma: a wgmma reads its slot until that wait, and the pass refills the slot after it"),
            ),
        ));
    };
    let in_flight = wait
        .attribute("group")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .and_then(|value| u32::try_from(value.value()).ok())
        .unwrap_or(0);
    Ok(Some(AsyncConsumers { in_flight }))
}

/// P16: S stages leave no slot to refill while N groups read N of them.
pub(crate) fn check_stages(consumers: AsyncConsumers, stages: u32) -> Result<(), (Broken, String)> {
    if stages >= consumers.min_stages() {
        return Ok(());
    }
    Err((
        Broken::AsyncStages,
        format!(
            "the loop's body leaves {} wgmma group(s) in flight with {WGMMA_WAIT} {}, and each holds the slot it reads until it completes, so stages = {} leaves no slot to refill: use stages >= {}",
            consumers.in_flight,
            consumers.in_flight,
            stages,
            consumers.min_stages()
        ),
    ))
}

fn p15(how: &str) -> String {
    format!("a wgmma descriptor of a pipelined tile {how}: the pass moves the tile to a different slot every iteration, so a descriptor is good only in the iteration that made it")
}

/// Every `acopy.wgmma_descriptor` in the body, nested ones included, in order.
fn descriptors<'c, 'a>(form: &BodyForm<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    for op in &form.top {
        op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
            if ir::op_name(&inner) == names::WGMMA_DESCRIPTOR {
                found.push(inner.to_raw());
            }
            melior::ir::operation::WalkResult::Advance
        });
    }
    found
        .into_iter()
        // SAFETY: found by the walk in the body, which outlives the plan.
        .map(|raw| unsafe { OperationRef::from_raw(raw) })
        .collect()
}
