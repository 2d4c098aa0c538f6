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
//! it never produces IR for the wrong chip. Values that depend only on the
//! kernel (thread index, first-thread test, constants, pointer casts of
//! arguments and workgroup buffers) are computed once per kernel at the top
//! of its entry block and shared by every copy (`crate::ir::hoist`); constants the
//! acopy ops read and nothing else uses are erased. The pass does not touch
//! the rest of the function (run `cse` or `canonicalize` for that).
//!
//! **Options** ([`PassOptions`]): `chip` overrides every gpu.module's chip;
//! `fallback` lets cp.async take predicates, barriers and single-CTA
//! collective attributes (see [`cp_async`]).
//!
//! Each copy is lowered from its plan (`crate::plan`: `CopyPlan::of` for a
//! load, `TmaStorePlan::of` for a store), which holds what the IR says of it;
//! the lowering builds IR and re-checks nothing, and a copy without a plan
//! (which verification would have refused) is an internal error.
//!
//! Layout: ops are emitted through the passes' one builder,
//! `crate::ir::build` (op names from `crate::ir::op_names`, kernel-level values
//! shared by `crate::ir::hoist`); here [`memref_address`] reads memref layouts and
//! proves alignment (raising a buffer's alignment is `crate::raise_alignment`),
//! then one file per path: [`cp_async`], [`tma`], and [`barrier`] for both;
//! what both paths share is in files of its own, [`issuers`] (who issues) and
//! [`tile_address`] (a shared tile's address, alignment and swizzled layout);
//! [`descriptor`] lowers `acopy.wgmma_descriptor` (planned before any copy is
//! lowered, as it reads the copies that write its tile), and
//! [`stored_index`] `acopy.swizzled_index` (planned before the pipeliner
//! runs, and pinned on the op: `crate::plan::pinned`); [`lower_modules`]
//! runs the pass on each `gpu.module` on MLIR's thread pool; [`kept_view`]
//! says when a copy's view from verification still holds for its lowering.

mod barrier;
mod cp_async;
mod descriptor;
mod issuers;
mod kept_view;
pub mod lower_modules;
mod memref_address;
mod stored_index;
mod tile_address;
mod tma;

use acopy_dialect::{diagnostics::emit_error, AcopyOp};
use acopy_target::{Chip, CopyPath};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use crate::ir::{
    build::{self, issue_joins::JoinedIfs, Builder},
    hoist,
};
use crate::{
    external::{external_pass, PassId, PassResult},
    plan::CopyPlan,
    target, PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str = "Lower acopy ops to NVVM: cp.async below sm_90, TMA on sm_90 and newer";

static ID: PassId = PassId;

/// Creates the `acopy-lower` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(
        &ID,
        "acopy-lower",
        SUMMARY,
        options,
        &dependent_dialects(),
        run,
    )
}

/// The dialects of the ops the pass builds (`crate::ir::op_names`).
fn dependent_dialects() -> [melior::dialect::DialectHandle; 6] {
    use melior::dialect::DialectHandle;
    [
        DialectHandle::arith(),
        DialectHandle::gpu(),
        DialectHandle::llvm(),
        DialectHandle::memref(),
        DialectHandle::scf(),
        crate::ir::nvvm_dialect(),
    ]
}

/// After the ops are lowered: the shared kernel values no copy used go, and
/// the ifs each copy guarded its issue with on the same condition merge
/// (`crate::ir::merge_ifs`).
fn tidy(operation: OperationRef) {
    hoist::erase_unused();
    crate::ir::merge_ifs::merge_adjacent(operation);
}

fn run(operation: OperationRef, options: &PassOptions) -> PassResult {
    crate::ir::with_context(&operation, |context| {
        // SAFETY: the op the pass runs on, alive for the whole run; the
        // handle is bound to the context's lifetime, which the views that
        // verification keeps for the lowering share.
        let operation = unsafe { OperationRef::from_raw(operation.to_raw()) };
        run_in(context, operation, options)
    })
}

/// [`run`], with the context the op lives in.
fn run_in<'c>(
    context: &'c melior::Context,
    operation: OperationRef<'c, '_>,
    options: &PassOptions,
) -> PassResult {
    let _launches = crate::plan::launches::scope();
    let _memo = crate::target::run_scope();
    let _kernel_values = hoist::scope();
    // The user's IR is verified (docs/verification.md), then marked loops are
    // pipelined (docs/pipelining.md) and what the pipeliner wrote is checked
    // again, as the lowerings rely on both. Verifying first gives each op the
    // user wrote its one error or remark, not one per copy the pipeliner made.
    // Each module's chip is resolved once, for every step of the run.
    let chips = target::ModuleChips::resolve(operation, options);
    // Verification keeps the plan of each marked loop it accepts, for the
    // pipeliner: a loop is analysed once per run (`crate::plan::loops::kept_plans`).
    let mut kept = crate::plan::loops::KeptPlans::default();
    // It keeps each acopy op's view too, which the lowering reads each op from
    // while the op is as verification saw it (`kept_view`).
    let mut views = Vec::new();
    crate::verify::verify_operation_on(operation, options, &chips, &mut kept, &mut views)?;
    // Swizzled indices and wgmma descriptors are planned on the IR just
    // verified, before their tiles move into slots, and the plans ride on the
    // ops from here on (`crate::plan::pinned`).
    crate::plan::swizzled_index::pin(operation);
    crate::plan::wgmma_descriptor::pin(operation);
    // Only what the pipeliner wrote needs a second check; without marked
    // loops the IR is the one just verified.
    let marked = !crate::pipeliner::marked_ops(operation).is_empty();
    crate::pipeliner::pipeline_verified(operation, options, &chips, kept)?;
    if marked {
        crate::verify::verify_pipelined(operation, options, &chips)?;
    }
    // The pipeliner rewrote marked loops: their ops are found again.
    let ops = if marked {
        acopy_ops(operation)
            .into_iter()
            .map(|raw| (raw, None))
            .collect()
    } else {
        views
            .into_iter()
            .map(|view| (view.op().to_raw(), Some(view)))
            .collect()
    };
    let (mut failed, modules) = lower_each(context, operation, ops, &chips, options);
    // A barrier the lowering built among warp-specialized consumers (a TMA
    // store's) waits only for them.
    if failed || !role_barriers(operation) {
        return Err(());
    }
    tidy(operation);
    // Static shared memory over ptxas's limit moves to dynamic shared memory
    // here, in the modules lowered, so the manifest records the bytes.
    if crate::static_shared::move_oversized(operation, |module| {
        modules
            .iter()
            .find(|(raw, _)| *raw == module.to_raw().ptr)
            .map(|(_, chip)| *chip)
    })
    .is_err()
    {
        failed = true;
    }
    if retarget_lowered(&modules) && !failed {
        Ok(())
    } else {
        Err(())
    }
}

/// Lowers the acopy ops `ops` under `operation` (in program order, each with
/// its view from verification when kept), each in place; returns whether one
/// failed (each failure reported at its op) and the gpu.modules lowered, with
/// their chips.
fn lower_each<'c, 'a>(
    context: &'c melior::Context,
    operation: OperationRef<'c, 'a>,
    ops: Vec<(mlir_sys::MlirOperation, Option<AcopyOp<'c, 'a>>)>,
    chips: &target::ModuleChips,
    options: &PassOptions,
) -> (bool, Vec<(*mut std::ffi::c_void, Chip)>) {
    let mut failed = false;
    let mut modules = Vec::new();
    let mut targets = target::by_parent::TargetsByParent::new(chips);
    // A copy's issue if may join the previous copy's (`build::joined_if`).
    let joins = JoinedIfs::default();
    for (raw, view) in ops {
        // SAFETY: the walk found these ops under `operation`, which the pass
        // holds; lowering one never erases another (acopy ops have no regions).
        let op = unsafe { OperationRef::from_raw(raw) };
        joins.begin(op);
        let view = view.and_then(kept_view::current);
        let lowered = lower_op(context, op, view, &mut targets, options, &joins);
        let dropped = hoist::end_op();
        let erased = match lowered {
            Ok(chip) => {
                if let Some(module) = target::enclosing(op, crate::ir::op_names::gpu::MODULE) {
                    if !modules.iter().any(|(raw, _)| *raw == module.to_raw().ptr) {
                        modules.push((module.to_raw().ptr, chip));
                    }
                }
                let constants = constant_operands(op);
                // SAFETY: the lowered acopy op is live, its replacement is built
                // and it has no results; `op` is not used after.
                unsafe { build::erase(op) };
                Some(erase_if_unused(&constants))
            }
            Err(message) => {
                emit_error(op.location(), &message);
                failed = true;
                None
            }
        };
        if let Err(message) = joins.settle(context, erased.as_deref(), &dropped) {
            emit_error(operation.location(), &message);
            failed = true;
        }
    }
    (failed, modules)
}

/// Names the barriers of warp-specialized consumers (`target::roles`); a
/// whole-block barrier in a producer region is an error at it. Returns
/// whether none was.
fn role_barriers(operation: OperationRef) -> bool {
    crate::ir::with_context(&operation, |context| {
        match target::roles::name_barriers(context, operation) {
            Ok(stranded) => {
                for barrier in &stranded {
                    emit_error(barrier.op.location(), &barrier.message);
                }
                stranded.is_empty()
            }
            Err(message) => {
                emit_error(operation.location(), &message);
                false
            }
        }
    })
}

/// Each lowered gpu.module now holds instructions for its chip: says so in
/// its target, with the PTX ISA they need (the NVPTX backend aborts on less),
/// after refusing, at the op, any op of the module the chip cannot compile.
/// Returns whether every module was retargeted.
fn retarget_lowered(modules: &[(*mut std::ffi::c_void, Chip)]) -> bool {
    let mut ok = true;
    for &(raw, chip) in modules {
        // SAFETY: gpu.modules are never erased by the lowering.
        let module = unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: raw }) };
        if target::gating::refuse_unsupported(module, chip) {
            ok = false;
            continue;
        }
        if let Err(message) = target::retarget(module, chip) {
            emit_error(module.location(), &message);
            ok = false;
        }
    }
    ok
}

/// The acopy ops under `operation`, in program order.
fn acopy_ops(operation: OperationRef) -> Vec<mlir_sys::MlirOperation> {
    let mut raw_ops = Vec::new();
    operation.walk(WalkOrder::PreOrder, |op| {
        // By name, as `AcopyOp::from_op` tells them, without building the
        // view that `lower_op` builds anyway.
        let name = op.name();
        if name
            .as_string_ref()
            .as_str()
            .is_ok_and(|name| acopy_dialect::names::ALL.contains(&name))
        {
            raw_ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    raw_ops
}

/// The `arith.constant`s among `op`'s operands, each once (an op often takes
/// one constant twice, and erasing an op twice is a use after free): the
/// lowering reads them as numbers, so once `op` is gone they are often unused.
fn constant_operands(op: OperationRef) -> Vec<mlir_sys::MlirOperation> {
    let mut constants: Vec<mlir_sys::MlirOperation> = (0..op.operand_count())
        .filter_map(|index| op.operand(index).ok())
        .filter_map(crate::ir::defining_op)
        .filter(|defining| crate::ir::is(defining, crate::ir::op_names::arith::CONSTANT))
        .map(|defining| defining.to_raw())
        .collect();
    constants.sort_unstable_by_key(|raw| raw.ptr);
    constants.dedup_by_key(|raw| raw.ptr);
    constants
}

/// Erases each of `ops` that has no uses left (they are side-effect-free
/// constants, so nothing else changes); returns those erased.
fn erase_if_unused(ops: &[mlir_sys::MlirOperation]) -> Vec<mlir_sys::MlirOperation> {
    let mut erased = Vec::new();
    for raw in ops {
        // SAFETY: the constants are live (only the acopy op was erased) and
        // each is listed once.
        let op = unsafe { OperationRef::from_raw(*raw) };
        if hoist::unused(*raw) {
            // SAFETY: `op` is live (found above, not erased since) and unused.
            unsafe { build::erase(op) };
            erased.push(*raw);
        }
    }
    erased
}

/// Lowers one acopy op in place (the caller erases it), from `view` when
/// given (the op as verification saw it and as it still is); returns the
/// chip.
fn lower_op<'c, 'a>(
    context: &'c melior::Context,
    op: OperationRef<'c, 'a>,
    view: Option<AcopyOp<'c, 'a>>,
    targets: &mut target::by_parent::TargetsByParent,
    options: &PassOptions,
    joins: &'a JoinedIfs,
) -> Result<Chip, String> {
    // `run` verified first: view and target errors were reported there.
    let view = match view.map(Ok).or_else(|| AcopyOp::from_op(op)) {
        Some(Ok(view)) => view,
        Some(Err(error)) => return Err(format!("internal error: {error}")),
        None => return Err("internal error: not an acopy op".into()),
    };
    let target = targets
        .target(op)
        .map_err(|problem| format!("internal error: {problem}"))?;
    let b = Builder::joining(context, op, joins)?;
    let path = target.chip.copy_path();
    let lowered = match view {
        AcopyOp::CopyGmemToSmem(view) => match CopyPlan::of(&view, &target, options) {
            Ok(CopyPlan::CpAsync(plan)) => cp_async::lower_copy(&view, &plan, &target, &b),
            Ok(CopyPlan::Tma(plan)) => tma::lower_copy(&view, &plan, &target, &b),
            Err(error) => Err(format!(
                "internal error: acopy-verify accepted a copy that has no plan: {error}"
            )),
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
        AcopyOp::WgmmaDescriptor(view) => descriptor::lower_descriptor(&view, &b),
        AcopyOp::SwizzledIndex(view) => stored_index::lower_index(&view, &b),
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

#[cfg(test)]
mod tests {
    use melior::{
        dialect::DialectRegistry, ir::Module, pass::PassManager, utility::register_all_dialects,
        Context,
    };

    /// A frontend's context has every dialect registered but loads only
    /// what its IR uses; the ops acopy-lower builds (`scf`, `llvm`, ...) are
    /// in dialects the input never mentions (`scf` here), which the pass declares as
    /// dependent so that the pass manager loads them before it runs.
    #[test]
    fn lowers_in_a_context_that_has_not_loaded_the_dialects_it_builds() {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        acopy_dialect::load(&context).unwrap();
        let text = r#"
            gpu.module @m [#nvvm.target<chip = "sm_80">] {
              gpu.func @k(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel {
                %c0 = arith.constant 0 : index
                "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
                gpu.return
              }
            }"#;
        let mut module = Module::parse(&context, text).expect("the input parses");
        let name = melior::StringRef::new("scf.for");
        // SAFETY: a live context and a string that outlives the call.
        let registered =
            unsafe { mlir_sys::mlirContextIsRegisteredOperation(context.to_raw(), name.to_raw()) };
        assert!(
            !registered,
            "scf.for's dialect is loaded before the pass: the test would prove nothing"
        );
        let manager = PassManager::new(&context);
        manager.add_pass(super::create_pass(crate::PassOptions::default()));
        assert!(manager.run(&mut module).is_ok());
        let lowered = module.as_operation().to_string();
        assert!(lowered.contains("scf.for"), "{lowered}");
        assert!(lowered.contains("nvvm.cp.async.shared.global"), "{lowered}");
    }

    /// Lowering reads each gpu.module's chip once for verification, once for
    /// the pipeliner and once for itself, however many copies it holds.
    #[test]
    fn lowering_reads_each_module_chip_once() {
        let context = crate::context::create_context().expect("the acopy dialect loads");
        context.enable_multi_threading(false);
        let copy = r#"    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()"#;
        let body = [copy; 5].join("\n");
        let text = format!(
            r#"gpu.module @m [#nvvm.target<chip = "sm_80">] {{
  gpu.func @k(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel {{
    %c0 = arith.constant 0 : index
{body}
    "acopy.wait_gmem_to_smem"() {{pending = 0 : i64}} : () -> ()
    gpu.return
  }}
}}"#
        );
        let mut module = Module::parse(&context, &text).expect("the input parses");
        let manager = PassManager::new(&context);
        manager.add_pass(super::create_pass(crate::PassOptions::default()));
        let before = crate::target::MODULE_CHIP_READS.with(|reads| reads.get());
        assert!(manager.run(&mut module).is_ok());
        let reads = crate::target::MODULE_CHIP_READS.with(|reads| reads.get()) - before;
        assert_eq!(
            reads, 1,
            "one acopy-lower run reads the module's chip once, for all its steps"
        );
        let lowered = module.as_operation().to_string();
        // One chunk loop per copy, each with its cp.async.
        assert_eq!(
            lowered.matches("nvvm.cp.async.shared.global").count(),
            5,
            "{lowered}"
        );
    }

    /// Two TMA copies with a constant between them that only the second
    /// uses: the second's issue joins the first's if (`build::joined_if`),
    /// and the constant goes with the second copy.
    #[test]
    fn a_constant_only_the_next_copy_uses_lets_its_issue_join() {
        let context = crate::context::create_context().expect("the acopy dialect loads");
        context.enable_multi_threading(false);
        let copy = |row: &str| {
            format!(
                r#"    "acopy.copy_gmem_to_smem"(%src, %tile, {row}, %c0, %bar) {{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"}} : (memref<4096x4096xf32>, memref<32x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()"#
            )
        };
        let text = format!(
            r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {{
  gpu.func @k(%src: memref<4096x4096xf32>) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {{gpu.known_block_size = array<i32: 128, 1, 1>}} {{
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    %c0 = arith.constant 0 : index
{first}
    %c32 = arith.constant 32 : index
{second}
    gpu.return
  }}
}}"#,
            first = copy("%c0"),
            second = copy("%c32"),
        );
        let mut module = Module::parse(&context, &text).expect("the input parses");
        let manager = PassManager::new(&context);
        manager.add_pass(super::create_pass(crate::PassOptions::default()));
        assert!(manager.run(&mut module).is_ok());
        let lowered = module.as_operation().to_string();
        // The barrier's init has its own if, on thread x alone; the copies
        // share one, on the whole first thread.
        assert_eq!(lowered.matches("scf.if").count(), 2, "{lowered}");
        let issue = lowered.rfind("scf.if").expect("the issue if");
        assert_eq!(
            lowered[issue..]
                .matches("nvvm.cp.async.bulk.tensor.shared.cluster.global")
                .count(),
            2,
            "{lowered}"
        );
        assert!(!lowered.contains("arith.constant 32 : index"), "{lowered}");
        // The module lowered says so in its target (`retarget_lowered`).
        assert!(
            lowered.contains(r#"#nvvm.target<chip = "sm_90", features = "+ptx80">"#),
            "{lowered}"
        );
    }

    /// A kernel named `name` with one marked loop (clamp.mlir's).
    fn kernel_with_marked_loop(name: &str) -> String {
        format!(
            r#"  gpu.func @{name}(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %c16 step %c1 {{
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {{oob_mode = "promise_in_bounds"}} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {{pending = 0 : i64}}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    }} {{acopy.pipeline = {{stages = 3 : i64}}}}
    gpu.return
  }}"#
        )
    }

    /// How many loop analyses one acopy-lower run makes of gpu.modules for
    /// `chip`, each holding one kernel per name of `kernels`.
    fn analyses_in_one_lowering(chip: &str, modules: &[&[&str]]) -> usize {
        let text: Vec<String> = modules
            .iter()
            .enumerate()
            .map(|(index, kernels)| {
                let kernels: Vec<String> = kernels
                    .iter()
                    .map(|name| kernel_with_marked_loop(name))
                    .collect();
                format!(
                    "gpu.module @m{index} [#nvvm.target<chip = \"{chip}\">] {{\n{}\n}}",
                    kernels.join("\n")
                )
            })
            .collect();
        let context = crate::context::create_context().expect("the acopy dialect loads");
        context.enable_multi_threading(false);
        let mut module = Module::parse(&context, &text.join("\n")).expect("the input parses");
        let manager = PassManager::new(&context);
        manager.add_pass(super::create_pass(crate::PassOptions::default()));
        let analyses = &crate::plan::loops::analysis::ANALYSES;
        let before = analyses.with(|count| count.get());
        assert!(manager.run(&mut module).is_ok());
        let lowered = module.as_operation().to_string();
        assert!(!lowered.contains("acopy.pipeline "), "{lowered}");
        analyses.with(|count| count.get()) - before
    }

    /// Verification's analysis of a marked loop is the pipeliner's: one
    /// acopy-lower run analyses each loop once, on either path, in modules of
    /// their own or side by side in one module on cp.async (whose rewrite
    /// changes only its own kernel).
    #[test]
    fn lowering_analyses_each_marked_loop_once() {
        for chip in ["sm_80", "sm_90"] {
            assert_eq!(
                analyses_in_one_lowering(chip, &[&["k"], &["k"]]),
                2,
                "{chip}"
            );
        }
        assert_eq!(analyses_in_one_lowering("sm_80", &[&["a", "b", "c"]]), 3);
    }

    /// A TMA rewrite gives its gpu.module a global (the slots' mbarriers),
    /// which the budget of every later loop of the module counts: those loops
    /// are analysed again on the rewritten IR, as before plans were kept.
    #[test]
    fn a_later_loop_of_a_module_given_a_global_is_analysed_again() {
        assert_eq!(analyses_in_one_lowering("sm_90", &[&["a", "b", "c"]]), 5);
    }
}
