//! `acopy-verify`: the documented errors (docs/verification.md), checked before lowering.
//!
//! **Needs**: any IR that parses. acopy ops are expected inside a `gpu.module`
//! whose `targets` hold an `#nvvm.target<chip = "sm_XX">`, unless the `chip`
//! option overrides it.
//!
//! **Guarantees**: every acopy op is checked, and each op that the chip cannot
//! do gets exactly one error at its location; checking goes on after a bad op.
//! In order, an op gets:
//! 1. its view error, when the op is malformed (bad attribute value, wrong
//!    memory space, ...: `acopy_dialect`'s typed views);
//! 2. a target error, when its chip cannot be determined (no `#nvvm.target`,
//!    one without `chip`, an unknown or pre-sm_80 chip, several different
//!    chips, or a cluster / block size below 1). It is reported at **each**
//!    acopy op of the gpu.module, since the contract (docs/dialect.md) says "a copy whose chip cannot
//!    be determined gets an error"; a gpu.module without acopy ops is not
//!    acopy's business and is never reported;
//! 3. the first rule of [`rules::RULES`] that applies.
//!
//! The IR is never changed. The pass fails when any error was emitted.
//!
//! **Options** ([`PassOptions`]): `chip=sm_XX` overrides every gpu.module's
//! chip; `fallback=true` turns on fallback mode: E1–E5 (on cp.async chips),
//! A18 (on TMA chips) and T2 and T4 (a wide tile, split as docs/dialect.md's
//! "Wide tiles" says, or refused by A33) are waived for an op whenever
//! [`rules::Fallback::keeps`] says its semantics can be kept exactly, and
//! reported as in strict mode otherwise. Each waived rule of a kept op gets
//! a remark at the op ("fallback mode keeps this op on sm_XX: …"), an MLIR
//! diagnostic (through acopy-dialect's C++ shim, as the C API only emits
//! errors).
//!
//! The rules read the facts of `crate::plan` (`copy_facts`, `tma_facts`,
//! `shape`, `chunk`, `cp_async::window_dims`, `maps`), the same the lowering's
//! plans are built from. `acopy-lower` calls [`verify_operation`] as its
//! first step.

mod facts;
mod memory_spaces;
pub mod rules;
mod tensor_maps;

#[cfg(test)]
mod tests;

use acopy_dialect::{
    diagnostics::{emit_remark, emit_warning},
    AcopyOp,
};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

pub use crate::plan::copy_facts::CopyFacts;
use crate::plan::loops::{KeptPlans, LoopProblem};
pub use facts::Ctx;
pub use rules::{Check, Rule, Scope, RULES};

use crate::{
    external::{external_pass, PassId, PassResult},
    target, PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str = "Reject acopy ops the target chip cannot do, with the documented errors";

static ID: PassId = PassId;

/// Creates the `acopy-verify` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(&ID, "acopy-verify", SUMMARY, options, &[], verify_operation)
}

/// An op's one error: the rule that fired (`None` for a view or target
/// error) and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Option<&'static str>,
    pub message: String,
}

/// Checks every acopy op inside `operation` (and `operation` itself), emits
/// one error diagnostic at each op that fails, and returns `Err` if any did.
///
/// The `Err` carries nothing: the errors are the diagnostics already emitted
/// through the context, as with an MLIR pass.
#[allow(clippy::result_unit_err)]
pub fn verify_operation(operation: OperationRef, options: &PassOptions) -> PassResult {
    let chips = target::ModuleChips::resolve(operation, options);
    verify_with(
        operation,
        options,
        &chips,
        Voice::Everything,
        Keep::default(),
    )
}

/// [`verify_operation`] with the chips a caller already resolved
/// (`acopy-lower` resolves them once for all its steps), keeping in `kept`
/// the plan of each marked loop it accepts, for the pipeliner to rewrite
/// without analysing the loop again, and in `views` the view of each acopy op,
/// in walk order, for the lowering to read the op from.
#[allow(clippy::result_unit_err)]
pub fn verify_operation_on<'c, 'a>(
    operation: OperationRef<'c, 'a>,
    options: &PassOptions,
    chips: &target::ModuleChips,
    kept: &mut KeptPlans<'c, 'a>,
    views: &mut Vec<AcopyOp<'c, 'a>>,
) -> PassResult {
    let keep = Keep {
        plans: Some(kept),
        views: Some(views),
    };
    verify_with(operation, options, chips, Voice::Everything, keep)
}

/// What a verification walk keeps for the lowering.
#[derive(Default)]
struct Keep<'k, 'c, 'a> {
    /// The plan of each marked loop accepted.
    plans: Option<&'k mut KeptPlans<'c, 'a>>,
    /// The view of each acopy op, in walk order.
    views: Option<&'k mut Vec<AcopyOp<'c, 'a>>>,
}

/// Checks the IR `acopy-lower`'s pipeliner wrote from IR that
/// [`verify_operation`] already accepted. The pipeliner copies each copy of a
/// marked loop into the prologue and the steady state, with the original's
/// location, so a copy the user wrote once exists several times here: its
/// fallback remarks and warnings were given on the original, and an error
/// (which the accepted original makes an internal failure of the pipeliner)
/// is given once per location and text, so each op the user wrote reports
/// once (docs/verification.md, "one error per failing op").
#[allow(clippy::result_unit_err)]
pub fn verify_pipelined(
    operation: OperationRef,
    options: &PassOptions,
    chips: &target::ModuleChips,
) -> PassResult {
    verify_with(
        operation,
        options,
        chips,
        Voice::ErrorsOnce,
        Keep::default(),
    )
}

/// What a verification run says besides errors.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Voice {
    /// Errors, fallback remarks and warnings.
    Everything,
    /// Errors only, each (location, text) once.
    ErrorsOnce,
}

fn verify_with<'c, 'a>(
    operation: OperationRef<'c, 'a>,
    options: &PassOptions,
    chips: &target::ModuleChips,
    voice: Voice,
    mut keep: Keep<'_, 'c, 'a>,
) -> PassResult {
    let _launches = crate::plan::launches::scope();
    let _tensor_maps = tensor_maps::scope();
    let _memo = crate::target::run_scope();
    let mut errors = 0usize;
    let mut given: Vec<(String, String)> = Vec::new();
    // The walk reads the IR only: each op holding copies is asked once.
    let mut targets = target::by_parent::TargetsByParent::new(chips);
    operation.walk(WalkOrder::PreOrder, |op| {
        let remarks = voice == Voice::Everything;
        // SAFETY: the walk found `op` under the operation being verified,
        // which lives for 'a (a kept view holds it); the walk's reference
        // only carries a shorter lifetime.
        let kept: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let finding = match AcopyOp::from_op(kept) {
            None => None,
            Some(Err(error)) => Some(Finding {
                rule: None,
                message: error.to_string(),
            }),
            Some(Ok(view)) => {
                let finding = check_view(&view, &mut targets, options, remarks);
                if let Some(views) = keep.views.as_deref_mut() {
                    views.push(view);
                }
                finding
            }
        };
        if let Some(finding) = finding {
            let key = (op.location().to_string(), finding.message.clone());
            if voice == Voice::Everything || !given.contains(&key) {
                crate::diagnostics::emit_rule_error(op.location(), finding.rule, &finding.message);
                given.push(key);
            }
            errors += 1;
        }
        errors += check_marked(op, chips, options, keep.plans.as_deref_mut());
        if let Some(message) = memory_spaces::unmappable(op) {
            let key = (op.location().to_string(), message.clone());
            if voice == Voice::Everything || !given.contains(&key) {
                acopy_dialect::diagnostics::emit_error(op.location(), &message);
                given.push(key);
            }
            errors += 1;
        }
        if voice == Voice::Everything {
            for (copy, message) in crate::plan::loops::war::check(op) {
                emit_warning(copy.location(), &message);
            }
        }
        WalkResult::Advance
    });
    if errors == 0 {
        Ok(())
    } else {
        Err(())
    }
}

/// A loop marked `acopy.pipeline` (or another op carrying it) that the
/// pipeliner cannot take gets its error, the table's row (P1–P18) for the
/// stage at which the loop analysis refused it; returns the count. The plan
/// of a loop it accepts goes into `kept`, when given.
fn check_marked<'c, 'a>(
    op: OperationRef,
    chips: &target::ModuleChips,
    options: &PassOptions,
    kept: Option<&mut KeptPlans<'c, 'a>>,
) -> usize {
    if crate::plan::loops::attr::request(op).is_none() {
        return 0;
    }
    // SAFETY: the walk found `op` under the operation being verified, which
    // lives for 'a; the walk's reference only carries a shorter lifetime.
    let op: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
    match crate::plan::loops::analysis::analyze(op, chips, options) {
        Ok(plan) => {
            if let Some(kept) = kept {
                kept.keep(plan);
            }
            0
        }
        Err(problem) => {
            report_loop_problem(&problem);
            1
        }
    }
}

/// Reports why a marked loop cannot be pipelined, as an error at the op the
/// problem names, with the id of the rule it breaks.
pub fn report_loop_problem(problem: &LoopProblem) {
    let rule = problem
        .broken
        .and_then(rules::loop_rule)
        .map(|rule| rule.id);
    crate::diagnostics::emit_rule_error(problem.op.location(), rule, &problem.message);
}

/// Whether `op` is a copy or wait the pipeliner owns: at the top level of a
/// loop marked `acopy.pipeline`, where E6 and E7 do not apply (the pass turns
/// it into a TMA copy with a barrier on sm_90 and newer).
fn owned_by_pipeliner(op: OperationRef) -> bool {
    op.parent_operation().is_some_and(|parent| {
        crate::ir::is(&parent, crate::ir::op_names::scf::FOR)
            && crate::plan::loops::attr::request(parent).is_some()
    })
}

/// The error of one op, if it is an acopy op that fails verification;
/// `chips` holds the chip of each gpu.module of the run.
pub fn check_op(
    op: OperationRef,
    chips: &target::ModuleChips,
    options: &PassOptions,
) -> Option<Finding> {
    check_op_with(
        op,
        &mut target::by_parent::TargetsByParent::new(chips),
        options,
        true,
    )
}

/// [`check_op`], with the fallback remarks of a kept op given or not.
fn check_op_with(
    op: OperationRef,
    targets: &mut target::by_parent::TargetsByParent,
    options: &PassOptions,
    remarks: bool,
) -> Option<Finding> {
    match AcopyOp::from_op(op)? {
        Ok(view) => check_view(&view, targets, options, remarks),
        Err(error) => Some(Finding {
            rule: None,
            message: error.to_string(),
        }),
    }
}

/// The error of the acopy op `view` shows, if it fails verification.
fn check_view(
    view: &AcopyOp,
    targets: &mut target::by_parent::TargetsByParent,
    options: &PassOptions,
    remarks: bool,
) -> Option<Finding> {
    let op = view.op();
    let target = match targets.target(op) {
        Ok(target) => target,
        Err(problem) => {
            return Some(Finding {
                rule: None,
                message: problem.to_string(),
            })
        }
    };
    let ctx = Ctx::new(view, target, options);
    let rule = first_failure_with(&ctx, remarks)?;
    let Check::Op { message, .. } = rule.check else {
        return None;
    };
    Some(Finding {
        rule: Some(rule.id),
        message: message(&ctx),
    })
}

/// The first rule of the table that `ctx`'s op breaks, after fallback waivers.
/// An op that fallback mode keeps gets a remark at it for each waived rule
/// (one that still fails gets its error alone).
pub fn first_failure(ctx: &Ctx) -> Option<&'static Rule> {
    first_failure_with(ctx, true)
}

/// [`first_failure`], with the remarks of a kept op given or not.
fn first_failure_with(ctx: &Ctx, remarks: bool) -> Option<&'static Rule> {
    let op_name = ctx.view.op().name();
    let op_name = op_name.as_string_ref().as_str().ok()?;
    let path = ctx.path();
    // Waivable rules say themselves which path they are on (E1–E5 on
    // cp.async chips, A18 on TMA chips); fallback mode applies to both.
    let fallback = ctx.options.fallback;
    let mut kept = Vec::new();
    let owned = owned_by_pipeliner(ctx.view.op());
    let failure = RULES
        .iter()
        .filter(|rule| rule.applies(op_name, path))
        .filter(|rule| !(owned && matches!(rule.id, "E6" | "E7")))
        .find(|rule| {
            let Check::Op { condition, .. } = rule.check else {
                return false;
            };
            if !condition(ctx) {
                return false;
            }
            match &rule.fallback {
                Some(waiver) if fallback && (waiver.keeps)(ctx) => {
                    let detail = waiver.detail.and_then(|detail| detail(ctx));
                    let remark = match detail {
                        Some(detail) => format!("{}: {detail}", waiver.lowering),
                        None => waiver.lowering.to_string(),
                    };
                    // T2 and T4 both waived for one wide copy say the same.
                    if !kept.contains(&remark) {
                        kept.push(remark);
                    }
                    false
                }
                _ => true,
            }
        });
    if failure.is_none() && remarks {
        for lowering in kept {
            emit_remark(
                ctx.view.op().location(),
                &format!(
                    "fallback mode keeps this op on {}: {lowering}",
                    ctx.target.chip
                ),
            );
        }
    }
    failure
}
