//! `acopy-lower`: acopy ops to NVVM, with cp.async or TMA chosen by the chip.
//!
//! **Needs**: acopy ops inside `gpu.func`s (or any function) whose chip
//! resolves (docs/dialect.md, "Target": the enclosing `gpu.module`'s `#nvvm.target`, or the
//! `chip` option). The ops must pass verification; the pass verifies first.
//!
//! **Guarantees**: on success no acopy op remains and the IR verifies; each
//! `gpu.module` that held acopy ops gets `targets = [#nvvm.target<chip = …,
//! features = "+ptxNN">]` for the chip it was lowered for (the `chip` option
//! included), so upstream passes such as `gpu-module-to-binary` compile it for
//! that chip with a PTX ISA the NVPTX backend accepts. Each op
//! is replaced, in place, by NVVM, `gpu`, `scf`, `arith`, `memref` and `llvm`
//! ops that the upstream pipeline (`emit`) takes to LLVM IR and PTX. Only
//! instructions the chip has are emitted: cp.async, mbarrier and test_wait on
//! sm_80..sm_89; TMA, try_wait and cluster fences on sm_90 and newer. An op
//! that cannot be lowered gets an error at its location and the pass fails;
//! it never produces IR for the wrong chip. After the ops are lowered, MLIR's
//! CSE runs on each function that held one, so values every copy computes
//! alike (thread index, pointer casts, constants) are computed once.
//!
//! **Options** ([`PassOptions`]): `chip` overrides every gpu.module's chip;
//! `fallback` lets cp.async take predicates, barriers and single-CTA
//! collective attributes (see [`cp_async`]).
//!
//! Layout: [`build`] emits ops before an anchor op, [`memref`] reads memref
//! layouts and proves alignment, [`alignment`] raises the alignment of shared
//! buffers, [`chunk`] plans a copy's rows and chunk size
//! (pure), then one file per path: [`cp_async`], [`tma`], and [`barrier`] for
//! both.

mod alignment;
mod barrier;
mod build;
pub(crate) mod chunk;
mod cp_async;
mod memref;
pub(crate) mod tma;

use acopy_dialect::{diagnostics::emit_error, AcopyOp};
use acopy_target::{Chip, CopyPath};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use crate::{
    external::{external_pass, PassId, PassResult},
    target, PassOptions,
};
use build::Builder;

/// The pass's `--help` line.
pub const SUMMARY: &str = "Lower acopy ops to NVVM: cp.async below sm_90, TMA on sm_90 and newer";

static ID: PassId = PassId;

/// Creates the `acopy-lower` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(&ID, "acopy-lower", SUMMARY, options, run)
}

fn run(operation: OperationRef, options: &PassOptions) -> PassResult {
    let _launches = tma::launches::Scope::enter();
    let _memo = crate::run_cache::Scope::enter();
    // Verification comes first (docs/verification.md): the lowerings rely on it.
    crate::verify::verify_operation(operation, options)?;
    let mut raw_ops = Vec::new();
    operation.walk(WalkOrder::PreOrder, |op| {
        if AcopyOp::from_op(op).is_some() {
            raw_ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let context_ref = operation.context();
    // SAFETY: `context_ref` lives until the end of this function, and every
    // builder, type and attribute made from `context` is used only inside it.
    let context = unsafe { context_ref.to_ref() };
    let mut failed = false;
    let mut modules = Vec::new();
    let mut functions = Vec::new();
    let mut seen_functions = std::collections::HashSet::new();
    for raw in raw_ops {
        // SAFETY: the walk found these ops under `operation`, which the pass
        // holds; lowering one never erases another (acopy ops have no regions).
        let op = unsafe { OperationRef::from_raw(raw) };
        match lower_op(context, op, options) {
            Ok(chip) => {
                if let Some(function) = top_level_function(op) {
                    if seen_functions.insert(function.to_raw().ptr) {
                        functions.push(function.to_raw());
                    }
                }
                if let Some(module) = target::enclosing(op, "gpu.module") {
                    if !modules.iter().any(|(raw, _)| *raw == module.to_raw().ptr) {
                        modules.push((module.to_raw().ptr, chip));
                    }
                }
                build::erase(op);
            }
            Err(message) => {
                emit_error(op.location(), &message);
                failed = true;
            }
        }
    }
    if failed {
        return Err(());
    }
    share_values(context, &functions)?;
    // Each gpu.module now holds instructions for its chip: say so in its
    // target, with the PTX ISA they need (the NVPTX backend aborts on less).
    for (raw, chip) in modules {
        // SAFETY: gpu.modules are never erased by the lowering.
        let module = unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: raw }) };
        if let Err(message) = crate::emit::retarget(module, chip) {
            emit_error(module.location(), &message);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// The function ops CSE is run on: isolated from above, as a pass manager
/// needs its anchor to be.
const FUNCTION_OPS: [&str; 3] = ["gpu.func", "func.func", "llvm.func"];

/// The function op that holds `op`: its ancestor directly inside a module,
/// if that is one of [`FUNCTION_OPS`] (any other is left without CSE).
fn top_level_function<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op;
    loop {
        let parent = current.parent_operation()?;
        let name = parent.name();
        let name = name.as_string_ref().as_str().ok()?;
        if name == "gpu.module" || name == "builtin.module" {
            let function = current.name();
            let function = function.as_string_ref().as_str().ok()?;
            return (current != op && FUNCTION_OPS.contains(&function)).then_some(current);
        }
        current = parent;
    }
}

/// Runs MLIR's common-subexpression elimination on each function that held
/// acopy ops. Each op is lowered on its own, so every copy recomputed the
/// kernel's thread index arithmetic, pointer conversions and constants; CSE
/// keeps one of each (only side-effect-free ops are merged, so what the
/// kernel does is unchanged). It costs less than printing and lowering the
/// duplicates to PTX saved: 10k cp.async copies printed 16.4 MB before, 4.8 MB
/// after. Functions without acopy ops are left as they were.
fn share_values(context: &melior::Context, functions: &[mlir_sys::MlirOperation]) -> PassResult {
    let mut managers: Vec<(String, mlir_sys::MlirPassManager)> = Vec::new();
    let mut result = Ok(());
    for raw in functions {
        // SAFETY: the functions are live (lowering erases only acopy ops).
        let function = unsafe { OperationRef::from_raw(*raw) };
        let name = function.name();
        let Ok(name) = name.as_string_ref().as_str() else {
            continue;
        };
        let manager = match managers.iter().find(|(anchor, _)| anchor == name) {
            Some((_, manager)) => *manager,
            None => {
                let anchor = melior::StringRef::new(name);
                // SAFETY: the context is live; the manager owns the CSE pass
                // and is destroyed below.
                let manager = unsafe {
                    let manager = mlir_sys::mlirPassManagerCreateOnOperation(
                        context.to_raw(),
                        anchor.to_raw(),
                    );
                    mlir_sys::mlirPassManagerAddOwnedPass(
                        manager,
                        mlir_sys::mlirCreateTransformsCSE(),
                    );
                    manager
                };
                managers.push((name.to_string(), manager));
                manager
            }
        };
        // SAFETY: the function is live and is the manager's anchor op.
        let outcome = unsafe { mlir_sys::mlirPassManagerRunOnOp(manager, function.to_raw()) };
        if outcome.value == 0 {
            emit_error(
                function.location(),
                "internal error: common-subexpression elimination failed on the lowered function",
            );
            result = Err(());
        }
    }
    for (_, manager) in managers {
        // SAFETY: created above, used only above.
        unsafe { mlir_sys::mlirPassManagerDestroy(manager) };
    }
    result
}

/// Lowers one acopy op in place (the caller erases it); returns the chip.
fn lower_op<'c>(
    context: &'c melior::Context,
    op: OperationRef<'c, '_>,
    options: &PassOptions,
) -> Result<Chip, String> {
    // `run` verified first: view and target errors were reported there.
    let view = match AcopyOp::from_op(op) {
        Some(Ok(view)) => view,
        Some(Err(error)) => return Err(format!("internal error: {error}")),
        None => return Err("internal error: not an acopy op".into()),
    };
    let target =
        target::resolve(op, options).map_err(|problem| format!("internal error: {problem}"))?;
    let b = Builder::before(context, op)?;
    let path = target.chip.copy_path();
    let lowered = match view {
        AcopyOp::CopyGmemToSmem(view) => match path {
            CopyPath::CpAsync => cp_async::lower_copy(&view, &target, options, &b),
            CopyPath::Tma => tma::lower_copy(&view, &target, options, &b),
        },
        AcopyOp::WaitGmemToSmem(view) => match path {
            CopyPath::CpAsync => cp_async::lower_wait(&view, &b),
            CopyPath::Tma => Err(rejected_by_verify("wait_gmem_to_smem", &target)),
        },
        AcopyOp::BarrierInit(view) => barrier::lower_init(&view, &target, &b),
        AcopyOp::BarrierWait(view) => barrier::lower_wait(&view, &target, &b),
        AcopyOp::CopySmemToGmem(view) => match path {
            CopyPath::CpAsync => Err(rejected_by_verify("copy_smem_to_gmem", &target)),
            CopyPath::Tma => tma::lower_store(&view, &target, &b),
        },
        AcopyOp::WaitSmemToGmem(view) => match path {
            CopyPath::CpAsync => Err(rejected_by_verify("wait_smem_to_gmem", &target)),
            CopyPath::Tma => tma::lower_store_wait(&view, &b),
        },
    };
    lowered.map(|()| target.chip)
}

/// What a path cannot do is acopy-verify's to report, with the documented
/// text; `run` verifies first, so reaching this is a bug in the rules table.
pub(super) fn rejected_by_verify(what: &str, target: &target::Target) -> String {
    format!(
        "internal error: {what} reached the {} lowering for {}, which acopy-verify should have rejected",
        target.chip.copy_path(),
        target.chip
    )
}
