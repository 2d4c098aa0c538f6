//! Mutation robustness: acopy-opt must never crash, whatever IR it is given.
//!
//! The corpus is every `.mlir` file under `tests/` (except the generated
//! `tests/gpu/ptx/`) and `examples/`. Each mutant is one corpus file with 1 to
//! 3 small, IR-aware mutations (integer literals, memref shapes, element types,
//! memory spaces, layouts, chips, acopy attributes, operands,
//! `operandSegmentSizes`, launch attributes, symbol names, locations, dropped
//! or duplicated lines), drawn from a hand-written xorshift generator with a
//! fixed seed, so a CI run is reproducible. Every mutant goes through
//! acopy-opt with [`FLAG_SETS`]; a run fails when it is killed by a signal,
//! hangs, exits with anything but 0 or 1, prints an abort or panic text, or
//! exits 1 without an `error:` line (see [`classify`]), or when acopy-lower
//! turned input that verified into IR that does not ([`invalid_output`]).
//!
//! Environment:
//! - `ACOPY_FUZZ_SEED` (decimal or `0x` hex): the campaign's seed;
//! - `ACOPY_FUZZ_CASES`: how many mutants (default [`DEFAULT_CASES`]);
//! - `ACOPY_FUZZ_CASE`: run only this mutant number, and save it under
//!   `target/robustness/` even when it passes (to reproduce one);
//! - `ACOPY_FUZZ_LOG`: a file to append each run's exit status and errors to
//!   (to look for wrong diagnostics, which are no crash);
//! - `ACOPY_FUZZ_BIN`: the acopy-opt to test instead of this build's (for
//!   example `target/release/acopy-opt`).
//!
//! A failing mutant is written to `target/robustness/` with the command that
//! fails on it. docs/robustness.md describes the campaign and its findings.

use acopy_fuzz::CRASH_TEXTS;
use std::{
    fs,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    process::ExitStatus,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    thread,
    time::{Duration, Instant},
};

mod mutants;

use mutants::{collect_corpus, env_number, make_mutant, workspace_root};

const DEFAULT_SEED: u64 = 0xacc0_5eed_2026;
const DEFAULT_CASES: usize = 500;
const THREADS: usize = 2;
const TIMEOUT: Duration = Duration::from_secs(20);

/// The command lines every mutant is run with (after the input file).
const FLAG_SETS: [&[&str]; 9] = [
    &[],
    &["--acopy-verify"],
    &["--acopy-lower"],
    // Reads the tensor maps back out of the lowered IR (or the input's).
    &["--acopy-lower", "--tma-manifest=MANIFEST"],
    &["--acopy-lower", "--emit=ptx"],
    &["--acopy-lower", "--emit=llvm"],
    &["--acopy-lower", "--acopy-fallback", "--emit=ptx"],
    &["--chip=sm_80", "--acopy-lower", "--emit=ptx"],
    &["--chip=sm_100a", "--acopy-lower", "--emit=ptx"],
];

// ---------------------------------------------------------------------------
// Running acopy-opt and judging the result.

/// Why a run counts as a crash, or None when it ended cleanly.
fn classify(status: Option<ExitStatus>, stderr: &str) -> Option<String> {
    let Some(status) = status else {
        return Some(format!("no exit within {} s (a hang)", TIMEOUT.as_secs()));
    };
    if let Some(signal) = status.signal() {
        return Some(format!("killed by signal {signal}"));
    }
    if let Some(text) = CRASH_TEXTS.iter().find(|t| stderr.contains(*t)) {
        return Some(format!("stderr contains \"{text}\""));
    }
    match status.code() {
        Some(0) => None,
        Some(1) if stderr.contains("error:") => None,
        Some(1) => Some("exit status 1 without an `error:` diagnostic".to_string()),
        // Every command line here is valid, so bad usage means the driver
        // turned a problem with the input into a usage error.
        Some(2) => Some("exit status 2 (bad usage) for a valid command line".to_string()),
        other => Some(format!("exit status {other:?}")),
    }
}

/// On input that parsed and verified, an upstream op's verifier error after
/// `--acopy-lower` means acopy produced IR that does not verify: the error
/// names an op of another dialect (`'nvvm.cp.async.shared.global' op ...`).
fn invalid_output(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|line| {
        let message = line.split_once("error: ")?.1;
        let op = message.strip_prefix('\'')?.split_once("' op ")?.0;
        (op.contains('.') && !op.starts_with("acopy.") && !op.contains(' '))
            .then(|| format!("the lowered IR does not verify: {message}"))
    })
}

/// The acopy-opt under test: this build's, or `ACOPY_FUZZ_BIN` (a release
/// build, say, where undefined behaviour shows differently).
fn binary() -> PathBuf {
    std::env::var_os("ACOPY_FUZZ_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_acopy-opt")),
        PathBuf::from,
    )
}

/// One run of acopy-opt, as the fuzzer's judge runs it (shared code).
fn run_opt(input: &Path, flags: &[&str], stderr_path: &Path) -> acopy_fuzz::Run {
    acopy_fuzz::run_acopy_opt(&binary(), input, flags, stderr_path, TIMEOUT)
        .expect("acopy-opt could not be started")
}

struct Failure {
    case: usize,
    file: String,
    mutations: Vec<String>,
    flags: Vec<String>,
    reason: String,
    stderr: String,
    saved: PathBuf,
}

#[derive(Default)]
struct Tally {
    mutants: usize,
    runs: usize,
    exit0: usize,
    exit1: usize,
    rejected_at_parse: usize,
}

/// Runs one mutant through every flag set; returns its failures.
fn check_case(
    corpus: &[(String, String)],
    seed: u64,
    case: usize,
    work: &Path,
    out_dir: &Path,
    tally: &Mutex<Tally>,
    keep: bool,
) -> Vec<Failure> {
    let (file, text, mutations) = make_mutant(corpus, seed, case);
    if keep {
        let saved = out_dir.join(format!("case-{case}.mlir"));
        fs::write(&saved, &text).expect("cannot save the mutant");
        println!("case {case}: {file} mutated by: {}", mutations.join("; "));
        println!("saved as {}", saved.display());
    }
    let input = work.join("mutant.mlir");
    fs::write(&input, &text).expect("cannot write the mutant");
    let split = text.contains("// -----");
    let mut failures = Vec::new();
    let mut runs = 0;
    let (mut exit0, mut exit1) = (0, 0);
    let mut rejected_at_parse = false;
    // Whether the plain run (parse, op checks, verifier) accepted the mutant.
    let mut parsed = false;
    let log = std::env::var_os("ACOPY_FUZZ_LOG");
    let log = log.as_deref();
    for (index, flags) in FLAG_SETS.iter().enumerate() {
        let manifest = format!("--tma-manifest={}", work.join("manifest.json").display());
        let mut flags: Vec<&str> = flags
            .iter()
            .map(|flag| {
                if *flag == "--tma-manifest=MANIFEST" {
                    manifest.as_str()
                } else {
                    flag
                }
            })
            .collect();
        if split {
            flags.push("--split-input-file");
        }
        let result = run_opt(&input, &flags, &work.join("stderr.txt"));
        runs += 1;
        if let Some(log) = log {
            // Campaign triage: every error a run printed, without its position.
            let errors: Vec<&str> = result
                .stderr
                .lines()
                .filter_map(|line| line.split_once("error: ").map(|(_, message)| message))
                .collect();
            let line = format!(
                "case {case}\t{file}: {}\t{}\t{:?}\t{}\n",
                mutations.join("; "),
                flags.join(" "),
                result.status.and_then(|s| s.code()),
                errors.join(" | ")
            );
            let _ = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .and_then(|mut file| std::io::Write::write_all(&mut file, line.as_bytes()));
        }
        match result.status.and_then(|s| s.code()) {
            Some(0) => exit0 += 1,
            Some(1) => exit1 += 1,
            _ => {}
        }
        let mut verdict = classify(result.status, &result.stderr);
        if verdict.is_none() && index > 0 && parsed && flags.contains(&"--acopy-lower") {
            verdict = invalid_output(&result.stderr);
        }
        if index == 0 {
            parsed = result.status.and_then(|s| s.code()) == Some(0);
        }
        if let Some(reason) = verdict {
            let saved = out_dir.join(format!("case-{case}.mlir"));
            fs::write(&saved, &text).expect("cannot save the failing mutant");
            failures.push(Failure {
                case,
                file: file.clone(),
                mutations: mutations.clone(),
                flags: flags.iter().map(|s| s.to_string()).collect(),
                reason,
                stderr: result.stderr,
                saved,
            });
        }
        // The plain run only parses and checks the ops: when that fails, every
        // other run fails the same way before any pass (one chunk only).
        if index == 0 && !split && result.status.and_then(|s| s.code()) == Some(1) {
            rejected_at_parse = true;
            break;
        }
    }
    let mut tally = tally.lock().expect("tally lock");
    tally.mutants += 1;
    tally.runs += runs;
    tally.exit0 += exit0;
    tally.exit1 += exit1;
    tally.rejected_at_parse += usize::from(rejected_at_parse);
    failures
}

/// A short name for a crash, to group many mutants that hit the same bug:
/// the panic location or the first abort line.
fn signature(failure: &Failure) -> String {
    let lines: Vec<&str> = failure.stderr.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("panicked at") {
            let message = lines.get(i + 1).copied().unwrap_or("");
            let at = line.split("panicked at").nth(1).unwrap_or("").trim();
            return format!(
                "panic at {at} {}",
                message.chars().take(100).collect::<String>()
            );
        }
        if CRASH_TEXTS.iter().any(|t| line.contains(t)) {
            return line.chars().take(160).collect();
        }
    }
    failure.reason.clone()
}

/// Prints every failing mutant, grouped by case, and a summary by crash.
fn report(failures: &[Failure], seed: u64) {
    let mut cases: Vec<usize> = failures.iter().map(|f| f.case).collect();
    cases.dedup();
    for &case in cases.iter().take(25) {
        let runs: Vec<&Failure> = failures.iter().filter(|f| f.case == case).collect();
        let first = runs[0];
        println!(
            "\nFAILED case {case}: {} mutated by: {}\n  mutant: {}\n  \
             again: ACOPY_FUZZ_SEED={seed:#x} ACOPY_FUZZ_CASE={case} cargo test -p acopy-opt --test robustness",
            first.file,
            first.mutations.join("; "),
            first.saved.display(),
        );
        for run in &runs {
            println!(
                "  {}: {} {} {}",
                run.reason,
                binary().display(),
                run.saved.display(),
                run.flags.join(" ")
            );
        }
        let stderr: Vec<&str> = first.stderr.lines().take(25).collect();
        println!(
            "  --- stderr of the first ---\n{}\n  ---",
            stderr.join("\n")
        );
    }
    if cases.len() > 25 {
        println!("\n... and {} more failing cases", cases.len() - 25);
    }
    let mut signatures: Vec<(String, usize, usize)> = Vec::new();
    for failure in failures {
        let key = signature(failure);
        match signatures.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => entry.1 += 1,
            None => signatures.push((key, 1, failure.case)),
        }
    }
    if !signatures.is_empty() {
        println!("\nfailures by kind (runs, first case):");
        for (key, count, case) in &signatures {
            println!("  {count:5}  case {case:6}  {key}");
        }
    }
}

#[test]
fn mutants_never_crash_acopy_opt() {
    let root = workspace_root();
    let corpus = collect_corpus(&root);
    assert!(
        corpus.len() >= 20,
        "the corpus has only {} files: is tests/ there?",
        corpus.len()
    );
    let seed = env_number("ACOPY_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let cases = env_number("ACOPY_FUZZ_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    let only = env_number("ACOPY_FUZZ_CASE").map(|n| n as usize);
    let root = root.canonicalize().unwrap_or(root);
    let out_dir = root.join("target/robustness");
    fs::create_dir_all(&out_dir).expect("cannot create target/robustness");
    if only.is_none() {
        // Mutants saved by an earlier campaign would read as this one's.
        for entry in fs::read_dir(&out_dir).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("case-") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let case_list: Vec<usize> = match only {
        Some(case) => vec![case],
        None => (0..cases).collect(),
    };

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for worker in 0..THREADS {
            let (corpus, case_list, next, tally, failures, out_dir) =
                (&corpus, &case_list, &next, &tally, &failures, &out_dir);
            let keep = only.is_some();
            scope.spawn(move || {
                let work = out_dir.join(format!("work-{}-{worker}", std::process::id()));
                fs::create_dir_all(&work).expect("cannot create a work directory");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&case) = case_list.get(i) else { break };
                    let found = check_case(corpus, seed, case, &work, out_dir, tally, keep);
                    failures.lock().expect("failures lock").extend(found);
                }
                let _ = fs::remove_dir_all(&work);
            });
        }
    });

    let tally = tally.into_inner().expect("tally lock");
    let mut failures = failures.into_inner().expect("failures lock");
    failures.sort_by_key(|f| f.case);
    println!(
        "robustness: seed {seed:#x}, {} mutants of {} corpus files, {} runs ({} exit 0, {} exit 1; \
         {} mutants rejected by the parser or the op checks), {:.1} s",
        tally.mutants,
        corpus.len(),
        tally.runs,
        tally.exit0,
        tally.exit1,
        tally.rejected_at_parse,
        started.elapsed().as_secs_f64()
    );
    report(&failures, seed);
    assert!(
        failures.is_empty(),
        "{} acopy-opt runs crashed (details above; the mutants are in {})",
        failures.len(),
        out_dir.display()
    );
    // Guard against a vacuous campaign: mutants must reach the passes.
    if only.is_none() && cases >= 50 {
        assert!(
            tally.exit0 * 10 >= tally.runs,
            "under 10% of the runs succeeded: the mutations no longer reach the passes"
        );
    }
}

/// The judge itself: each kind of crash is recognised, clean ends are not.
#[test]
fn classify_recognises_crashes() {
    let exit = |code: i32| Some(ExitStatus::from_raw(code << 8));
    assert_eq!(classify(exit(0), ""), None);
    assert_eq!(classify(exit(1), "x.mlir:3:5: error: bad\n"), None);
    assert!(classify(exit(1), "").is_some());
    assert!(classify(exit(2), "acopy-opt: error: internal error: x").is_some());
    assert!(classify(exit(134), "").is_some());
    assert!(classify(Some(ExitStatus::from_raw(6)), "").is_some()); // SIGABRT
    assert!(classify(None, "").is_some());
    let unverified = "x.mlir:1:2: error: 'nvvm.cp.async.shared.global' op expected size 4";
    assert!(invalid_output(unverified).is_some());
    assert!(invalid_output("x.mlir:1:2: error: 'acopy.barrier_init' op bad").is_none());
    assert!(invalid_output("x.mlir:1:2: error: Async copies only support").is_none());
    for text in CRASH_TEXTS {
        assert!(classify(exit(1), &format!("error: x\n{text}\n")).is_some());
    }
}

/// The mutations are deterministic and change the text.
#[test]
fn mutants_are_reproducible() {
    let corpus = collect_corpus(&workspace_root());
    // Many draws: the mutations themselves must never panic.
    for case in 0..2000 {
        make_mutant(&corpus, DEFAULT_SEED ^ 0x55, case);
    }
    for case in 0..50 {
        let a = make_mutant(&corpus, DEFAULT_SEED, case);
        let b = make_mutant(&corpus, DEFAULT_SEED, case);
        assert_eq!(a.1, b.1, "case {case} differs between two draws");
    }
    let changed = (0..50)
        .filter(|&case| {
            let (name, text, _) = make_mutant(&corpus, DEFAULT_SEED, case);
            corpus.iter().any(|(n, t)| *n == name && *t != text)
        })
        .count();
    // A few corpus files hold nothing a mutation applies to (no acopy op, no
    // attribute), so not every draw can change its file; most must.
    assert!(
        changed >= 40,
        "only {changed} of 50 mutants differ from their file"
    );
}
