//! `acopy-pipeline`: multi-stage pipelining of marked `scf.for` loops, acopy
//! to acopy.
//!
//! **Needs**: loops marked `{acopy.pipeline = {stages = S : i64}}` whose body
//! is, at its top level, `acopy.copy_gmem_to_smem` ops (no barrier, no
//! predicate) into workgroup attributions of the kernel, then one
//! `acopy.wait_gmem_to_smem {pending = 0}`, then the consumers of the tiles
//! (docs/dialect.md, "Pipelined loops"); on TMA chips also the native form,
//! copies with a barrier initialised before the loop and one `barrier_wait`
//! (`crate::plan::loops::native`). [`analysis::analyze`] checks this, and `acopy-verify`
//! reports the same findings (rules P1–P18).
//!
//! **Guarantees**: each marked loop is rewritten, or gets one located error
//! and the pass fails; none is left unpipelined in silence. A rewritten loop
//! computes what the loop means when its iterations run one after another:
//! each tile gets S padded, aligned slots; up to S-1 later iterations' copies
//! are in flight while one slot is consumed; refills past the last trip are
//! guarded; every consumer has left a slot before it is refilled (a
//! `gpu.barrier`, and on TMA a `fence.proxy.async` before it; with wgmma
//! consumers that stay in flight, after the body's `wgmma.wait_group`). The
//! iteration number, slot and parity are carried by the loop: no division or
//! switch runs per iteration. On cp.async chips the wait counts commit groups
//! with one constant (a skipped refill commits empty groups); on TMA chips each
//! slot has an mbarrier whose parity is `(n / S) & 1` for the n-th tile the
//! kernel has issued, a count kept in shared memory across entries of the
//! loop. `stages = "auto"` picks S from the chip and the tiles. A static trip
//! count below S clamps S. Each rewritten loop gets one remark
//! at it saying what was chosen (stages after the clamp, slots, path, wait
//! counts or barriers), with that data attached ([`report`]; it reaches
//! `acopy::compile` as `Diagnostic::detail`). Slots that would pass
//! 48 KiB of static shared memory go to `gpu.dynamic_shared_memory` instead;
//! the kernel then carries `acopy.dynamic_shared_memory = N` and each host
//! `gpu.launch_func` of it passes at least N bytes ([`launch_sizes`]). The loop then carries
//! `acopy.pipelined = {stages = S}` instead of `acopy.pipeline`. With
//! `producer = "warp"` the kernel's declared block grows by a producer warp
//! that alone issues the copies (`acopy.issuers` on its region), on full and
//! empty mbarrier rings; the consumers wait on full, release on empty (after
//! their wgmma completed), and their `gpu.barrier`s become barriers of the
//! consumers only. Copies with `collective_axes` over more than one CTA
//! (TMA multicast) keep it; their slots are written by peer CTAs, so each
//! refill passes a cluster barrier instead of a block barrier and one follows
//! the loop; the analysis has proved that each slot's barrier expects the
//! bytes that land in it. The output is acopy IR that `acopy-verify` accepts
//! (docs/pipelining.md).
//!
//! **Options** ([`PassOptions`]): `chip` overrides the gpu.module's chip;
//! `max-stages` (default 8) bounds `stages`.
//!
//! **Layout**: what a marked loop is (the request, the checks, the loop plan,
//! the slots and the budget, the write-after-read warning for unmarked loops)
//! is worked out in `crate::plan::loops`; here `block_schedule` works out a
//! loop's schedule as numbers (which tile issues on which trip, the waits'
//! counts, the barriers), `block_play` plays it out before anything is built,
//! and `rewrite` turns the loop plan into
//! multi-buffered IR from it (`warp_specialized` when a producer warp is asked
//! for: `warp_producer` its producer's region, `warp_rings` the full and empty
//! rings, `rings` that schedule as numbers with its deadlock check), both on
//! `slot_layout` (the slots), `loop_body` (copies issued into a slot, consumers
//! redirected, the originals erased) and `shared_globals` (the mbarriers'
//! globals); `report` gives its remark from what the rewrite
//! chose, and [`launch_sizes`] passes the dynamic shared bytes at each launch.
//! Every op is built through the passes' one builder, `crate::ir::build`
//! (`Builder::in_place`: the rewrite's ops are not shared between copies).

mod block_play;
mod block_schedule;
pub mod launch_sizes;
mod loop_body;
mod report;
mod rewrite;
mod rings;
mod shared_globals;
mod slot_layout;
mod warp_producer;
mod warp_rings;
mod warp_specialized;

use crate::plan::loops::{analysis, attr, KeptPlans};

use acopy_dialect::diagnostics::emit_error;
use melior::ir::{operation::OperationLike, OperationRef};

use crate::{
    external::{external_pass, PassId, PassResult},
    PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str =
    "Pipeline loops marked acopy.pipeline: S slots per tile, copies issued S-1 iterations ahead";

static ID: PassId = PassId;

/// Creates the `acopy-pipeline` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    use melior::dialect::DialectHandle;
    let builds = [
        DialectHandle::arith(),
        DialectHandle::gpu(),
        DialectHandle::memref(),
        DialectHandle::scf(),
        crate::ir::nvvm_dialect(),
    ];
    external_pass(&ID, "acopy-pipeline", SUMMARY, options, &builds, run)
}

fn run(operation: OperationRef, options: &PassOptions) -> PassResult {
    pipeline_operation(operation, options)
}

/// The ops under `operation` that carry `acopy.pipeline`, outermost first.
pub fn marked_ops<'c, 'a>(operation: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    crate::ir::query::ops_where(operation, |op| attr::request(op).is_some())
}

/// Pipelines every marked loop under `operation`; each one that cannot be
/// gets its error, and the result is `Err` if any did. `acopy-lower` calls
/// this first.
#[allow(clippy::result_unit_err)]
pub fn pipeline_operation(operation: OperationRef, options: &PassOptions) -> PassResult {
    let chips = crate::target::ModuleChips::resolve(operation, options);
    // Check them all first: a rewrite changes tile types other loops' checks read.
    let mut failed = false;
    let mut kept = KeptPlans::default();
    for op in &marked_ops(operation) {
        match analysis::analyze(*op, &chips, options) {
            Ok(plan) => kept.keep(plan),
            Err(finding) => {
                crate::verify::report_loop_problem(&finding);
                failed = true;
            }
        }
    }
    if failed {
        return Err(());
    }
    pipeline_verified(operation, options, &chips, kept)
}

/// Pipelines every marked loop under `operation`, which verification has
/// accepted: `acopy-lower`'s step, with the chips it resolved once. A loop
/// whose plan verification kept is rewritten from it; one whose kernel an
/// earlier rewrite changed, or whose module it gave a global, is analysed
/// again on the rewritten IR (`crate::plan::loops::kept_plans`).
#[allow(clippy::result_unit_err)]
pub fn pipeline_verified<'c, 'a>(
    operation: OperationRef<'c, 'a>,
    options: &PassOptions,
    chips: &crate::target::ModuleChips,
    mut kept: KeptPlans<'c, 'a>,
) -> PassResult {
    let marked = marked_ops(operation);
    let mut failed = false;
    for (serial, op) in marked.iter().enumerate() {
        // Nested marked loops are refused by P4 (a copy nested in the body).
        let plan = match kept
            .take(*op)
            .map_or_else(|| analysis::analyze(*op, chips, options), Ok)
        {
            Ok(plan) => plan,
            Err(finding) => {
                crate::verify::report_loop_problem(&finding);
                failed = true;
                continue;
            }
        };
        // The rewrite replaces the loop op (its counters become iter_args):
        // only its location is used after.
        let location = op.location();
        let rewriting = kept.rewriting(*op);
        let rewritten = crate::ir::with_context(op, |context| {
            let chosen = match plan.warp {
                Some(warp) => warp_specialized::rewrite(context, &plan, warp, serial)?,
                None => rewrite::rewrite(context, &plan, serial)?,
            };
            crate::diagnostics::emit_detail(
                context,
                location,
                &crate::diagnostics::Detail::Pipelined(report::report(&plan, &chosen)),
            );
            Ok::<(), String>(())
        });
        kept.rewritten(rewriting);
        if let Err(message) = rewritten {
            emit_error(location, &message);
            failed = true;
        }
    }
    if !failed && !marked.is_empty() {
        if let Err(message) = launch_sizes::set_launch_sizes(operation) {
            emit_error(operation.location(), &message);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}
