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
use melior::ir::{attribute::IntegerAttribute, operation::OperationLike, BlockRef, OperationRef};

use super::{
    body_form::BodyForm,
    loop_plan::{AsyncConsumers, Broken, LoopProblem, Tile},
};
use crate::ir::query::{ancestor_in, top_level_ops, users};
use crate::{ir, plan::alignment::memory_root};

/// The op that waits for wgmma groups, as upstream's NVVM dialect names it.
pub const WGMMA_WAIT: &str = crate::ir::op_names::nvvm::WGMMA_WAIT_GROUP.name;

/// Reads the body's wgmma consumers of the pipelined `tiles`: `None` when it
/// has none, else how many groups stay in flight and, with one, the earlier
/// wait at which tile k - 1 is complete ([`early_release`]); P14 when it does
/// not wait for them in the body, P15 when a descriptor leaves the iteration.
pub(crate) fn read<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    form: &BodyForm<'c, 'a>,
    tiles: &[Tile<'c, 'a>],
) -> Result<Option<(AsyncConsumers, Option<OperationRef<'c, 'a>>)>, LoopProblem<'c, 'a>> {
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
    let Some(in_flight) = in_flight_at_end(&form.top[after..]) else {
        return Err(at(
            loop_op,
            (
                Broken::AsyncWait,
                format!("a loop marked acopy.pipeline whose consumers read a pipelined tile with wgmma (through acopy.wgmma_descriptor) must wait for them in its body, with a {WGMMA_WAIT} N at the body's top level after the last wgmma: a wgmma reads its slot until that wait, and the pass refills the slot after it"),
            ),
        ));
    };
    let early = match in_flight {
        1 => early_release(form.body).map(|(wait, _)| wait),
        _ => None,
    };
    Ok(Some((AsyncConsumers { in_flight }, early)))
}

/// Where the consumers of a loop whose body leaves one group in flight may
/// release tile k - 1's slot in iteration k before the body's end: the first
/// top-level `wgmma.wait_group M` before which the body commits at least M
/// groups of its own (counting top-level commits only, fewer than or as many
/// as run), when another commit follows it. Every group of iteration k - 1
/// is complete there, and tile k - 1 is read in no other iteration (P15). An
/// overlapped attention body waits so for its S(k+1) before P V(k) is issued:
/// P V(k - 1), which read tile k - 1, is done half an iteration earlier than
/// the body's end.
pub(crate) fn early_release<'c, 'a>(body: BlockRef<'c, 'a>) -> Option<(OperationRef<'c, 'a>, u32)> {
    let top = top_level_ops(body);
    let commit = |op: &OperationRef| ir::is(op, crate::ir::op_names::nvvm::WGMMA_COMMIT_GROUP);
    let mut committed = 0u32;
    for (position, op) in top.iter().enumerate() {
        if commit(op) {
            committed += 1;
            continue;
        }
        if !ir::is(op, crate::ir::op_names::nvvm::WGMMA_WAIT_GROUP) {
            continue;
        }
        let pending = group(op)?;
        if pending <= committed {
            // A commit after it (the wait itself is none).
            return top[position..].iter().any(commit).then_some((*op, pending));
        }
    }
    None
}

/// How many groups that read a slot can be in flight at the body's end,
/// given `rest`: the body's top-level ops from the last one that reads a
/// pipelined tile. A `wgmma.wait_group N` in `rest` leaves the newest N
/// groups in flight; k top-level commits between the reader and the wait
/// close its group and k - 1 later ones, which read no slot, so at most
/// N - (k - 1) of the readers' groups stay in flight after it. The bound is
/// the least over the waits: a body that waits with wait_group 1 for its
/// first group and later with wait_group 0 for the second leaves none in
/// flight (FlashAttention-3's order: S(j+1) and P V(j) issued together, the
/// softmax between the two waits). Commits nested in other ops are not
/// counted: more commits only make the readers older, so the bound holds.
/// `None` when `rest` has no wait.
fn in_flight_at_end(rest: &[OperationRef]) -> Option<u32> {
    let mut commits = 0u32;
    let mut bound: Option<u32> = None;
    for op in rest {
        if ir::is(op, crate::ir::op_names::nvvm::WGMMA_COMMIT_GROUP) {
            commits += 1;
        } else if let Some(pending) = ir::is(op, crate::ir::op_names::nvvm::WGMMA_WAIT_GROUP)
            .then(|| group(op))
            .flatten()
        {
            let here = pending.saturating_sub(commits.saturating_sub(1));
            bound = Some(bound.map_or(here, |least| least.min(here)));
        }
    }
    bound
}

/// The `group` of a `wgmma.wait_group`: the groups it leaves in flight.
pub(crate) fn group(wait: &OperationRef) -> Option<u32> {
    wait.attribute("group")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .and_then(|value| u32::try_from(value.value()).ok())
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

#[cfg(test)]
mod tests {
    use super::{early_release, in_flight_at_end};
    use crate::{context::create_context, ir};
    use melior::ir::{operation::OperationLike, BlockRef, Module, OperationRef, RegionLike};

    /// A function with one loop whose body is `ops`: commits `c`, waits `wN`,
    /// other ops `x`.
    fn loop_text(ops: &[&str]) -> String {
        let body: String = ops
            .iter()
            .enumerate()
            .map(|(at, op)| match *op {
                "c" => "      nvvm.wgmma.commit.group.sync.aligned\n".to_string(),
                "x" => format!("      %x{at} = arith.addi %i, %i : index\n"),
                wait => format!("      nvvm.wgmma.wait.group.sync.aligned {}\n", &wait[1..]),
            })
            .collect();
        format!(
            "func.func @f(%n: index) {{\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.for %i = %c0 to %n step %c1 {{\n{body}  }}\n  return\n}}"
        )
    }

    /// The early release of a loop whose body is `ops` (commits `c`, waits
    /// `wN`, other ops `x`): the wait's position among the body's waits and
    /// its group.
    fn early(ops: &[&str]) -> Option<(usize, u32)> {
        on_loop(ops, |for_op, block| {
            let waits = ir::query::ops_where(for_op, |op| {
                ir::is(&op, ir::op_names::nvvm::WGMMA_WAIT_GROUP)
            });
            early_release(block).map(|(wait, group)| {
                let index = waits.iter().position(|candidate| *candidate == wait);
                (index.expect("one of the body's waits"), group)
            })
        })
    }

    /// `f` of the `scf.for` of [`loop_text`]`(ops)` and its body.
    fn on_loop<R>(
        ops: &[&str],
        f: impl for<'c, 'a> FnOnce(OperationRef<'c, 'a>, BlockRef<'c, 'a>) -> Option<R>,
    ) -> Option<R> {
        let text = loop_text(ops);
        let context = create_context().expect("the acopy dialect loads");
        let module = Module::parse(&context, &text).expect("the test input parses");
        let loops = ir::query::ops_where(module.as_operation(), |op| {
            ir::is(&op, ir::op_names::scf::FOR)
        });
        let block = loops[0].region(0).ok()?.first_block()?;
        f(loops[0], block)
    }

    /// The readers' groups in flight at the end of a body `ops` (as in
    /// `early`) whose first op is the last one that reads a slot.
    fn at_end(ops: &[&str]) -> Option<u32> {
        on_loop(ops, |_, block| {
            in_flight_at_end(&ir::query::top_level_ops(block))
        })
    }

    #[test]
    fn the_least_bound_over_the_waits_after_the_last_reader() {
        // FlashAttention-3's order: S(j+1) and P V(j) committed before, the
        // softmax between wait_group 1 and wait_group 0.
        assert_eq!(at_end(&["x", "c", "w1", "x", "w0"]), Some(0));
        // A GEMM's K loop leaving its group in flight.
        assert_eq!(at_end(&["x", "c", "w1"]), Some(1));
        // The reader's group and a later one: wait_group 1 leaves the later.
        assert_eq!(at_end(&["x", "c", "c", "w1"]), Some(0));
        assert_eq!(at_end(&["x", "c", "w1", "c", "w1"]), Some(0));
        // Not committed before the wait: its group counts in full.
        assert_eq!(at_end(&["x", "w1"]), Some(1));
        assert_eq!(at_end(&["x", "c", "w2", "x", "w1"]), Some(1));
        assert_eq!(at_end(&["x", "c", "w2", "x"]), Some(2));
        assert_eq!(at_end(&["x", "c", "x"]), None);
    }

    #[test]
    fn the_first_wait_that_completes_the_last_iterations_groups_with_a_commit_after_it() {
        // Overlapped attention: S(k+1) committed and waited (with P V(k-1)),
        // then P V(k) committed and left in flight.
        assert_eq!(early(&["c", "x", "w0", "x", "c", "w1"]), Some((0, 0)));
        // Two of its own commits before a wait_group 1: the other in flight is one.
        assert_eq!(early(&["c", "c", "w1", "c", "w1"]), Some((0, 1)));
    }

    #[test]
    fn no_earlier_release_without_such_a_wait_or_a_commit_after_it() {
        // A GEMM's K loop: its one wait is the body's last.
        assert_eq!(early(&["c", "w1"]), None);
        // A wait of more groups than the body committed before it may leave
        // the last iteration's in flight.
        assert_eq!(early(&["w1", "c", "w1"]), None);
        assert_eq!(early(&["c", "w2", "c", "w1"]), None);
        assert_eq!(early(&["x", "w0", "c", "w1"]), Some((0, 0)));
    }
}
