//! Running one input chunk: parse, check, run the passes, render the output.

use acopy_manifest::Manifest;
use acopy_passes::{emit, pipeline};
use melior::{
    ir::{Location, Module},
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
    /// A bug in acopy, not in the input; exit status 1.
    Internal(String),
}

/// The passes to run, from `--pass-pipeline` or the `--acopy-*` flags.
pub fn pipeline_text(cli: &Cli) -> String {
    if let Some(text) = &cli.pass_pipeline {
        return text.clone();
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
    format!("builtin.module({})", passes.join(","))
}

/// Parses `text`, wrapping top-level ops in an implicit `builtin.module` as
/// mlir-opt does. MLIR names the buffer `""` in locations; the diagnostics
/// printer substitutes the input's name.
/// Text the parser would crash on is refused first, with an error at it
/// (`prescan`).
fn parse<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    let problems = crate::prescan::scan(text);
    for problem in &problems {
        let location = Location::new(context, "", problem.line, problem.column);
        acopy_dialect::diagnostics::emit_error(location, &problem.message);
    }
    if !problems.is_empty() {
        return None;
    }
    Module::parse(context, text)
}

/// Runs one chunk and returns what to print.
/// With `--tma-manifest`, the kernels' tensor maps are appended to `manifest`,
/// read after the acopy passes and before the upstream lowering (which drops
/// the `acopy.tensor_maps` attributes when it makes PTX).
pub fn run_chunk(
    cli: &Cli,
    context: &Context,
    text: &str,
    manifest: &mut Manifest,
) -> Result<String, ChunkError> {
    let Some(mut module) = parse(context, text) else {
        return Err(ChunkError::Diagnosed);
    };
    if acopy_dialect::check_module(&module) > 0 {
        return Err(ChunkError::Diagnosed);
    }
    let manager = new_manager(cli, context);
    let pipeline_text = pipeline_text(cli);
    pipeline::add_pipeline(manager.as_operation_pass_manager(), &pipeline_text)
        .map_err(|error| ChunkError::Usage(error.to_string()))?;
    let format = match cli.emit {
        Emit::Mlir => None,
        Emit::Llvm => Some(emit::Format::Llvm),
        Emit::Ptx => Some(emit::Format::Ptx),
    };
    // The manifest is read between the acopy passes and the emit passes, so
    // those run in a second pass manager when it is asked for.
    let second = cli
        .tma_manifest
        .is_some()
        .then(|| new_manager(cli, context));
    if let Some(format) = format {
        let target = second.as_ref().unwrap_or(&manager);
        emit::add_passes(target.as_operation_pass_manager(), format, cli.chip)
            .map_err(|error| ChunkError::Internal(error.to_string()))?;
    }
    tracing::debug!(pipeline = %pipeline_text, "running passes");
    manager
        .run(&mut module)
        .map_err(|_| ChunkError::Diagnosed)?;
    drop(manager);
    if let Some(second) = second {
        let found =
            acopy_passes::manifest::collect(module.as_operation(), cli.chip).map_err(|error| {
                acopy_dialect::diagnostics::emit_error(
                    error.location(context),
                    &format!("cannot write the tensor-map manifest: {error}"),
                );
                ChunkError::Diagnosed
            })?;
        manifest.kernels.extend(found.kernels);
        if format.is_some() {
            second.run(&mut module).map_err(|_| ChunkError::Diagnosed)?;
        }
    }
    let Some(format) = format else {
        return Ok(format!("{}\n", module.as_operation()));
    };
    // One text per gpu.module, in order, each headed by a comment naming it.
    let comment = match format {
        emit::Format::Llvm => ";",
        emit::Format::Ptx => "//",
    };
    let outputs = emit::collect(&module, format).map_err(|error| match error {
        emit::CollectError::Diagnosed => ChunkError::Diagnosed,
        emit::CollectError::Internal(message) => ChunkError::Internal(message),
    })?;
    let mut text = String::new();
    for output in outputs {
        text.push_str(&format!(
            "{comment} acopy-opt: gpu.module @{}\n",
            output.name
        ));
        text.push_str(&output.text);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(text)
}

/// A pass manager with the driver's verifier, printing and timing settings.
fn new_manager<'c>(cli: &Cli, context: &'c Context) -> PassManager<'c> {
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
    manager
}
