//! [`Pipeline`]: the one sequence of passes from acopy IR to outputs, which
//! [`crate::compile`] and the `acopy-opt` driver both run.
//!
//! The order: the dialect's own checks; the acopy passes ([`Passes`]); the
//! tensor-map manifest, when asked for, read at the one point where it is
//! complete (after `acopy-lower`, before the upstream passes drop its
//! records); then, for LLVM IR or PTX, the emit passes and the outputs
//! ([`acopy_passes::emit`]). Without a manifest the acopy and emit passes
//! share one pass manager, as `acopy-opt` has always run them (one
//! `--mlir-timing` report).
//!
//! With more than one thread in the context and no instrumentation, the
//! upstream part of the emit pipeline runs one `gpu.module` per task on
//! MLIR's thread pool ([`acopy_passes::emit::emit_modules`]); the outputs and
//! diagnostics are those of one thread.

use std::fmt;

use acopy_manifest::Manifest;
use acopy_passes::{
    emit::{self, Emit, Emitted, OutputError},
    manifest::CollectError,
    pass_pipeline::PipelineError,
    PassOptions,
};
use melior::{
    ir::Module,
    pass::{OperationPassManager, PassIrPrintingOptions, PassManager},
    Context,
};

use crate::Options;

/// The acopy passes a [`Pipeline`] runs before emitting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Passes {
    /// `acopy-lower`, which verifies first: what [`crate::compile`] runs.
    Lower,
    /// `acopy-verify` alone: the errors, the IR unchanged.
    Verify,
    /// `acopy-pipeline` alone: marked loops multi-buffered, printed as acopy IR.
    Pipeline,
    /// `acopy-pipeline`, then `acopy-verify` on what it produced.
    PipelineThenVerify,
    /// None.
    Nothing,
    /// A pipeline mixing acopy and upstream passes, as `--pass-pipeline`
    /// takes it (`builtin.module(acopy-lower{chip=sm_90},canonicalize)`).
    Text(String),
}

/// MLIR's pass instrumentation, as `mlir-opt` offers it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Instrumentation {
    /// Print the IR after every pass, to standard error.
    pub print_ir_after_all: bool,
    /// Print a pass timing report, to standard error, when each pass manager
    /// is done.
    pub timing: bool,
}

/// What to run on a parsed module: see the module comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    pub passes: Passes,
    /// `chip` and `fallback` go to the acopy passes, `chip` and `emit` to the
    /// emit passes; `threads` is the caller's to apply to its context.
    pub options: Options,
    /// Read the tensor-map manifest after the acopy passes.
    pub manifest: bool,
    pub instrumentation: Instrumentation,
}

/// Why a [`Pipeline`] gave no outputs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// Errors were reported as MLIR diagnostics, through the context.
    #[error("errors were reported")]
    Diagnosed,
    /// [`Passes::Text`] is not a pipeline.
    #[error(transparent)]
    Pipeline(PipelineError),
    /// The manifest cannot be read; nothing was reported yet.
    #[error(transparent)]
    Manifest(CollectError),
    /// A bug in acopy, not in the input.
    #[error("{0}")]
    Internal(String),
}

/// What a successful [`Pipeline::run`] gives.
#[derive(Debug, Clone, Default)]
pub struct Ran {
    /// The manifest, when [`Pipeline::manifest`] asked for it.
    pub manifest: Option<Manifest>,
    /// One text per `gpu.module` (per chip, for PTX of a module for several)
    /// for LLVM IR and PTX; none for MLIR, where the module itself is the
    /// output.
    pub outputs: Vec<Emitted>,
}

/// A [`Pipeline`]'s pass managers, built: [`Prepared::run`] runs them.
pub struct Prepared<'p, 'c> {
    pipeline: &'p Pipeline,
    acopy: PassManager<'c>,
    /// The emit passes, when the manifest comes between them and the acopy
    /// passes or the per-module threads; otherwise they are in `acopy`.
    emit: Option<PassManager<'c>>,
    /// Whether `acopy-lower` and the upstream emit passes run per
    /// `gpu.module` ([`acopy_passes::lower::lower_modules`],
    /// [`acopy_passes::emit::emit_modules`]); the emit pass manager then holds
    /// `acopy-prepare-emit` alone.
    per_module: bool,
}

impl Pipeline {
    /// Runs the dialect's own checks on `module` (attribute values IRDL
    /// cannot check), then builds the pass managers in `context`, the
    /// module's.
    pub fn prepare<'c>(
        &self,
        context: &'c Context,
        module: &Module,
    ) -> Result<Prepared<'_, 'c>, RunError> {
        if acopy_dialect::check_module(module) > 0 {
            return Err(RunError::Diagnosed);
        }
        let acopy = self.new_manager(context);
        self.add_acopy_passes(acopy.as_operation_pass_manager())?;
        let emit_kind = self.options.emit;
        // The per-module route cannot show its passes to the instrumentation.
        let per_module = self.instrumentation == Instrumentation::default()
            // SAFETY: a query of a live context.
            && unsafe { mlir_sys::mlirContextGetNumThreads(context.to_raw()) } > 1;
        // Made (and dropped, with its timing report) whenever the manifest is
        // read, even when nothing is emitted, as acopy-opt always has.
        let emit = (self.manifest || per_module).then(|| self.new_manager(context));
        if let (true, Some(emit)) = (per_module, &emit) {
            // It holds `acopy-prepare-emit` alone, and each gpu.module it
            // prepared is verified by `acopy-check-lowered` before anything is
            // translated (`emit::route::VERIFY_AFTER_EACH`).
            emit.enable_verifier(emit::route::VERIFY_AFTER_EACH);
        }
        let target = emit.as_ref().unwrap_or(&acopy).as_operation_pass_manager();
        let added = if per_module {
            if emit_kind != Emit::Mlir {
                target.add_pass(emit::prepare::create_pass(emit_kind, self.options.chip));
            }
            Ok(())
        } else {
            emit::add_passes(target, emit_kind, self.options.chip)
        };
        added.map_err(|error| RunError::Internal(error.to_string()))?;
        Ok(Prepared {
            pipeline: self,
            acopy,
            emit,
            per_module,
        })
    }

    /// [`Pipeline::prepare`], then [`Prepared::run`].
    pub fn run(&self, context: &Context, module: &mut Module) -> Result<Ran, RunError> {
        self.prepare(context, module)?.run(module)
    }

    fn pass_options(&self) -> PassOptions {
        self.options.pass_options()
    }

    fn add_acopy_passes(&self, manager: OperationPassManager) -> Result<(), RunError> {
        match &self.passes {
            Passes::Lower => {
                manager.add_pass(acopy_passes::lower::create_pass(self.pass_options()))
            }
            Passes::Verify => {
                manager.add_pass(acopy_passes::verify::create_pass(self.pass_options()))
            }
            Passes::Pipeline => {
                manager.add_pass(acopy_passes::pipeliner::create_pass(self.pass_options()))
            }
            Passes::PipelineThenVerify => {
                manager.add_pass(acopy_passes::pipeliner::create_pass(self.pass_options()));
                manager.add_pass(acopy_passes::verify::create_pass(self.pass_options()))
            }
            Passes::Nothing => {}
            Passes::Text(text) => acopy_passes::pass_pipeline::add_pipeline(manager, text)
                .map_err(RunError::Pipeline)?,
        }
        Ok(())
    }

    /// A pass manager with the verifier on and the instrumentation asked for.
    fn new_manager<'c>(&self, context: &'c Context) -> PassManager<'c> {
        let manager = PassManager::new(context);
        manager.enable_verifier(true);
        if self.instrumentation.print_ir_after_all {
            manager.enable_ir_printing(&PassIrPrintingOptions {
                before_all: false,
                after_all: true,
                module_scope: false,
                on_change: false,
                on_failure: false,
                flags: Default::default(),
                tree_printing_path: Default::default(),
            });
        }
        if self.instrumentation.timing {
            // SAFETY: the manager is alive; MLIR prints the report when it is destroyed.
            unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
        }
        manager
    }
}

/// The acopy passes as pipeline text, for logs: `--pass-pipeline` takes the
/// same text.
impl fmt::Display for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let names: &[&str] = match &self.passes {
            Passes::Text(text) => return f.write_str(text),
            Passes::Nothing => return f.write_str("builtin.module()"),
            Passes::Lower => &["acopy-lower"],
            Passes::Verify => &["acopy-verify"],
            Passes::Pipeline => &["acopy-pipeline"],
            Passes::PipelineThenVerify => &["acopy-pipeline", "acopy-verify"],
        };
        let mut options = Vec::new();
        if let Some(chip) = self.options.chip {
            options.push(format!("chip={chip}"));
        }
        if self.options.fallback {
            options.push("fallback=true".to_string());
        }
        let options = if options.is_empty() {
            String::new()
        } else {
            format!("{{{}}}", options.join(" "))
        };
        let passes: Vec<String> = names
            .iter()
            .map(|name| format!("{name}{options}"))
            .collect();
        write!(f, "builtin.module({})", passes.join(","))
    }
}

impl Prepared<'_, '_> {
    /// Runs the passes on `module` (the one [`Pipeline::prepare`] checked),
    /// and reads the manifest and the outputs.
    pub fn run(self, module: &mut Module) -> Result<Ran, RunError> {
        let Prepared {
            pipeline,
            acopy,
            emit,
            per_module,
        } = self;
        if per_module && pipeline.passes == Passes::Lower {
            let options = pipeline.pass_options();
            if !acopy_passes::lower::lower_modules::lower(module, &options) {
                on_one_thread(module, |module| acopy.run(module))
                    .map_err(|_| RunError::Diagnosed)?;
            }
        } else {
            acopy.run(module).map_err(|_| RunError::Diagnosed)?;
        }
        // The acopy passes' timing report comes out here, before the manifest
        // is read and the emit passes run.
        drop(acopy);
        let mut ran = Ran::default();
        if pipeline.manifest {
            let manifest =
                acopy_passes::manifest::collect(module.as_operation(), pipeline.options.chip)
                    .map_err(RunError::Manifest)?;
            ran.manifest = Some(manifest);
        }
        let kind = pipeline.options.emit;
        if kind == Emit::Mlir {
            return Ok(ran);
        }
        if let Some(emit) = &emit {
            emit.run(module).map_err(|_| RunError::Diagnosed)?;
        }
        if per_module {
            // The emit pass manager held `acopy-prepare-emit` alone.
            if let Some(outputs) = emit::emit_modules::emit(module, kind) {
                ran.outputs = outputs;
                return Ok(ran);
            }
            run_upstream_on_one_thread(module, kind)?;
        }
        ran.outputs = emit::collect(module, kind).map_err(|error| match error {
            OutputError::Diagnosed => RunError::Diagnosed,
            OutputError::Internal(message) => RunError::Internal(message),
        })?;
        drop(emit);
        Ok(ran)
    }
}

/// The upstream part of the emit passes on the calling thread, when the
/// per-module route declined: the diagnostics are one thread's.
fn run_upstream_on_one_thread(module: &mut Module, kind: Emit) -> Result<(), RunError> {
    acopy_dialect::with_context(module.context(), |context| {
        let manager = PassManager::new(context);
        // `acopy-check-lowered`, last on each gpu.module, verifies it once.
        manager.enable_verifier(emit::route::VERIFY_AFTER_EACH);
        let vectors = emit::route::Vectors::of(module);
        emit::route::add_upstream_for(manager.as_operation_pass_manager(), kind, vectors)
            .map_err(|error| RunError::Internal(error.to_string()))?;
        on_one_thread(module, |module| manager.run(module)).map_err(|_| RunError::Diagnosed)
    })
}

/// `run` on `module` with the context's threading off, then on again (the
/// per-module route runs only with it on).
fn on_one_thread<T>(module: &mut Module, run: impl FnOnce(&mut Module) -> T) -> T {
    acopy_dialect::with_context(module.context(), |context| {
        context.enable_multi_threading(false)
    });
    let result = run(module);
    acopy_dialect::with_context(module.context(), |context| {
        context.enable_multi_threading(true)
    });
    result
}
