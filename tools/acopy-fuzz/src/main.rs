//! acopy-fuzz: generates random acopy kernels and runs acopy-opt on each in
//! every mode, checking the rules in [`judge`]. `scripts/fuzz.sh SECONDS`
//! builds and runs it; docs/robustness.md ("The fuzzer") says why it is a
//! generator and not coverage-guided, and what it found.
//!
//! Usage: `acopy-fuzz --bin ACOPY_OPT [--seconds N] [--seed S] [--case N]
//! [--threads N] [--corpus DIR] [--grow] [--out DIR] [--crashes DIR]
//! [--timeout S] [--ptxas PTXAS] [--show] [--multicast]` (`--show` with
//! `--case`: print that input and run nothing; `--multicast`: every drawn
//! module a multicast loop, `multicast.rs`; `--ptxas`, default `$ACOPY_PTXAS`: assemble the
//! PTX of every input that verifies, which ptxas must accept). `--out` holds the scratch directories, `--crashes` (default
//! `fuzz/crashes`, gitignored) the inputs that broke a rule.
//! It replays every `.mlir` file in the corpus first, then draws new inputs
//! until the time is up, and prints `executions: N` (acopy-opt runs) and
//! `crashes: N` (runs that broke a rule). Exit status 1 when crashes > 0.

mod chips;
mod generate;
mod judge;
mod loops;
mod multicast;
mod rng;

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    thread,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use generate::{generate_drawing, Input};
use judge::{check, Settings};
use rng::Rng;

const PROGRESS_EVERY: Duration = Duration::from_secs(300);

struct Done<'a>(&'a AtomicUsize);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

struct Args {
    binary: PathBuf,
    seconds: u64,
    seed: u64,
    case: Option<u64>,
    threads: usize,
    corpus: Option<PathBuf>,
    grow: bool,
    show: bool,
    multicast: bool,
    out: PathBuf,
    crashes: PathBuf,
    timeout: u64,
    ptxas: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        binary: PathBuf::from("target/debug/acopy-opt"),
        seconds: 60,
        seed: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        case: None,
        threads: 2,
        corpus: None,
        grow: false,
        show: false,
        multicast: false,
        out: PathBuf::from("target/fuzz"),
        crashes: PathBuf::from("fuzz/crashes"),
        timeout: 20,
        ptxas: std::env::var_os("ACOPY_PTXAS").map(PathBuf::from),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--grow" || flag == "--show" || flag == "--multicast" {
            args.grow |= flag == "--grow";
            args.show |= flag == "--show";
            args.multicast |= flag == "--multicast";
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number =
            || parse_number(&value).ok_or_else(|| format!("{flag}: not a number: {value}"));
        match flag.as_str() {
            "--bin" => args.binary = PathBuf::from(&value),
            "--seconds" => args.seconds = number()?,
            "--seed" => args.seed = number()?,
            "--case" => args.case = Some(number()?),
            "--threads" => args.threads = (number()? as usize).max(1),
            "--corpus" => args.corpus = Some(PathBuf::from(&value)),
            "--out" => args.out = PathBuf::from(&value),
            "--crashes" => args.crashes = PathBuf::from(&value),
            "--timeout" => args.timeout = number()?.max(1),
            "--ptxas" => args.ptxas = Some(PathBuf::from(&value)),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

fn parse_number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// An input to run: a corpus file or a generated case.
enum Job {
    Corpus(PathBuf),
    Case(u64),
}

struct Totals {
    inputs: usize,
    executions: usize,
    crashes: usize,
    verified: usize,
    saved: usize,
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("acopy-fuzz: {message}");
            std::process::exit(2);
        }
    };
    if let (true, Some(case)) = (args.show, args.case) {
        // Prints the input only, to read or to keep; on stderr, the errors
        // the judge expects of its drawn P9 faults.
        use std::io::Write;
        let input = generate_drawing(args.seed, case, args.multicast);
        let _ = std::io::stdout().write_all(&input.bytes);
        for text in &input.refusals {
            eprintln!("acopy-fuzz: --acopy-verify must refuse it with an error holding \"{text}\"");
        }
        return;
    }
    let settings = Settings {
        binary: args.binary.clone(),
        timeout: Duration::from_secs(args.timeout),
        ptxas: args.ptxas.clone(),
    };
    let crashes_dir = args.crashes.clone();
    if fs::create_dir_all(&crashes_dir).is_err() {
        eprintln!("acopy-fuzz: cannot create {}", crashes_dir.display());
        std::process::exit(2);
    }
    let mut corpus: Vec<PathBuf> = match &args.corpus {
        Some(dir) => fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
                    .collect()
            })
            .unwrap_or_default(),
        None => Vec::new(),
    };
    corpus.sort();
    println!(
        "acopy-fuzz: seed {:#x}, {} corpus files, {} s, {} threads, {}",
        args.seed,
        corpus.len(),
        args.seconds,
        args.threads,
        args.binary.display()
    );

    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let next_corpus = AtomicUsize::new(0);
    let next_case = AtomicU64::new(args.case.unwrap_or(0));
    let totals = Mutex::new(Totals {
        inputs: 0,
        executions: 0,
        crashes: 0,
        verified: 0,
        saved: 0,
    });
    let seen: Mutex<HashSet<String>> = Mutex::new(HashSet::new());
    let take_job = || -> Option<Job> {
        if let Some(case) = args.case {
            // One case only: run it once.
            return (next_case.fetch_add(1, Ordering::Relaxed) == case).then_some(Job::Case(case));
        }
        let i = next_corpus.fetch_add(1, Ordering::Relaxed);
        if let Some(path) = corpus.get(i) {
            return Some(Job::Corpus(path.clone()));
        }
        (Instant::now() < deadline).then(|| Job::Case(next_case.fetch_add(1, Ordering::Relaxed)))
    };
    let finished = AtomicUsize::new(0);
    // A worker that cannot use its scratch directory stops; the run then
    // fails as a usage error rather than reporting fewer executions as a pass.
    let broken = std::sync::atomic::AtomicBool::new(false);
    thread::scope(|scope| {
        // A line every 5 minutes, so a long campaign's log shows it is alive.
        scope.spawn(|| {
            let mut next = PROGRESS_EVERY;
            while finished.load(Ordering::Relaxed) < args.threads {
                thread::sleep(Duration::from_millis(200));
                if started.elapsed() >= next {
                    next += PROGRESS_EVERY;
                    let t = totals.lock().expect("totals lock");
                    println!(
                        "progress: {} s, {} inputs, executions: {}, crashes: {}",
                        started.elapsed().as_secs(),
                        t.inputs,
                        t.executions,
                        t.crashes
                    );
                }
            }
        });
        for worker in 0..args.threads {
            let (finished, broken) = (&finished, &broken);
            let (take_job, totals, seen, settings, args, crashes_dir) =
                (&take_job, &totals, &seen, &settings, &args, &crashes_dir);
            scope.spawn(move || {
                // Counts this worker finished however it ends (a panic too),
                // so the progress thread always stops.
                let _done = Done(finished);
                let work = args
                    .out
                    .join(format!("work-{}-{worker}", std::process::id()));
                if fs::create_dir_all(&work).is_err() {
                    eprintln!("acopy-fuzz: cannot create {}", work.display());
                    broken.store(true, Ordering::Relaxed);
                    return;
                }
                let work = work.canonicalize().unwrap_or(work);
                while let Some(job) = take_job() {
                    let (name, input, mut rng) = match &job {
                        Job::Corpus(path) => {
                            let bytes = fs::read(path).unwrap_or_default();
                            let text = String::from_utf8_lossy(&bytes);
                            let split = text.contains("\n// -----");
                            let input = Input {
                                bytes,
                                chips: None,
                                split,
                                refusals: Vec::new(),
                            };
                            (
                                path.display().to_string(),
                                input,
                                Rng::for_case(args.seed, u64::MAX),
                            )
                        }
                        Job::Case(case) => {
                            // A panic in the generator is the fuzzer's own
                            // bug: counted as a crash, and the run goes on.
                            let drawn = std::panic::catch_unwind(|| generate_drawing(args.seed, *case, args.multicast));
                            let Ok(input) = drawn else {
                                let mut t = totals.lock().expect("totals lock");
                                t.crashes += 1;
                                println!(
                                    "\nFAILED case {case}: the generator panicked (a bug in tools/acopy-fuzz)\n  again: bash scripts/fuzz.sh 0 --seed {:#x} --case {case}{}",
                                    args.seed,
                                    if args.multicast { " --multicast" } else { "" }
                                );
                                continue;
                            };
                            (format!("case {case}"), input, Rng::for_case(args.seed ^ 0x5eed, *case))
                        }
                    };
                    if fs::write(work.join("input.mlir"), &input.bytes).is_err() {
                        eprintln!("acopy-fuzz: cannot write into {}", work.display());
                        broken.store(true, Ordering::Relaxed);
                        break;
                    }
                    let outcome = check(settings, &input, &work, &mut rng);
                    let mut t = totals.lock().expect("totals lock");
                    t.inputs += 1;
                    t.executions += outcome.runs;
                    t.crashes += outcome.findings.len();
                    t.verified += usize::from(outcome.verified);
                    if !outcome.findings.is_empty() {
                        report(&name, &input, &outcome.findings, args, crashes_dir, &job);
                    } else if args.grow {
                        // Corpus files mark their behaviours as seen; a drawn
                        // input that does something new joins the corpus.
                        let mut seen = seen.lock().expect("seen lock");
                        let new = outcome
                            .behaviour
                            .iter()
                            .filter(|b| seen.insert((*b).clone()))
                            .count();
                        if let (true, Some(dir), Job::Case(case)) = (new > 0, &args.corpus, &job) {
                            let path = dir.join(format!("gen-{:x}-{case}.mlir", args.seed));
                            if fs::write(&path, &input.bytes).is_ok() {
                                t.saved += 1;
                            }
                        }
                    }
                }
                let _ = fs::remove_dir_all(&work);
            });
        }
    });
    let t = totals.into_inner().expect("totals lock");
    println!(
        "inputs: {} ({} accepted by --acopy-verify), {:.1} s{}",
        t.inputs,
        t.verified,
        started.elapsed().as_secs_f64(),
        if args.grow {
            format!(", {} added to the corpus", t.saved)
        } else {
            String::new()
        }
    );
    println!("executions: {}", t.executions);
    println!("crashes: {}", t.crashes);
    if t.crashes > 0 {
        println!(
            "the failing inputs are in {0}; replay them all with `bash scripts/fuzz.sh 0 --corpus {0}`",
            crashes_dir.display()
        );
        std::process::exit(1);
    }
    if broken.into_inner() {
        eprintln!(
            "acopy-fuzz: a worker could not use its scratch directory under {}",
            args.out.display()
        );
        std::process::exit(2);
    }
}

fn report(
    name: &str,
    input: &Input,
    findings: &[judge::Finding],
    args: &Args,
    dir: &Path,
    job: &Job,
) {
    let file = match job {
        Job::Case(case) => dir.join(format!("{:x}-{case}.mlir", args.seed)),
        Job::Corpus(path) => dir.join(path.file_name().unwrap_or_default()),
    };
    let _ = fs::write(&file, &input.bytes);
    println!("\nFAILED {name} (saved as {})", file.display());
    if let Job::Case(case) = job {
        println!(
            "  again: bash scripts/fuzz.sh 0 --seed {:#x} --case {case}{}",
            args.seed,
            if args.multicast { " --multicast" } else { "" }
        );
    }
    for finding in findings {
        println!(
            "  {}: acopy-opt {} {}",
            finding.reason,
            file.display(),
            finding.flags.join(" ")
        );
        for line in finding.stderr.lines().take(12) {
            println!("    | {line}");
        }
    }
}
