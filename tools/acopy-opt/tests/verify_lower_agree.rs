//! The verification promise as a property: every case that `acopy-opt
//! --acopy-verify` accepts, in strict mode and with `--acopy-fallback`, also
//! succeeds with `--acopy-lower --emit=ptx` under the same flags.
//!
//! The cases are every `// -----` chunk of every `.mlir` file under `tests/`
//! and `examples/` (the corpus of `robustness.rs`), and the chunks of seeded
//! mutants of them (the same mutator, in `mutants/`). Each input runs as one
//! `--split-input-file` process per mode and step; diagnostics carry the
//! whole file's line numbers, so each error is traced back to its chunk.
//!
//! In scope are the chunks that hold a `gpu.module` and an acopy op. Three
//! `--emit` refusals that concern no acopy op, and that `acopy-verify`
//! deliberately leaves to `--emit` (docs/verification.md, "Verify and lower
//! agree"), do not count against a chunk: a symbol name PTX cannot spell, a
//! workgroup or private attribution in a memory space `convert-gpu-to-nvvm`
//! cannot lower, and a gpu.module without acopy ops whose chip cannot be
//! determined. Any other failure prints the chunk and acopy-opt's errors.
//!
//! Environment: `ACOPY_AGREE_SEED`, `ACOPY_AGREE_MUTANTS` (default
//! [`DEFAULT_MUTANTS`]); `ACOPY_FUZZ_BIN` as in `robustness.rs`.

mod mutants;

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    thread,
    time::Instant,
};

use mutants::{collect_corpus, env_number, make_mutant, workspace_root};

const DEFAULT_SEED: u64 = 0xa9_7ee5_2026;
const DEFAULT_MUTANTS: usize = 80;
const THREADS: usize = 2;

/// `--emit` refusals of IR that holds no acopy op's problem (see the module
/// comment).
const EMIT_ONLY: [&str; 3] = [
    "cannot be written in PTX",
    "attribution",
    "cannot determine the target chip",
];

fn binary() -> PathBuf {
    std::env::var_os("ACOPY_FUZZ_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_acopy-opt")),
        PathBuf::from,
    )
}

/// A chunk of an input: its first line (1-based, in the whole input) and text.
struct Chunk {
    first_line: usize,
    text: String,
}

fn split_chunks(text: &str) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut first_line = 1;
    for (index, line) in text.lines().enumerate() {
        if line.trim() == "// -----" {
            chunks.push(Chunk {
                first_line,
                text: std::mem::take(&mut current),
            });
            first_line = index + 2;
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    chunks.push(Chunk {
        first_line,
        text: current,
    });
    chunks
}

/// Whether a chunk holds a gpu.module and an acopy op, outside comments.
fn in_scope(chunk: &str) -> bool {
    let code: Vec<&str> = chunk
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect();
    code.iter().any(|line| line.contains("gpu.module"))
        // Either form: `"acopy.copy_gmem_to_smem"(` or `acopy.copy_gmem_to_smem %`.
        && code.iter().any(|line| {
            ["acopy.copy_", "acopy.wait_", "acopy.barrier_"]
                .iter()
                .any(|op| line.contains(op))
        })
}

struct Run {
    ok: bool,
    stderr: String,
}

fn run(input: &Path, flags: &[&str]) -> Run {
    let output = Command::new(binary())
        .arg(input)
        .arg("--split-input-file")
        .args(flags)
        .args(["-o", "/dev/null"])
        .env("NO_COLOR", "1")
        .env_remove("ACOPY_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("acopy-opt could not be started");
    Run {
        ok: output.status.success(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The error lines of `stderr`, as (line number in `input`, text); `None`
/// for an error acopy-opt could not place in the input (line 0 is an unknown
/// location, such as `loc("":0:0)`).
fn errors(stderr: &str, input: &Path) -> Vec<(Option<usize>, String)> {
    let prefix = format!("{}:", input.display());
    stderr
        .lines()
        .filter(|line| line.contains("error:"))
        .map(|line| {
            let number = line
                .strip_prefix(&prefix)
                .and_then(|rest| rest.split(':').next())
                .and_then(|number| number.parse().ok())
                .filter(|&number: &usize| number > 0);
            (number, line.to_string())
        })
        .collect()
}

/// The chunk that holds `line`.
fn chunk_of(chunks: &[Chunk], line: usize) -> usize {
    chunks
        .iter()
        .rposition(|chunk| chunk.first_line <= line)
        .unwrap_or(0)
}

/// Checks one input in one mode; returns the failures' reports.
fn check_input(name: &str, text: &str, fallback: bool, work: &Path) -> Vec<String> {
    let chunks = split_chunks(text);
    if !chunks.iter().any(|chunk| in_scope(&chunk.text)) {
        return Vec::new();
    }
    let mode: &[&str] = if fallback { &["--acopy-fallback"] } else { &[] };
    let input = work.join("input.mlir");
    fs::write(&input, text).expect("cannot write the input");
    let verified = run(&input, &[&["--acopy-verify"], mode].concat());
    let mut rejected = BTreeSet::new();
    for (line, _) in errors(&verified.stderr, &input) {
        match line {
            Some(line) => {
                rejected.insert(chunk_of(&chunks, line));
            }
            // An error without a place: nothing here can be trusted.
            None => return Vec::new(),
        }
    }
    if !verified.ok && rejected.is_empty() {
        return Vec::new();
    }
    // The accepted chunks in scope, in one input again, keeping their lines.
    let accepted: Vec<usize> = (0..chunks.len())
        .filter(|index| !rejected.contains(index) && in_scope(&chunks[*index].text))
        .collect();
    if accepted.is_empty() {
        return Vec::new();
    }
    let mut joined = String::new();
    let mut placed = Vec::new();
    for (position, &index) in accepted.iter().enumerate() {
        if position > 0 {
            joined.push_str("// -----\n");
        }
        placed.push(Chunk {
            first_line: joined.lines().count() + 1,
            text: chunks[index].text.clone(),
        });
        joined.push_str(&chunks[index].text);
    }
    let lower_input = work.join("accepted.mlir");
    fs::write(&lower_input, &joined).expect("cannot write the input");
    let lowered = run(
        &lower_input,
        &[&["--acopy-lower", "--emit=ptx"], mode].concat(),
    );
    if lowered.ok {
        return Vec::new();
    }
    let mut failing: BTreeSet<usize> = BTreeSet::new();
    let mut unplaced = Vec::new();
    for (line, message) in errors(&lowered.stderr, &lower_input) {
        if EMIT_ONLY.iter().any(|text| message.contains(text)) {
            continue;
        }
        match line {
            Some(line) => {
                failing.insert(chunk_of(&placed, line));
            }
            None => unplaced.push(message),
        }
    }
    if failing.is_empty() && unplaced.is_empty() && lowered.stderr.contains("error:") {
        return Vec::new();
    }
    let flags = if fallback { " --acopy-fallback" } else { "" };
    let mut reports = Vec::new();
    for index in failing {
        reports.push(format!(
            "{name}, chunk at line {}: `--acopy-verify{flags}` accepts it, `--acopy-lower --emit=ptx{flags}` fails:\n{}\n--- input ---\n{}",
            chunks[accepted[index]].first_line,
            lowered.stderr.trim_end(),
            placed[index].text
        ));
    }
    if !unplaced.is_empty() || reports.is_empty() {
        reports.push(format!(
            "{name}: `--acopy-verify{flags}` accepts it, `--acopy-lower --emit=ptx{flags}` fails:\n{}\n--- input ---\n{joined}",
            lowered.stderr.trim_end()
        ));
    }
    reports
}

#[test]
fn what_verify_accepts_lowers_and_emits() {
    let root = workspace_root();
    let corpus = collect_corpus(&root);
    assert!(
        corpus.len() >= 20,
        "the corpus has only {} files",
        corpus.len()
    );
    let seed = env_number("ACOPY_AGREE_SEED").unwrap_or(DEFAULT_SEED);
    let count = env_number("ACOPY_AGREE_MUTANTS").map_or(DEFAULT_MUTANTS, |n| n as usize);
    let mut inputs: Vec<(String, String)> = corpus.clone();
    for case in 0..count {
        let (file, text, mutations) = make_mutant(&corpus, seed, case);
        inputs.push((
            format!("mutant {case} of {file} ({})", mutations.join("; ")),
            text,
        ));
    }
    let in_scope_chunks: usize = corpus
        .iter()
        .flat_map(|(_, text)| split_chunks(text))
        .filter(|chunk| in_scope(&chunk.text))
        .count();
    // Guard against a vacuous property: the corpus must exercise it.
    assert!(
        in_scope_chunks >= 100,
        "only {in_scope_chunks} corpus chunks are in scope"
    );

    let started = Instant::now();
    let work_root = root.join("target/verify-lower-agree");
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for worker in 0..THREADS {
            let (inputs, next, failures) = (&inputs, &next, &failures);
            let work = work_root.join(format!("{}-{worker}", std::process::id()));
            scope.spawn(move || {
                fs::create_dir_all(&work).expect("cannot create a work directory");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((name, text)) = inputs.get(i) else {
                        break;
                    };
                    for fallback in [false, true] {
                        let found = check_input(name, text, fallback, &work);
                        failures.lock().expect("failures lock").extend(found);
                    }
                }
                let _ = fs::remove_dir_all(&work);
            });
        }
    });
    let failures = failures.into_inner().expect("failures lock");
    println!(
        "verify/lower agreement: {} corpus files ({in_scope_chunks} chunks in scope) and {count} mutants (seed {seed:#x}), strict and fallback, {:.1} s",
        corpus.len(),
        started.elapsed().as_secs_f64()
    );
    for failure in &failures {
        eprintln!("{failure}\n");
    }
    assert!(
        failures.is_empty(),
        "{} cases verify but do not lower (details above)",
        failures.len()
    );
}

#[test]
fn chunks_keep_their_lines() {
    let chunks = split_chunks("a\n// -----\nb\nc\n// -----\nd\n");
    let starts: Vec<usize> = chunks.iter().map(|chunk| chunk.first_line).collect();
    assert_eq!(starts, [1, 3, 6]);
    assert_eq!(chunk_of(&chunks, 4), 1);
    assert_eq!(chunk_of(&chunks, 6), 2);
    let input = Path::new("/x/in.mlir");
    let found = errors(
        "/x/in.mlir:4:3: error: a\n/x/in.mlir:0:0: error: b\nnote: c\n",
        input,
    );
    let lines: Vec<Option<usize>> = found.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [Some(4), None]);
    assert!(in_scope(
        "gpu.module @m {\n \"acopy.wait_gmem_to_smem\"() : () -> ()\n}"
    ));
    assert!(in_scope(
        "gpu.module @m {\n acopy.barrier_init %b : memref<1xi64, 3>\n}"
    ));
    assert!(!in_scope("// gpu.module\n\"acopy.copy_gmem_to_smem\"()"));
    assert!(!in_scope("gpu.module @m {\n} // acopy.wait_gmem_to_smem"));
}
