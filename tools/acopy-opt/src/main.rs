//! `acopy-opt`: an mlir-opt-like driver for the acopy dialect and passes.
//!
//! Exit status (docs/acopy-opt.md): 0 on success, 1 when any error diagnostic was
//! reported (or `--verify-diagnostics` found a mismatch), 2 on bad usage
//! (unknown flag or chip name, unreadable input, malformed `--pass-pipeline`).

mod cli;
mod diagnostics;
mod heap;
mod output;
mod process;
mod split;

use std::{
    io::{Read, Write},
    path::Path,
    process::ExitCode,
};

use acopy_expect::{Diagnostic, Severity};
use clap::Parser;

use crate::{cli::Cli, diagnostics::Sink, process::ChunkError};

const SEPARATOR: &[u8] = b"// -----\n";

/// The stack of the thread that does the work. MLIR's parser, verifier,
/// passes and printer recurse once per nesting level; the source check
/// (`acopy_dialect::source`) refuses input nested deeper than
/// `MAX_NESTING`, and this stack holds that depth with a wide margin
/// (docs/robustness.md records the measurement). Pages are only touched
/// when used, so the size costs address space, not memory.
const WORKER_STACK: usize = 256 << 20;

/// How a run ended.
enum Failure {
    Diagnosed,
    Usage(String),
}

fn main() -> ExitCode {
    heap::grow_heaps_whole();
    let cli = Cli::parse();
    init_tracing(cli.debug);
    let worker = std::thread::Builder::new()
        .name("acopy-opt".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(&cli));
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            eprintln!("acopy-opt: internal error: the driver panicked (message above)");
            Err(Failure::Diagnosed)
        }),
        Err(error) => Err(Failure::Usage(format!(
            "could not start a thread with a {} MiB stack: {error}",
            WORKER_STACK >> 20
        ))),
    };
    match result {
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

/// The input's name for diagnostics and its bytes. Any bytes: MLIR's parser,
/// like mlir-opt, takes NULs and bytes that are not UTF-8.
fn read_input(path: &str) -> Result<(String, Vec<u8>), Failure> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|error| Failure::Usage(format!("could not read standard input: {error}")))?;
        return Ok(("<stdin>".to_string(), bytes));
    }
    let bytes = std::fs::read(path)
        .map_err(|error| Failure::Usage(format!("could not open input file '{path}': {error}")))?;
    Ok((path.to_string(), bytes))
}

fn run(cli: &Cli) -> Result<(), Failure> {
    if cli.pass_pipeline.is_some() && cli.has_pass_flags() {
        return Err(Failure::Usage(
            "--pass-pipeline cannot be combined with --acopy-verify, --acopy-lower or --acopy-fallback".into(),
        ));
    }
    let output_path = cli.output.as_deref().filter(|path| path.as_os_str() != "-");
    if let (Some(output), Some(manifest)) = (output_path, &cli.tma_manifest) {
        if output::same_file(output, manifest) {
            return Err(Failure::Usage(format!(
                "-o and --tma-manifest name the same file '{}'",
                output.display()
            )));
        }
    }
    let (source_name, input) = read_input(&cli.input)?;
    let mut outputs: Vec<Vec<u8>> = Vec::new();
    let mut manifest = acopy_manifest::Manifest::new();
    let mut failed = false;
    // One context for every chunk: creating one loads every dialect, which
    // cost about 9 ms a chunk. The chunks' modules are independent.
    let context = acopy_passes::context::create_context().map_err(|error| {
        eprintln!("acopy-opt: internal error: {error}");
        Failure::Diagnosed
    })?;
    // The pipeline keeps diagnostics in order on any number of threads.
    context.enable_multi_threading(process::threads(cli));
    let sink = Sink::default();
    sink.attach(&context);
    let pipeline = process::pipeline(cli);
    let printing = process::Printing::from_cli(cli);
    for chunk in split::split_input(&input, cli.split_input_file) {
        let result = process::run_chunk(&pipeline, &context, chunk.bytes, &mut manifest, printing);
        let diagnostics = sink.take_for(&source_name, chunk.lines_before);
        match &result {
            Err(ChunkError::Usage(message)) => return Err(Failure::Usage(message.clone())),
            Err(ChunkError::Internal(message)) => {
                eprintln!("acopy-opt: internal error: {message}");
                return Err(Failure::Diagnosed);
            }
            _ => {}
        }
        let chunk_ok = if cli.verify_diagnostics {
            verify_chunk(&chunk, &source_name, &diagnostics)
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
    // One chunk (no --split-input-file) is written as it is: joining copied
    // the whole output once more.
    let text = if outputs.len() == 1 {
        outputs.pop().unwrap_or_default()
    } else {
        outputs.join(SEPARATOR)
    };
    // Both files or neither: the manifest is staged with the output.
    let manifest_json = cli
        .tma_manifest
        .as_ref()
        .map(|path| (path.as_path(), manifest.to_json_pretty().into_bytes()));
    let mut files: Vec<(&Path, &[u8])> = Vec::new();
    if let Some((path, json)) = &manifest_json {
        files.push((path, json));
    }
    // `-o -` is standard output, as in mlir-opt.
    if let Some(path) = output_path {
        files.push((path, &text));
    }
    output::write_together(&files).map_err(|error| {
        eprintln!("acopy-opt: error: {error}");
        Failure::Diagnosed
    })?;
    if output_path.is_some() {
        return Ok(());
    }
    // A closed pipe (`acopy-opt ... | head`) is not an error worth a panic.
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&text).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("acopy-opt: error: could not write standard output: {error}");
            Err(Failure::Diagnosed)
        }
        _ => Ok(()),
    }
}

/// Checks the chunk's diagnostics against its `expected-*` comments and prints
/// every mismatch; returns whether all matched. Bytes that are not UTF-8 are
/// read as U+FFFD, which leaves lines where they were.
fn verify_chunk(chunk: &split::Chunk, source_name: &str, diagnostics: &[Diagnostic]) -> bool {
    let lines_before = u32::try_from(chunk.lines_before).unwrap_or(u32::MAX);
    let converted: Vec<Diagnostic> = diagnostics
        .iter()
        // MLIR attaches the failing op as a note; mlir-opt turns that off under
        // --verify-diagnostics, which the C API cannot, so drop it here.
        .filter(|d| !d.is_op_dump())
        .map(|d| {
            // Lines in the chunk, as the checker counts them; another file's
            // (or an unknown) position is outside the buffer.
            let position = d
                .position
                .clone()
                .filter(|position| position.file == source_name)
                .map(|mut position| {
                    position.line = position.line.saturating_sub(lines_before);
                    position
                });
            Diagnostic {
                position,
                ..d.clone()
            }
        })
        .collect();
    let outcome = acopy_expect::check(&String::from_utf8_lossy(chunk.bytes), &converted);
    for problem in &outcome.problems {
        let mut problem = problem.clone();
        if problem.line > 0 {
            problem.line = problem.line.saturating_add(lines_before);
        }
        eprintln!("{}", problem.render(source_name));
    }
    outcome.is_ok()
}
