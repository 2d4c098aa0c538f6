//! Command-line flags, mlir-opt style (docs/acopy-opt.md).

use std::path::PathBuf;

use acopy::{Chip, Emit};
use clap::{
    builder::{PossibleValue, PossibleValuesParser, TypedValueParser},
    Parser,
};

/// acopy-opt: parse acopy MLIR, run acopy and upstream passes, print the result.
#[derive(Debug, Parser)]
#[command(name = "acopy-opt", version, about, long_about = None)]
pub struct Cli {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    pub input: String,

    /// Output file (written atomically: nothing is written when the run fails).
    #[arg(short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Treat `// -----` lines as boundaries between independent cases.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,

    /// Check diagnostics against `// expected-*` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,

    /// Run acopy-verify: the documented errors (docs/verification.md) for the target chip.
    #[arg(long = "acopy-verify")]
    pub acopy_verify: bool,

    /// Run acopy-pipeline: multi-buffer the loops marked acopy.pipeline (docs/pipelining.md).
    #[arg(long = "acopy-pipeline")]
    pub acopy_pipeline: bool,

    /// Run acopy-lower: lower acopy ops to NVVM (verification runs first).
    #[arg(long = "acopy-lower")]
    pub acopy_lower: bool,

    /// Opt-in fallback mode for pre-Hopper chips (docs/verification.md).
    #[arg(long = "acopy-fallback")]
    pub acopy_fallback: bool,

    /// Target chip, overriding each gpu.module's #nvvm.target.
    #[arg(long = "chip", value_name = "sm_XX", value_parser = parse_chip)]
    pub chip: Option<Chip>,

    /// A pass pipeline mixing acopy and upstream passes, e.g.
    /// `builtin.module(acopy-lower{chip=sm_90},canonicalize)`.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,

    /// What to print.
    #[arg(long = "emit", value_parser = emit_parser(), default_value = "mlir")]
    pub emit: Emit,

    /// Write the manifest as JSON to FILE: every kernel's tensor maps and launch facts
    /// (arguments, block, cluster, shared memory, chip).
    #[arg(long = "tma-manifest", value_name = "FILE")]
    pub tma_manifest: Option<PathBuf>,

    /// Print the IR after every pass (to standard error).
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,

    /// Print each op's source location (`loc(...)`) in the MLIR output.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,

    /// Print locations and attributes where they are used, not as `#loc`
    /// aliases at the end of the output (so FileCheck can match them on an op's line).
    #[arg(long = "mlir-print-local-scope")]
    pub print_local_scope: bool,

    /// Print pass timings (to standard error).
    #[arg(long = "mlir-timing")]
    pub timing: bool,

    /// Run every pass on the calling thread (by default the gpu.modules are
    /// compiled on MLIR's thread pool; the output is the same).
    #[arg(long = "mlir-disable-threading")]
    pub disable_threading: bool,

    /// Log what the driver and passes do (to standard error); ACOPY_LOG=<filter> refines it.
    #[arg(long = "debug")]
    pub debug: bool,
}

/// `--emit`'s values, each with its line for `--help`.
fn emit_parser() -> impl TypedValueParser<Value = Emit> {
    let help = |emit: Emit| match emit {
        Emit::Mlir => "The module after the passes, as MLIR",
        Emit::Llvm => "Each gpu.module lowered to LLVM IR",
        Emit::Ptx => "Each gpu.module compiled to PTX for its chip",
    };
    PossibleValuesParser::new(
        Emit::ALL.map(|emit| PossibleValue::new(emit.name()).help(help(emit))),
    )
    // Only the names listed above get here.
    .map(|name| Emit::parse(&name).unwrap_or_default())
}

fn parse_chip(text: &str) -> Result<Chip, String> {
    Chip::parse(text).map_err(|error| error.to_string())
}

impl Cli {
    /// Whether any pass flag was given.
    pub fn has_pass_flags(&self) -> bool {
        self.acopy_verify || self.acopy_lower || self.acopy_fallback || self.acopy_pipeline
    }
}
