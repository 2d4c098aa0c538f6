//! `acopy-lower` on each `gpu.module` apart, on MLIR's thread pool
//! (`crate::module_threads` says how, and why the output and diagnostics are
//! one thread's).
//!
//! What the lowering asks of the host side is answered once, before: rule
//! A26 and the tensor-map parameters ask whether a kernel is launched with
//! `gpu.launch_func` in the module, so the launched kernels are collected
//! from the whole module on the calling thread and each copy's run starts
//! with them ([`crate::plan::launches::seeded`]). Everything else the
//! lowering reads and writes is inside the `gpu.module`.

use std::{collections::HashSet, sync::Arc};

use acopy_dialect::AcopyOp;
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, OperationRef,
    },
    pass::PassManager,
};

use super::{run, ID, SUMMARY};
use crate::plan::launches;
use crate::{
    external::external_pass,
    module_threads::{threaded, Holder},
    PassOptions,
};

/// Lowers `module` as `acopy-lower` does, each `gpu.module` that holds acopy
/// ops on MLIR's thread pool; `false`, with `module` unchanged, when the
/// caller must run `acopy-lower` on one thread instead: the context has one
/// thread, fewer than two `gpu.module`s hold acopy ops, an acopy op or a
/// `gpu.module` is not directly in the module's `gpu.module`s, or the run
/// reported anything.
pub fn lower(module: &Module, options: &PassOptions) -> bool {
    if !threaded(module) || has_acopy_op_outside_gpu_modules(module.as_operation()) {
        return false;
    }
    let Some(mut holder) = Holder::of(module, has_acopy_op) else {
        return false;
    };
    tracing::debug!(
        modules = holder.originals.len(),
        "lowering per gpu.module on MLIR's thread pool"
    );
    let launched = Arc::new(launches::launched(module.as_operation()));
    let ran = crate::ir::with_context(&module.as_operation(), |context| {
        let manager = PassManager::new(context);
        manager.enable_verifier(true);
        manager
            .nested_under(crate::ir::op_names::builtin::MODULE.name)
            .add_pass(copy_pass(options.clone(), launched));
        holder.run(&manager, |_| true)
    });
    if !ran {
        return false;
    }
    // SAFETY: nothing here holds a handle into the original gpu.modules (the
    // walk for launches took kernel addresses, not handles).
    unsafe { holder.replace_originals() };
    // The copies held no host code: the launches of kernels whose pipelined
    // slots moved to dynamic shared memory get their size here.
    if let Err(message) = crate::pipeliner::launch_sizes::set_launch_sizes(module.as_operation()) {
        acopy_dialect::diagnostics::emit_error(module.as_operation().location(), &message);
    }
    true
}

/// `acopy-lower` for the copies: each run starts knowing the kernels the
/// original module launches.
fn copy_pass(options: PassOptions, launched: Arc<HashSet<usize>>) -> melior::pass::Pass {
    let builds = super::dependent_dialects();
    external_pass(
        &ID,
        "acopy-lower",
        SUMMARY,
        options,
        &builds,
        move |operation: OperationRef, options: &PassOptions| {
            let mut root = operation;
            while let Some(parent) = root.parent_operation() {
                root = parent;
            }
            let _launched = launches::seeded(root, launched.as_ref().clone());
            run(operation, options)
        },
    )
}

fn has_acopy_op(op: OperationRef) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |op| {
        if AcopyOp::from_op(op).is_some() {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether an acopy op lies outside every `gpu.module` directly in `top`.
fn has_acopy_op_outside_gpu_modules(top: OperationRef) -> bool {
    let mut found = false;
    top.walk(WalkOrder::PreOrder, |op| {
        if crate::ir::is(&op, crate::ir::op_names::gpu::MODULE) {
            return WalkResult::Skip;
        }
        if AcopyOp::from_op(op).is_some() {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

#[cfg(test)]
mod tests {
    use melior::{ir::Module, pass::PassManager};

    use crate::PassOptions;

    fn kernel_module(name: &str, chip: &str) -> String {
        format!(
            r#"  gpu.module @{name} [#nvvm.target<chip = "{chip}">] {{
    gpu.func @k(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel {{
      %c0 = arith.constant 0 : index
      "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      gpu.return
    }}
  }}
"#
        )
    }

    /// Lowered apart on the pool, the module prints as `acopy-lower` on one
    /// thread makes it; a `gpu.module` without acopy ops is left alone.
    #[test]
    fn the_pool_lowers_as_one_thread_does() {
        let context = crate::context::create_context().expect("context");
        context.enable_multi_threading(true);
        let text = format!(
            "module {{\n{}  gpu.module @empty {{\n  }}\n{}}}\n",
            kernel_module("a", "sm_80"),
            kernel_module("b", "sm_86")
        );
        let pooled = Module::parse(&context, &text).expect("parses");
        assert!(super::threaded(&pooled), "the test needs two threads");
        assert!(super::lower(&pooled, &PassOptions::default()));
        let mut alone = Module::parse(&context, &text).expect("parses");
        context.enable_multi_threading(false);
        let manager = PassManager::new(&context);
        manager.add_pass(super::super::create_pass(PassOptions::default()));
        manager.run(&mut alone).expect("lowers");
        let printed = pooled.as_operation().to_string();
        assert_eq!(printed, alone.as_operation().to_string());
        assert!(!printed.contains("acopy."), "{printed}");
    }

    /// The route declines, leaving the module as it was, where it cannot
    /// give one thread's answer: one module to lower, an acopy op outside the
    /// gpu.modules, a diagnostic, or one thread.
    #[test]
    fn the_route_declines_and_leaves_the_module_unchanged() {
        let context = crate::context::create_context().expect("context");
        context.enable_multi_threading(true);
        let outside = r#"  func.func @f(%src: memref<64x128xf32>, %dst: memref<64x128xf32, 3>) {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
    return
  }
"#;
        // sm_75 cannot be resolved: a target error at the op.
        let cases = [
            format!("module {{\n{}}}\n", kernel_module("a", "sm_80")),
            format!(
                "module {{\n{}{outside}{}}}\n",
                kernel_module("a", "sm_80"),
                kernel_module("b", "sm_80")
            ),
            format!(
                "module {{\n{}{}}}\n",
                kernel_module("a", "sm_80"),
                kernel_module("b", "sm_75")
            ),
        ];
        let options = PassOptions::default();
        for text in &cases {
            let module = Module::parse(&context, text).expect("parses");
            let before = module.as_operation().to_string();
            assert!(!super::lower(&module, &options), "{text}");
            assert_eq!(module.as_operation().to_string(), before);
        }
        context.enable_multi_threading(false);
        let two = format!(
            "module {{\n{}{}}}\n",
            kernel_module("a", "sm_80"),
            kernel_module("b", "sm_80")
        );
        let module = Module::parse(&context, &two).expect("parses");
        assert!(!super::lower(&module, &options));
    }
}
