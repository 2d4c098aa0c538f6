//! The upstream part of the emit route, one `gpu.module` per task on
//! MLIR's thread pool (`crate::module_threads` says how, and why the outputs
//! and diagnostics are one thread's).
//!
//! `gpu-module-to-binary` compiles the `gpu.module`s of the op it runs on one
//! after another (MLIR 22: one loop over the block in `ModuleToBinary.cpp`),
//! and that is most of the time to PTX; here it runs once per `gpu.module`.
//! The input module is left as it is, and [`collect`](super::collect) reads the outputs from
//! the copies, in the order of the `gpu.module`s.

use melior::{ir::Module, pass::PassManager};

use super::{route, Emitted};
use crate::module_threads::{threaded, threads, Holder};
use crate::prepare_emit::{outputs::collect_on, Emit};

/// The outputs of [`add_passes`](super::add_passes)' upstream part and
/// [`collect`](super::collect) for `module`, with each `gpu.module` compiled on MLIR's thread
/// pool, or `None` when the caller must run them on one thread: the context
/// has one thread, `module` holds fewer than two `gpu.module`s or one that is
/// not directly in its body, or the run reported anything.
///
/// `module` must have been through `acopy-prepare-emit`.
pub fn emit(module: &Module, emit: Emit) -> Option<Vec<Emitted>> {
    if emit == Emit::Mlir || !threaded(module) {
        return None;
    }
    let mut holder = Holder::of(module, |_| true)?;
    tracing::debug!(
        modules = holder.originals.len(),
        "emitting per gpu.module on MLIR's thread pool"
    );
    let mut outputs = None;
    let succeeded = acopy_dialect::with_context(module.context(), |context| {
        let manager = PassManager::new(context);
        // `acopy-check-lowered`, last on each gpu.module, verifies it once.
        manager.enable_verifier(route::VERIFY_AFTER_EACH);
        let text = format!(
            "builtin.module(builtin.module({}))",
            route::per_module_steps(emit, route::Vectors::of(module))
        );
        crate::pass_pipeline::add_pipeline(manager.as_operation_pass_manager(), &text).ok()?;
        Some(holder.run(&manager, |copies| {
            outputs = collect_on(copies, emit, threads(copies)).ok();
            outputs.is_some()
        }))
    })?;
    if succeeded {
        outputs
    } else {
        None
    }
}
