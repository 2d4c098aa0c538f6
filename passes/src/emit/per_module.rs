//! The upstream part of the emit pipeline, one `gpu.module` per task on
//! MLIR's thread pool.
//!
//! `gpu-module-to-binary` compiles the `gpu.module`s of the op it runs on one
//! after another (MLIR 22: one loop over the block in `ModuleToBinary.cpp`),
//! and that is most of the time to PTX. It runs on any op, so here each
//! `gpu.module` is cloned into a `builtin.module` of its own, all of them in
//! one holder module, and the holder's pass manager runs the upstream passes
//! and `gpu-module-to-binary` nested on each of those `builtin.module`s: MLIR
//! spreads a nested pipeline over its threads. The input module is left as it
//! is, and [`collect`] reads the outputs from the holder, in the order of the
//! `gpu.module`s.
//!
//! The outputs are the same as one thread's, byte for byte: each
//! `gpu.module` goes through the same passes, alone. Diagnostics are made
//! the same by construction: any diagnostic during the attempt (an error, a
//! warning, a remark) voids it, and the caller runs the same passes on the
//! input on one thread, which reports them as the one-thread run does (MLIR's
//! threaded pass manager stops scheduling modules after a failure, so which
//! later modules report too would depend on timing).

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, Operation, OperationRef,
    },
    pass::PassManager,
};

use super::{collect, pipeline, Emit, Emitted};
use crate::{diagnostics::Collector, ir};

/// The outputs of [`add_passes`](super::add_passes)' upstream part and
/// [`collect`] for `module`, with each `gpu.module` compiled on MLIR's thread
/// pool, or `None` when the caller must run them on one thread: the context
/// has one thread, `module` holds fewer than two `gpu.module`s or one that is
/// not directly in its body, or the attempt reported anything.
///
/// `module` must have been through `acopy-prepare-emit`.
pub fn emit(module: &Module, emit: Emit) -> Option<Vec<Emitted>> {
    if emit == Emit::Mlir {
        return None;
    }
    let context_ref = module.context();
    // SAFETY: `context_ref` outlives every use of `context` in this function.
    let context = unsafe { context_ref.to_ref() };
    // SAFETY: a query of a live context.
    if unsafe { mlir_sys::mlirContextGetNumThreads(context.to_raw()) } < 2 {
        return None;
    }
    let modules = gpu_modules(module)?;
    if modules.len() < 2 {
        return None;
    }
    let mut holder = Module::new(module.as_operation().location());
    for gpu_module in modules {
        let wrapper = Module::new(gpu_module.location());
        // SAFETY: cloning a live op gives a new op that nothing owns; the
        // wrapper's block takes it.
        let clone =
            unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(gpu_module.to_raw())) };
        wrapper.body().append_operation(clone);
        // SAFETY: a module is its op; the holder's block takes ownership of
        // it, so the `Module` handle is forgotten, not dropped (which would
        // destroy the op).
        let wrapper = unsafe {
            let raw = mlir_sys::mlirModuleGetOperation(wrapper.to_raw());
            std::mem::forget(wrapper);
            Operation::from_raw(raw)
        };
        holder.body().append_operation(wrapper);
    }
    let manager = PassManager::new(context);
    manager.enable_verifier(true);
    let text = format!(
        "builtin.module(builtin.module({}))",
        pipeline::per_module_steps(emit)
    );
    if crate::pipeline::add_pipeline(manager.as_operation_pass_manager(), &text).is_err() {
        return None;
    }
    let collector = Collector::default();
    let attached = collector.attach_scoped(context);
    let outputs = manager
        .run(&mut holder)
        .ok()
        .and_then(|()| collect(&holder, emit).ok());
    // SAFETY: the context is alive: `module` borrows it.
    unsafe { attached.detach() };
    if !collector.take().is_empty() {
        return None;
    }
    outputs
}

/// The `gpu.module`s of `module`, if every one of them is directly in its
/// body (the per-module route does not follow nested `builtin.module`s).
fn gpu_modules<'c, 'a>(module: &'a Module<'c>) -> Option<Vec<OperationRef<'c, 'a>>> {
    let mut direct = Vec::new();
    let mut current = module.body().first_operation();
    while let Some(op) = current {
        if ir::op_name(&op) == "gpu.module" {
            direct.push(op);
        }
        current = op.next_in_block();
    }
    let mut all = 0usize;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if ir::op_name(&op) == "gpu.module" {
            all += 1;
        }
        WalkResult::Advance
    });
    (all == direct.len()).then_some(direct)
}
