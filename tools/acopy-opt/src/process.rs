//! Running one input chunk: parse, check, run the passes, render the output.

use acopy::{Emit, Instrumentation, Options, Passes, Pipeline, RunError};
use acopy_manifest::Manifest;
use melior::{ir::Module, Context};

use crate::cli::Cli;

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

/// What to run, from the flags: `--pass-pipeline`, or the `--acopy-*` flags
/// with the chip and fallback mode as typed options of the pass.
pub fn pipeline(cli: &Cli) -> Pipeline {
    let passes = if let Some(text) = &cli.pass_pipeline {
        Passes::Text(text.clone())
    } else if cli.acopy_lower {
        // Lowering pipelines and verifies first, so --acopy-pipeline and
        // --acopy-verify add nothing when given with it.
        Passes::Lower
    } else if cli.acopy_pipeline {
        if cli.acopy_verify || cli.acopy_fallback {
            Passes::PipelineThenVerify
        } else {
            Passes::Pipeline
        }
    } else if cli.acopy_verify || cli.acopy_fallback || cli.emit != Emit::Mlir {
        Passes::Verify
    } else {
        Passes::Nothing
    };
    Pipeline {
        passes,
        options: Options {
            chip: cli.chip,
            fallback: cli.acopy_fallback,
            emit: cli.emit,
            threads: Some(threads(cli)),
        },
        manifest: cli.tma_manifest.is_some(),
        instrumentation: Instrumentation {
            print_ir_after_all: cli.print_ir_after_all,
            timing: cli.timing,
        },
    }
}

/// Whether the context runs passes on MLIR's thread pool. IR printing after
/// each pass would interleave the dumps of passes running at once, so it
/// runs on one thread, like `--mlir-disable-threading`.
pub fn threads(cli: &Cli) -> bool {
    !cli.disable_threading && !cli.print_ir_after_all
}

/// How `--emit=mlir` prints the module (`--mlir-print-debuginfo`,
/// `--mlir-print-local-scope`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Printing {
    pub debug_info: bool,
    pub local_scope: bool,
}

impl Printing {
    pub fn from_cli(cli: &Cli) -> Self {
        Self {
            debug_info: cli.print_debuginfo,
            local_scope: cli.print_local_scope,
        }
    }
}

/// The op as MLIR text, as bytes: a module parsed from bytes that are not
/// UTF-8 can print them back, and melior's `Display` would then fail.
fn print_bytes(module: &Module, printing: Printing) -> Vec<u8> {
    let mut bytes: Vec<u8> = Vec::new();
    // SAFETY: the module is live; `append_bytes` only writes to `bytes`, which
    // outlives the call; the flags are destroyed after their one use.
    unsafe {
        // The module was verified when it was parsed and after every pass (the
        // pass manager's verifier is on), so the printer need not verify it
        // again: that second verification cost about a tenth of a lowering run.
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags);
        if printing.debug_info {
            mlir_sys::mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
        }
        if printing.local_scope {
            mlir_sys::mlirOpPrintingFlagsUseLocalScope(flags);
        }
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

/// Runs one chunk through `pipeline` and returns what to print.
/// With `--tma-manifest`, the kernels' entries (tensor maps, launch facts) are appended to `manifest`,
/// read after the acopy passes and before the upstream lowering (which drops
/// the `acopy.tensor_maps` attributes when it makes PTX).
pub fn run_chunk(
    pipeline: &Pipeline,
    context: &Context,
    text: &[u8],
    manifest: &mut Manifest,
    printing: Printing,
) -> Result<Vec<u8>, ChunkError> {
    // Text MLIR's parser would crash on is refused first, with an error at it.
    let Some(mut module) = acopy_dialect::source::parse_module(context, text) else {
        return Err(ChunkError::Diagnosed);
    };
    let prepared = pipeline.prepare(context, &module).map_err(run_error)?;
    tracing::debug!(pipeline = %pipeline, "running passes");
    let ran = prepared.run(&mut module).map_err(|error| match error {
        RunError::Manifest(error) => {
            acopy_dialect::diagnostics::emit_error(
                error.location(context),
                &format!("cannot write the tensor-map manifest: {error}"),
            );
            ChunkError::Diagnosed
        }
        error => run_error(error),
    })?;
    if let Some(found) = ran.manifest {
        manifest.kernels.extend(found.kernels);
    }
    // One text per gpu.module, in order, each headed by a comment naming it.
    let comment = match pipeline.options.emit {
        Emit::Mlir => {
            let printed = print_bytes(&module, printing);
            // The driver exits once the chunks are written: freeing a large
            // module op by op took a fortieth of a lowering run, for memory the
            // process returns anyway (clang's -disable-free). Only the
            // lowered module of a chunk that succeeded is kept so.
            std::mem::forget(module);
            return Ok(printed);
        }
        Emit::Llvm => ";",
        Emit::Ptx => "//",
    };
    let mut text = String::new();
    for output in ran.outputs {
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

fn run_error(error: RunError) -> ChunkError {
    match error {
        RunError::Diagnosed | RunError::Manifest(_) => ChunkError::Diagnosed,
        RunError::Pipeline(error) => ChunkError::Usage(error.to_string()),
        RunError::Internal(message) => ChunkError::Internal(message),
    }
}
