//! `acopy-opt`: an mlir-opt-like driver for the acopy dialect and passes.
//!
//! Exit status (SPEC §5): 0 on success, 1 when any error diagnostic was
//! reported (or `--verify-diagnostics` found a mismatch), 2 on bad usage
//! (unknown flag or chip name, unreadable input, malformed `--pass-pipeline`).

mod cli;
mod diagnostics;
mod output;
mod prescan;
mod process;
mod split;

use std::{
    io::{Read, Write},
    process::ExitCode,
};

use acopy_expect::Severity;
use clap::Parser;

use crate::{
    cli::Cli,
    diagnostics::{Collected, Sink},
    process::ChunkError,
};

const SEPARATOR: &str = "// -----\n";

/// How a run ended.
enum Failure {
    Diagnosed,
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.debug);
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Diagnosed) => ExitCode::from(1),
        Err(Failure::Usage(message)) => {
            eprintln!("acopy-opt: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn init_tracing(debug: bool) {
    let default = if debug { "debug" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("ACOPY_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Colour codes only for a terminal, not for a log file or FileCheck.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .init();
}

fn read_input(path: &str) -> Result<(String, String), Failure> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| Failure::Usage(format!("could not read standard input: {error}")))?;
        return Ok(("<stdin>".to_string(), text));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|error| Failure::Usage(format!("could not open input file '{path}': {error}")))?;
    Ok((path.to_string(), text))
}

fn run(cli: &Cli) -> Result<(), Failure> {
    if cli.pass_pipeline.is_some() && cli.has_pass_flags() {
        return Err(Failure::Usage(
            "--pass-pipeline cannot be combined with --acopy-verify, --acopy-lower or --acopy-fallback".into(),
        ));
    }
    let (source_name, input) = read_input(&cli.input)?;
    let mut outputs = Vec::new();
    let mut manifest = acopy_manifest::Manifest::new();
    let mut failed = false;
    for chunk in split::split_input(&input, cli.split_input_file) {
        let context = acopy_passes::context::create_context().map_err(|error| {
            eprintln!("acopy-opt: internal error: {error}");
            Failure::Diagnosed
        })?;
        // One thread keeps diagnostics and IR printing in order.
        context.enable_multi_threading(false);
        let sink = Sink::default();
        sink.attach(&context);
        let result = process::run_chunk(cli, &context, &chunk.text, &mut manifest);
        let diagnostics = sink.take_for(&source_name);
        match &result {
            Err(ChunkError::Usage(message)) => return Err(Failure::Usage(message.clone())),
            Err(ChunkError::Internal(message)) => {
                eprintln!("acopy-opt: internal error: {message}");
                return Err(Failure::Diagnosed);
            }
            _ => {}
        }
        let chunk_ok = if cli.verify_diagnostics {
            verify_chunk(&chunk.text, &source_name, &diagnostics)
        } else {
            for diagnostic in &diagnostics {
                // MLIR attaches the whole failing op (for a translation failure,
                // the whole module) as a note; keep it for --debug only.
                if !cli.debug && diagnostic.is_op_dump() {
                    continue;
                }
                eprintln!("{}", diagnostic.render(&source_name));
            }
            result.is_ok() && !diagnostics.iter().any(|d| d.severity == Severity::Error)
        };
        failed |= !chunk_ok;
        if let Ok(text) = result {
            outputs.push(text);
        }
    }
    if failed {
        return Err(Failure::Diagnosed);
    }
    if let Some(path) = &cli.tma_manifest {
        output::write_atomically(path, &manifest.to_json_pretty()).map_err(|error| {
            eprintln!("acopy-opt: error: {error}");
            Failure::Diagnosed
        })?;
    }
    let text = outputs.join(SEPARATOR);
    // `-o -` is standard output, as in mlir-opt.
    match cli.output.as_deref().filter(|path| path.as_os_str() != "-") {
        Some(path) => output::write_atomically(path, &text).map_err(|error| {
            eprintln!("acopy-opt: error: {error}");
            Failure::Diagnosed
        }),
        None => {
            // A closed pipe (`acopy-opt ... | head`) is not an error worth a panic.
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("acopy-opt: error: could not write standard output: {error}");
                    Err(Failure::Diagnosed)
                }
                _ => Ok(()),
            }
        }
    }
}

/// Checks the chunk's diagnostics against its `expected-*` comments and prints
/// every mismatch; returns whether all matched.
fn verify_chunk(text: &str, source_name: &str, diagnostics: &[Collected]) -> bool {
    let converted: Vec<acopy_expect::Diagnostic> = diagnostics
        .iter()
        // MLIR attaches the failing op as a note; mlir-opt turns that off under
        // --verify-diagnostics, which the C API cannot, so drop it here.
        .filter(|d| {
            !(d.severity == Severity::Note && d.message.starts_with("see current operation"))
        })
        .map(|d| {
            let (in_buffer, line, column) = match &d.position {
                Some((file, line, column)) if file == source_name => (true, *line, *column),
                _ => (false, 0, 0),
            };
            acopy_expect::Diagnostic {
                severity: d.severity,
                line,
                column,
                message: d.message.clone(),
                in_buffer,
            }
        })
        .collect();
    let outcome = acopy_expect::check(text, &converted);
    for problem in &outcome.problems {
        eprintln!("{}", problem.render(source_name));
    }
    outcome.is_ok()
}
