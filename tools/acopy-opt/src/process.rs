//! Running one input chunk: parse, check, run the passes, render the output.

use acopy_passes::{pipeline, registry, PassOptions};
use melior::{
    ir::Module,
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};

use crate::cli::{Cli, Emit};

/// Why a chunk produced no output. Diagnostics have already been emitted
/// through the context for `Diagnosed`.
#[derive(Debug)]
pub enum ChunkError {
    /// Errors were reported as MLIR diagnostics.
    Diagnosed,
    /// The command line was unusable (a bad pipeline string); exit status 2.
    Usage(String),
}

/// The passes to run, from `--pass-pipeline` or the `--acopy-*` flags.
pub fn pipeline_text(cli: &Cli) -> Option<String> {
    if let Some(text) = &cli.pass_pipeline {
        return Some(text.clone());
    }
    let mut options = Vec::new();
    if let Some(chip) = cli.chip {
        options.push(format!("chip={chip}"));
    }
    if cli.acopy_fallback {
        options.push("fallback=true".to_string());
    }
    let options = if options.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", options.join(" "))
    };
    let mut passes = Vec::new();
    // Lowering verifies first, so --acopy-verify adds nothing when both are given.
    if cli.acopy_lower {
        passes.push(format!("acopy-lower{options}"));
    } else if cli.acopy_verify || cli.acopy_fallback || cli.emit != Emit::Mlir {
        passes.push(format!("acopy-verify{options}"));
    }
    Some(format!("builtin.module({})", passes.join(",")))
}

/// Parses `text`, wrapping top-level ops in an implicit `builtin.module` as
/// mlir-opt does. MLIR names the buffer `""` in locations; the diagnostics
/// printer substitutes the input's name.
fn parse<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    Module::parse(context, text)
}

/// Runs one chunk and returns what to print.
pub fn run_chunk(cli: &Cli, context: &Context, text: &str) -> Result<String, ChunkError> {
    let Some(mut module) = parse(context, text) else {
        return Err(ChunkError::Diagnosed);
    };
    if acopy_dialect::check_module(&module) > 0 {
        return Err(ChunkError::Diagnosed);
    }
    let manager = PassManager::new(context);
    manager.enable_verifier(true);
    if cli.print_ir_after_all {
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
    if cli.timing {
        // SAFETY: the manager is alive; MLIR prints the report when it is destroyed.
        unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
    }
    if let Some(text) = pipeline_text(cli) {
        pipeline::add_pipeline(manager.as_operation_pass_manager(), &text)
            .map_err(|error| ChunkError::Usage(error.to_string()))?;
    }
    tracing::debug!(pipeline = ?pipeline_text(cli), "running passes");
    manager
        .run(&mut module)
        .map_err(|_| ChunkError::Diagnosed)?;
    drop(manager);
    match cli.emit {
        Emit::Mlir => Ok(format!("{}\n", module.as_operation())),
        Emit::Llvm | Emit::Ptx => {
            let _ = (registry::PASSES, PassOptions::default());
            Err(ChunkError::Usage(
                "--emit=llvm and --emit=ptx are not available yet".into(),
            ))
        }
    }
}
