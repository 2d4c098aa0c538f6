//! `acopy-lower` on each `gpu.module` apart, on MLIR's thread pool
//! ([`crate::per_module`] says how, and why the output and diagnostics are
//! one thread's).
//!
//! What the lowering asks of the host side is answered once, before: rule
//! A26 and the tensor-map parameters ask whether a kernel is launched with
//! `gpu.launch_func` in the module, so the launched kernels are collected
//! from the whole module on the calling thread and each copy's run starts
//! with them ([`super::tma::launches::seeded`]). Everything else the
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

use super::{run, tma::launches, ID, SUMMARY};
use crate::{
    external::external_pass,
    per_module::{threaded, Holder},
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
    let context_ref = module.context();
    // SAFETY: `context_ref` outlives every use of `context` in this function.
    let context = unsafe { context_ref.to_ref() };
    let manager = PassManager::new(context);
    manager.enable_verifier(true);
    manager
        .nested_under("builtin.module")
        .add_pass(copy_pass(options.clone(), launched));
    if !holder.run(&manager, |_| true) {
        return false;
    }
    holder.replace_originals();
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
        if crate::ir::op_name(&op) == "gpu.module" {
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
