//! Running one input chunk: parse, check, run the passes, render the output.

use acopy_manifest::Manifest;
use acopy_passes::{emit, pipeline};
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
    // Lowering pipelines and verifies first, so --acopy-pipeline and
    // --acopy-verify add nothing when given with it.
    if cli.acopy_pipeline && !cli.acopy_lower {
        passes.push(format!("acopy-pipeline{options}"));
    }
    if cli.acopy_lower {
        passes.push(format!("acopy-lower{options}"));
    } else if cli.acopy_verify
        || cli.acopy_fallback
        || (cli.emit != Emit::Mlir && !cli.acopy_pipeline)
    {
        passes.push(format!("acopy-verify{options}"));
    }
    format!("builtin.module({})", passes.join(","))
}

/// The op as MLIR text, as bytes: a module parsed from bytes that are not
/// UTF-8 can print them back, and melior's `Display` would then fail.
fn print_bytes(module: &Module) -> Vec<u8> {
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: the module is live; `append_bytes` only writes to `bytes`, which
    // outlives the call; the flags are destroyed after their one use.
    unsafe {
        // The module was verified when it was parsed and after every pass (the
        // pass manager's verifier is on), so the printer need not verify it
        // again: that second verification cost about a tenth of a lowering run.
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags);
        mlir_sys::mlirOperationPrintWithFlags(
            module.as_operation().to_raw(),
            flags,
            Some(acopy_passes::diagnostics::append_bytes),
            (&mut bytes as *mut Vec<u8>).cast(),
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
    bytes.push(b'\n');
    bytes
}

/// Runs one chunk and returns what to print.
/// With `--tma-manifest`, the kernels' tensor maps are appended to `manifest`,
/// read after the acopy passes and before the upstream lowering (which drops
/// the `acopy.tensor_maps` attributes when it makes PTX).
pub fn run_chunk(
    cli: &Cli,
    context: &Context,
    text: &[u8],
    manifest: &mut Manifest,
) -> Result<Vec<u8>, ChunkError> {
    // Text MLIR's parser would crash on is refused first, with an error at it.
    let Some(mut module) = acopy_dialect::source::parse_module(context, text) else {
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
        return Ok(print_bytes(&module));
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
    Ok(text.into_bytes())
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
