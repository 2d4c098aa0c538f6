//! The emit pipeline, assembled: `acopy-prepare-emit`, then the upstream
//! passes on each `gpu.module` (at the top and in nested `builtin.module`s),
//! then, for PTX, `gpu-module-to-binary`. The module comment of
//! [`super`] lists the passes and why each is there.

use acopy_target::Chip;
use melior::pass::OperationPassManager;

use crate::pass_pipeline::{self, PipelineError};
use crate::prepare_emit::{
    prepare::{self, MAX_NESTING},
    Emit,
};

/// The passes run on each `gpu.module`: upstream's (those of
/// `gpu-lower-to-nvvm-pipeline` that lower a gpu.module's contents,
/// docs/embedding.md "The emit route"), plus `acopy-tensor-map-params` right
/// after `convert-gpu-to-nvvm`, which makes the TMA tensor-map parameters
/// `__grid_constant__` (docs/lowering-tma.md §1.1), and last
/// `acopy-check-lowered`, which names any op left unlowered.
pub const UPSTREAM: &str = "convert-nvgpu-to-nvvm,convert-vector-to-scf,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm,acopy-tensor-map-params,convert-nvvm-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts,acopy-check-lowered";

/// Whether a pass manager that runs only [`add_upstream`]'s passes verifies
/// after each of them: it does not. Those are upstream's conversions and
/// `acopy-tensor-map-params`, and `acopy-check-lowered`, which ends each
/// gpu.module's part, verifies the module before anything is translated; the
/// verifier after each of the dozen passes was a seventh of the time to PTX
/// (bench/RESULTS.md, 2026-12-06 evening).
pub const VERIFY_AFTER_EACH: bool = false;

/// Appends the passes that take lowered IR to `emit` (none for
/// [`Emit::Mlir`]). `chip` overrides every `gpu.module`'s chip.
pub fn add_passes(
    manager: OperationPassManager,
    emit: Emit,
    chip: Option<Chip>,
) -> Result<(), PipelineError> {
    if emit == Emit::Mlir {
        return Ok(());
    }
    manager.add_pass(prepare::create_pass(emit, chip));
    add_upstream(manager, emit)
}

/// Appends the upstream part of [`add_passes`]: what follows
/// `acopy-prepare-emit`.
pub fn add_upstream(manager: OperationPassManager, emit: Emit) -> Result<(), PipelineError> {
    if emit == Emit::Mlir {
        return Ok(());
    }
    pass_pipeline::add_pipeline(manager, &upstream_pipeline(emit))
}

/// The upstream steps for the `gpu.module`s of one `builtin.module`: the
/// passes on each `gpu.module`, then, for PTX, `gpu-module-to-binary`.
fn steps(emit: Emit) -> Vec<String> {
    let mut steps = vec![format!("gpu.module({UPSTREAM})")];
    if emit == Emit::Ptx {
        steps.push("gpu-module-to-binary{format=isa}".to_string());
    }
    steps
}

/// [`steps`] as pipeline text, for [`super::emit_modules`].
pub(super) fn per_module_steps(emit: Emit) -> String {
    steps(emit).join(",")
}

/// The upstream part of the pipeline, as text for [`pass_pipeline::add_pipeline`].
fn upstream_pipeline(emit: Emit) -> String {
    let steps = steps(emit);
    // The same passes for gpu.modules inside nested builtin.modules, down to
    // MAX_NESTING levels (prepare refuses deeper ones with a located error).
    let mut parts = Vec::new();
    for step in &steps {
        for depth in 0..=MAX_NESTING {
            parts.push(format!(
                "{}{step}{}",
                "builtin.module(".repeat(depth),
                ")".repeat(depth)
            ));
        }
    }
    parts.join(",")
}
