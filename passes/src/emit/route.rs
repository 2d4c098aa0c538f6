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
    add_upstream_for(manager, emit, Vectors::Maybe)
}

/// Whether the module the route runs on holds a `vector` op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vectors {
    /// Some, or unknown when the passes are added (before the lowering made
    /// them).
    Maybe,
    /// No vector op: [`VECTOR_PASS`] is left out. On IR without a vector op it
    /// rewrites nothing, and its greedy driver's folding and constant hoisting
    /// is what `expand-strided-metadata`, next, does anyway (about 0.14 s of
    /// 3.9 s to PTX on the compile-speed bench's TMA input; bench/RESULTS.md,
    /// 2026-12-06 (afternoon)).
    Absent,
}

impl Vectors {
    /// Whether `module` holds a `vector` op, read after the lowering.
    pub fn of(module: &melior::ir::Module) -> Self {
        use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
        let mut found = false;
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            found = crate::ir::op_name(&op).starts_with(crate::ir::op_names::prefixes::VECTOR);
            match found {
                true => WalkResult::Interrupt,
                false => WalkResult::Advance,
            }
        });
        if found {
            Vectors::Maybe
        } else {
            Vectors::Absent
        }
    }
}

/// [`add_upstream`] for a module whose vector ops are known.
pub fn add_upstream_for(
    manager: OperationPassManager,
    emit: Emit,
    vectors: Vectors,
) -> Result<(), PipelineError> {
    if emit == Emit::Mlir {
        return Ok(());
    }
    pass_pipeline::add_pipeline(manager, &upstream_pipeline(emit, vectors))
}

/// The passes run on each `gpu.module`: [`UPSTREAM`], less
/// `convert-vector-to-scf` where no vector op is.
fn module_passes(vectors: Vectors) -> String {
    let kept = |pass: &&str| vectors == Vectors::Maybe || *pass != VECTOR_PASS;
    UPSTREAM
        .split(',')
        .filter(kept)
        .collect::<Vec<_>>()
        .join(",")
}

/// The one pass of [`UPSTREAM`] that rewrites only `vector` ops.
const VECTOR_PASS: &str = "convert-vector-to-scf";

/// The upstream steps for the `gpu.module`s of one `builtin.module`: the
/// passes on each `gpu.module`, then, for PTX, `gpu-module-to-binary`.
fn steps(emit: Emit, vectors: Vectors) -> Vec<String> {
    let mut steps = vec![format!("gpu.module({})", module_passes(vectors))];
    if emit == Emit::Ptx {
        steps.push("gpu-module-to-binary{format=isa}".to_string());
    }
    steps
}

/// [`steps`] as pipeline text, for [`super::emit_modules`].
pub(super) fn per_module_steps(emit: Emit, vectors: Vectors) -> String {
    steps(emit, vectors).join(",")
}

/// The upstream part of the pipeline, as text for [`pass_pipeline::add_pipeline`].
fn upstream_pipeline(emit: Emit, vectors: Vectors) -> String {
    let steps = steps(emit, vectors);
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

#[cfg(test)]
mod tests {
    use super::{module_passes, Vectors, UPSTREAM, VECTOR_PASS};
    use crate::context::create_context;
    use melior::ir::Module;

    #[test]
    fn the_vector_pass_is_left_out_only_where_no_vector_op_is() {
        assert_eq!(module_passes(Vectors::Maybe), UPSTREAM);
        let without = module_passes(Vectors::Absent);
        assert!(UPSTREAM.split(',').any(|pass| pass == VECTOR_PASS));
        assert!(!without.contains("vector"), "{without}");
        assert_eq!(without.split(',').count() + 1, UPSTREAM.split(',').count());
        let context = create_context().expect("the acopy dialect loads");
        let kernel = |body: &str| {
            format!("gpu.module @m {{ gpu.func @k(%out: memref<4xf32>) kernel {{ %c0 = arith.constant 0 : index\n {body} gpu.return }} }}")
        };
        let with = kernel("%v = arith.constant dense<1.0> : vector<4xf32>\n vector.store %v, %out[%c0] : memref<4xf32>, vector<4xf32>\n");
        let plain =
            kernel("%f = arith.constant 1.0 : f32\n memref.store %f, %out[%c0] : memref<4xf32>\n");
        for (text, want) in [(with, Vectors::Maybe), (plain, Vectors::Absent)] {
            let module = Module::parse(&context, &text).expect("the test input parses");
            assert_eq!(Vectors::of(&module), want, "{text}");
        }
    }
}
