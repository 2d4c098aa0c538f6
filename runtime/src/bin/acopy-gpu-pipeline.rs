//! `acopy-gpu-pipeline`: the exactness matrix of loops pipelined by `acopy-pipeline`.
//!
//! The kernels are `tests/gpu/pipeline/kernels/pipe_<kernel>_s<S>.mlir` (written by
//! `gen.py`), each compiled for sm_80 (cp.async) and sm_90 (TMA) by `build.sh` into
//! `<ptx-dir>/pipe_<kernel>_s<S>_<path>.ptx` (+ manifest; `axpy_store`, a TMA store,
//! has only the TMA path). Each module's matrix (trip counts {0, 1, 2, S-1, S, S+1,
//! 2S+1, 1000}, lower bound 0 and 5, step 1 and 3, block sizes 128, and 32/96/256 at
//! S+1 and 1000 trips) runs on 2 blocks in a child process, with random inputs
//! uploaded once, the output poisoned (0xFF) before each launch and every element
//! compared with the host reference. A trap or a hang ends its child at that case,
//! which is recorded with the error, and a new child resumes at the next case
//! (`--from`), so a fault costs its own case only; `--process-per-case` starts one
//! child per case instead (tests/gpu/README.md says why that is not the default).
//! Results go to `bench/results/pipeline-h200.json` as `cases[]` of {name, path,
//! stages, trips, exact}.

use acopy_runtime::manifest::{KernelEntry, Manifest};
use acopy_runtime::{Arg, DeviceBuffer, Function, LaunchConfig, Runtime};
use clap::Parser;
#[path = "acopy-gpu-pipeline/bandwidth.rs"]
mod bandwidth;
#[path = "acopy-gpu-pipeline/big.rs"]
mod big;
#[path = "acopy-gpu-pipeline/common.rs"]
mod common;
use common::{bytes_of, fill_error, random_words, CaseResult, Config, Error};
use std::ffi::OsStr;
#[path = "acopy-gpu-suite/child.rs"]
mod child;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Rows per block (gen.py's REGION) and in all.
const REGION: u64 = 24032;
const ROWS: u64 = 2 * REGION;
const GRID: u32 = 2;
const KERNELS: [&str; 6] = ["copy", "slow", "reduce", "axpy", "outer", "axpy_store"];
/// Kernels in the native TMA form (gen.py's NATIVE_KERNELS): sm_90 PTX only, and
/// the reference of the kernel they are written after.
const NATIVE: [(&str, &str); 2] = [("native", "copy"), ("native_outer", "outer")];

/// Kernels that are another kernel with its marked loop over an i32 induction
/// variable (gen.py's INDUCTION_KERNELS), on both paths, with that kernel's
/// reference.
/// The warp-specialized kernels (gen.py's WARP_KERNELS, `producer = "warp"`) are
/// written after a kernel too, with their block declared as 128 consumers: they
/// run at that block only, launched with the block their manifest records (the
/// consumers and the producer warp the pass added).
const WRITTEN_AFTER: [(&str, &str); 7] = [
    ("copy_i32", "copy"),
    ("copy_u32", "copy"),
    ("ws_copy", "copy"),
    ("ws_slow", "slow"),
    ("ws_reduce", "reduce"),
    ("ws_axpy", "axpy"),
    ("ws_outer", "outer"),
];

/// The paths a kernel runs on: a TMA store and the native TMA form have no
/// cp.async form.
fn paths(kernel: &str) -> &'static [&'static str] {
    if kernel == "axpy_store" || NATIVE.iter().any(|(name, _)| *name == kernel) {
        &["tma"]
    } else {
        &["cp_async", "tma"]
    }
}

#[derive(Parser, Debug)]
struct Cli {
    #[arg(long, default_value = "tests/gpu/pipeline/ptx")]
    ptx_dir: PathBuf,
    #[arg(long, default_value = "bench/results/pipeline-h200.json")]
    results_json: PathBuf,
    #[arg(long, default_value_t = 20261201)]
    seed: u64,
    #[arg(long, default_value_t = 120)]
    module_timeout_s: u64,
    #[arg(long, hide = true)]
    child: Option<String>,
    /// With --child: the index of the first case of the module's matrix to run.
    #[arg(long, hide = true, default_value_t = 0)]
    from: usize,
    /// With --child: how many cases to run (all that are left when absent).
    #[arg(long, hide = true)]
    count: Option<usize>,
    /// One child process per case instead of one per module (resumed after a fault).
    #[arg(long)]
    process_per_case: bool,
    /// Only these kernels of the matrix (comma-separated; all when absent).
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
    /// Tile rows of pipe_bw_reduce, a comma-separated list (gen.py's --reduce-rows).
    #[arg(long, value_delimiter = ',', default_value = "16")]
    reduce_rows: Vec<u64>,
    /// Tile rows of pipe_bw_axpy and pipe_bw_axpy_store, a list (gen.py's --axpy-rows).
    #[arg(long, value_delimiter = ',', default_value = "8")]
    axpy_rows: Vec<u64>,
    /// With --bandwidth: which kernels (reduce, axpy, axpy_store).
    #[arg(long, value_delimiter = ',', default_value = "reduce,axpy,axpy_store")]
    bw_kernels: Vec<String>,
    /// With --bandwidth: the persistent grid's blocks per SM, a list.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    blocks_per_sm: Vec<u32>,
    /// With --bandwidth: threads per block, a list.
    #[arg(long, value_delimiter = ',', default_value = "128,256")]
    threads: Vec<u32>,
    /// With --bandwidth: a child that prints nothing for this long is killed (its
    /// module is an error row; the next child resumes after it).
    #[arg(long, default_value_t = 60)]
    bw_module_timeout_s: u64,
    /// With --bandwidth: start no child after this many seconds (the modules left
    /// are skipped rows).
    #[arg(long)]
    bw_deadline_s: Option<u64>,
    /// With --child-bw: the modules to time, in order.
    #[arg(long, hide = true, value_delimiter = ',')]
    bw_modules: Vec<String>,
    /// With --bandwidth: only the module with this name and, with --only-blocks-per-sm
    /// and --only-threads, one launch shape (to profile one kernel).
    #[arg(long)]
    only_module: Option<String>,
    #[arg(long)]
    only_blocks_per_sm: Option<u32>,
    #[arg(long)]
    only_threads: Option<u32>,
    /// Also time the 1 GiB persistent-grid kernels (pipe_bw_*) against a device copy
    /// (acopy-gpu-pipeline/bandwidth.rs).
    #[arg(long)]
    bandwidth: bool,
    #[arg(long, hide = true)]
    child_bw: bool,
    /// Skip the exactness matrix (with --bandwidth: the timing alone).
    #[arg(long)]
    no_cases: bool,
    /// Run the big-tile matrix instead (slots in dynamic shared memory; big.rs).
    #[arg(long)]
    big: bool,
    /// With --big: also time the big-tile kernels over 1 GiB.
    #[arg(long)]
    big_bandwidth: bool,
    #[arg(long, default_value = "bench/results/pipeline-dynsmem-h200.json")]
    big_json: PathBuf,
    #[arg(long, hide = true)]
    child_bw_big: bool,
}

/// Whether `kernel` is warp-specialized: its block is fixed (see WRITTEN_AFTER).
fn warp_specialized(kernel: &str) -> bool {
    kernel.starts_with("ws_")
}

fn matrix(kernel: &str, stages: u64) -> Vec<Config> {
    let mut trips = vec![
        0,
        1,
        2,
        stages - 1,
        stages,
        stages + 1,
        2 * stages + 1,
        1000,
    ];
    trips.sort_unstable();
    trips.dedup();
    let mut out = Vec::new();
    for &(lb, step) in &[(0u64, 1u64), (5, 3)] {
        for &t in &trips {
            let blocks: &[u32] = if warp_specialized(kernel) {
                &[128]
            } else if t == stages + 1 || t == 1000 {
                &[32, 96, 128, 256]
            } else {
                &[128]
            };
            for &block in blocks {
                out.push(Config {
                    trips: t,
                    lb,
                    step,
                    block,
                });
            }
        }
    }
    out
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.child_bw {
        return match bandwidth::child(&bandwidth_options(&cli), &cli.bw_modules) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("bandwidth: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if cli.child_bw_big {
        return match big::child_bandwidth(cli.seed, &cli.ptx_dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("big bandwidth: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(module) = &cli.child {
        return match child(&cli, module) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{module}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    parent(&cli)
}

fn parent(cli: &Cli) -> ExitCode {
    // Bad bandwidth flags are refused here too, not only on a GPU machine.
    if let Err(e) = bandwidth::validate(&bandwidth_options(cli)) {
        eprintln!("acopy-gpu-pipeline: {e}");
        return ExitCode::from(2);
    }
    let info = match Runtime::probe(0) {
        Ok(info) => info,
        Err(e) => {
            println!("SKIPPED: {e}");
            return ExitCode::SUCCESS;
        }
    };
    println!(
        "acopy-gpu-pipeline: {} ({}), seed {}",
        info.name,
        info.chip(),
        cli.seed
    );
    if cli.big {
        return big::parent(&big_options(cli), &info.name);
    }
    let matrix = run_matrix(cli);
    let bandwidth = run_bandwidth_rows(cli);
    let passed = matrix.cases.iter().filter(|c| c.exact).count();
    write_results(cli, &info.name, &matrix, &bandwidth);
    println!(
        "gpu-pipeline: {passed} exact, {} not",
        matrix.cases.len() - passed
    );
    if passed == matrix.cases.len() && bandwidth.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What `--big` hands to the big-tile matrix.
fn big_options(cli: &Cli) -> big::Options {
    big::Options {
        ptx_dir: cli.ptx_dir.clone(),
        seed: cli.seed,
        module_timeout: Duration::from_secs(cli.module_timeout_s),
        json: cli.big_json.clone(),
        bandwidth: cli.big_bandwidth,
    }
}

/// The exactness matrix's results, and what running it took.
struct MatrixRun {
    cases: Vec<CaseResult>,
    children: usize,
    seconds: f64,
}

/// Runs every selected kernel's modules (S = 1..4, each path), printing a line
/// per module and, when any case ran, the totals.
fn run_matrix(cli: &Cli) -> MatrixRun {
    let mut cases: Vec<CaseResult> = Vec::new();
    let all: Vec<&str> = KERNELS
        .iter()
        .copied()
        .chain(NATIVE.iter().map(|(name, _)| *name))
        .chain(WRITTEN_AFTER.iter().map(|(name, _)| *name))
        .filter(|name| cli.kernels.is_empty() || cli.kernels.iter().any(|k| k == name))
        .collect();
    let kernels: &[&str] = if cli.no_cases { &[] } else { &all };
    let mut children = 0usize;
    let cases_started = Instant::now();
    for &kernel in kernels {
        for stages in 1..=4u32 {
            for &path in paths(kernel) {
                let module = format!("pipe_{kernel}_s{stages}_{path}");
                let started = Instant::now();
                let expected = matrix(kernel, u64::from(stages));
                let (results, started_children) = run_module(
                    &module,
                    path,
                    stages,
                    &expected,
                    cli.process_per_case,
                    |from, count| run_child(&module, from, count, cli),
                );
                children += started_children;
                let exact = results.iter().filter(|r| r.exact).count();
                println!(
                    "{module}: {exact}/{} exact ({:.1}s, {started_children} processes)",
                    results.len(),
                    started.elapsed().as_secs_f64()
                );
                cases.extend(results);
            }
        }
    }
    let cases_s = cases_started.elapsed().as_secs_f64();
    if !cases.is_empty() {
        println!(
            "cases: {} in {cases_s:.1}s, {children} child processes ({:.3}s per process)",
            cases.len(),
            cases_s / children.max(1) as f64
        );
    }
    MatrixRun {
        cases,
        children,
        seconds: cases_s,
    }
}

/// What `--bandwidth` runs: the bandwidth flags, `--only-blocks-per-sm` and
/// `--only-threads` narrowing the lists to one value.
fn bandwidth_options(cli: &Cli) -> bandwidth::Options {
    bandwidth::Options {
        ptx_dir: cli.ptx_dir.clone(),
        seed: cli.seed,
        kernels: cli.bw_kernels.clone(),
        reduce_rows: cli.reduce_rows.clone(),
        axpy_rows: cli.axpy_rows.clone(),
        blocks_per_sm: cli
            .only_blocks_per_sm
            .map_or_else(|| cli.blocks_per_sm.clone(), |b| vec![b]),
        threads: cli
            .only_threads
            .map_or_else(|| cli.threads.clone(), |t| vec![t]),
        only_module: cli.only_module.clone(),
        module_timeout: Duration::from_secs(cli.bw_module_timeout_s),
        deadline: cli.bw_deadline_s.map(Duration::from_secs),
    }
}

/// With `--bandwidth`, the bandwidth rows (bandwidth.rs); none without.
fn run_bandwidth_rows(cli: &Cli) -> bandwidth::Run {
    if !cli.bandwidth {
        return bandwidth::Run {
            rows: Vec::new(),
            copy_gbps: serde_json::Value::Null,
            ok: true,
        };
    }
    bandwidth::parent(&bandwidth_options(cli))
}

/// Writes `--results-json`; a failure to write is printed, not fatal.
fn write_results(cli: &Cli, device: &str, matrix: &MatrixRun, bandwidth: &bandwidth::Run) {
    let json = serde_json::json!({
        "date": format!("{:?}", std::time::SystemTime::now()),
        "device": device,
        "seed": cli.seed,
        "process_per_case": cli.process_per_case,
        "child_processes": matrix.children,
        "cases_seconds": matrix.seconds,
        "cases": matrix.cases,
        "bandwidth": bandwidth.rows,
        "device_copy_gbps": bandwidth.copy_gbps,
        "anchors": [],
        "reference": serde_json::Value::Null,
    });
    if let Some(dir) = cli.results_json.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(
        &cli.results_json,
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    ) {
        println!("cannot write {}: {e}", cli.results_json.display());
    }
}

/// Runs a module's matrix in child processes: one per module, or per case with
/// `--process-per-case`. A child that ends early (a trap, a hang, a crash) has its
/// first missing case recorded with the error, and a new child resumes after it.
/// Returns the results, in matrix order, and the number of children started.
fn run_module(
    module: &str,
    path: &str,
    stages: u32,
    expected: &[Config],
    per_case: bool,
    mut run_child: impl FnMut(usize, Option<usize>) -> (Vec<CaseResult>, Option<String>),
) -> (Vec<CaseResult>, usize) {
    let mut results: Vec<CaseResult> = Vec::new();
    let mut children = 0;
    while results.len() < expected.len() {
        let from = results.len();
        let count = if per_case { Some(1) } else { None };
        children += 1;
        let (got, failure) = run_child(from, count);
        let wanted = count.unwrap_or(expected.len() - from);
        let got_n = got.len().min(wanted);
        // A child that met a fault prints that case's result with the error and
        // exits; one killed or crashed without a word leaves its case unreported.
        let reported_fault = got[..got_n].last().is_some_and(|r| r.error.is_some());
        results.extend(got.into_iter().take(got_n));
        if got_n < wanted && !reported_fault {
            let why = failure.unwrap_or_else(|| "the child stopped without a result".into());
            let at = results.len();
            results.extend(fill_error(module, path, stages, &expected[at..=at], &why));
        }
    }
    (results, children)
}

/// One child: the module's cases from `from` (`count` of them, or all). Returns the
/// results it printed and, when it did not exit cleanly, why.
fn run_child(
    module: &str,
    from: usize,
    count: Option<usize>,
    cli: &Cli,
) -> (Vec<CaseResult>, Option<String>) {
    let seed = cli.seed.to_string();
    let from_text = from.to_string();
    let count_text = count.map(|c| c.to_string());
    let mut args: Vec<&OsStr> = vec![
        "--child".as_ref(),
        module.as_ref(),
        "--from".as_ref(),
        from_text.as_ref(),
        "--ptx-dir".as_ref(),
        cli.ptx_dir.as_os_str(),
        "--seed".as_ref(),
        seed.as_ref(),
    ];
    if let Some(count) = &count_text {
        args.push("--count".as_ref());
        args.push(count.as_ref());
    }
    let (status, out) = child::run_self(&args, Duration::from_secs(cli.module_timeout_s));
    let results: Vec<CaseResult> = out
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let failure = match status {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!("child failed: {status}")),
        Err(e) => Some(e),
    };
    (results, failure)
}

fn child(cli: &Cli, module: &str) -> Result<(), Error> {
    if let Some(parsed) = big::parse(module) {
        return big::child(&cli.ptx_dir, cli.seed, module, parsed);
    }
    let (function_kernel, stages, path) = parse_module(module)?;
    // A native-form kernel computes what the kernel it is written after does.
    let kernel = NATIVE
        .iter()
        .chain(WRITTEN_AFTER.iter())
        .find(|(name, _)| *name == function_kernel)
        .map_or(function_kernel, |(_, like)| *like);
    let rt = Runtime::with_device(0)?;
    let ptx_path = cli.ptx_dir.join(format!("{module}.ptx"));
    let ptx =
        std::fs::read_to_string(&ptx_path).map_err(|e| format!("{}: {e}", ptx_path.display()))?;
    let manifest_path = cli.ptx_dir.join(format!("{module}.manifest.json"));
    let manifest = if path == "tma" || warp_specialized(function_kernel) {
        Some(Manifest::from_json(&std::fs::read_to_string(
            &manifest_path,
        )?)?)
    } else {
        None
    };
    let name = format!("pipe_{function_kernel}");
    let entry = manifest.as_ref().and_then(|m| m.kernel(&name));
    if path == "tma" && entry.is_none() {
        return Err(format!("no manifest entry for {name}").into());
    }
    let loaded = rt.load_ptx(&ptx, &ptx_path.display().to_string())?;
    let function = loaded.function(&name)?;
    let inputs = upload_inputs(&rt, kernel, cli.seed)?;
    let target = CaseTarget {
        rt: &rt,
        function: &function,
        entry,
        module,
        kernel,
        path,
        stages,
    };
    let configs = matrix(function_kernel, u64::from(stages));
    let count = cli.count.unwrap_or(configs.len());
    for config in configs.into_iter().skip(cli.from).take(count) {
        run_case(&target, &inputs, &config)?;
    }
    Ok(())
}

/// What one child's cases run: a module's loaded kernel and what it computes.
struct CaseTarget<'a> {
    rt: &'a Runtime,
    function: &'a Function<'a>,
    entry: Option<&'a KernelEntry>,
    module: &'a str,
    /// The kernel whose reference applies (a native form's model).
    kernel: &'a str,
    path: &'a str,
    stages: u32,
}

/// A module's random inputs, uploaded once for all its cases, and its output
/// buffer.
struct Inputs {
    src: Vec<u32>,
    y: Vec<u32>,
    d_src: DeviceBuffer,
    d_y: DeviceBuffer,
    d_out: DeviceBuffer,
    out_words: usize,
}

fn upload_inputs(rt: &Runtime, kernel: &str, seed: u64) -> Result<Inputs, Error> {
    let outer = kernel == "outer";
    let plane = (ROWS * 128) as usize;
    let src_words = if outer { 3 * plane } else { plane };
    let mut src = random_words(seed, src_words);
    if kernel.starts_with("axpy") {
        // Small multiples of 1/4: 2x + y is exact in f32, fused or not.
        for w in src.iter_mut() {
            *w = (((*w % 2001) as f32 - 1000.0) * 0.25).to_bits();
        }
    }
    let y: Vec<u32> = random_words(seed ^ 0x9e37_79b9, plane)
        .into_iter()
        .map(|w| (((w % 2001) as f32 - 1000.0) * 0.25).to_bits())
        .collect();
    let d_src = rt.upload(&bytes_of(&src))?;
    let d_y = rt.upload(&bytes_of(&y))?;
    let out_words = match kernel {
        "reduce" => 2 * 256,
        _ => src_words,
    };
    let d_out = rt.alloc(out_words * 4)?;
    Ok(Inputs {
        src,
        y,
        d_src,
        d_y,
        d_out,
        out_words,
    })
}

/// Runs one case on a poisoned output and prints its `RESULT` line; a launch
/// that faults or hangs is printed with its error and ends the child.
fn run_case(target: &CaseTarget<'_>, inputs: &Inputs, config: &Config) -> Result<(), Error> {
    let rt = target.rt;
    inputs.d_out.fill(0xFF)?;
    let args = case_args(target.kernel, inputs, config);
    let mut packed = rt.bind(&args, target.entry)?;
    // A warp-specialized kernel declares its consumers and producer warp.
    let block = target
        .entry
        .and_then(|entry| entry.launch.as_ref())
        .and_then(|launch| launch.block)
        .map_or(config.block, |block| block[0]);
    let launch = LaunchConfig::linear(GRID, block);
    let outcome = target
        .function
        .launch(&launch, &mut packed)
        .and_then(|()| rt.synchronize_timeout(Duration::from_secs(20)));
    let mut result = CaseResult::new(target.module, target.path, target.stages, config);
    match outcome {
        Err(e) => {
            result.error = Some(e.to_string());
            println!("RESULT {}", serde_json::to_string(&result)?);
            // The context is unusable after a fault or a hang.
            return Err(e.into());
        }
        Ok(()) => {
            let wrong = wrong_words(target.kernel, inputs, config, &result.name)?;
            result.wrong = wrong;
            result.exact = wrong == 0;
        }
    }
    println!("RESULT {}", serde_json::to_string(&result)?);
    Ok(())
}

/// The kernel's arguments: its memrefs, then the loop's bounds and step.
fn case_args(kernel: &str, inputs: &Inputs, config: &Config) -> Vec<Arg> {
    let Inputs {
        d_src, d_y, d_out, ..
    } = inputs;
    let shape2 = [ROWS, 128];
    let shape3 = [3, ROWS, 128];
    let mut args: Vec<Arg> = match kernel {
        "outer" => vec![d_src.memref(&shape3), d_out.memref(&shape3)],
        "axpy" | "axpy_store" => vec![
            d_src.memref(&shape2),
            d_y.memref(&shape2),
            d_out.memref(&shape2),
        ],
        "reduce" => vec![d_src.memref(&shape2), d_out.memref(&[2, 256])],
        _ => vec![d_src.memref(&shape2), d_out.memref(&shape2)],
    };
    args.push(Arg::I64(config.lb as i64));
    args.push(Arg::I64(config.ub()));
    args.push(Arg::I64(config.step as i64));
    args
}

/// How many words of the output differ from the reference; the first
/// difference goes to stderr under `name`.
fn wrong_words(kernel: &str, inputs: &Inputs, config: &Config, name: &str) -> Result<u64, Error> {
    let got_bytes = inputs.d_out.to_vec()?;
    let got: Vec<u32> = got_bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want = reference(kernel, config, &inputs.src, &inputs.y, inputs.out_words);
    let wrong = got.iter().zip(&want).filter(|(g, w)| g != w).count() as u64;
    if wrong > 0 {
        if let Some(first) = got.iter().zip(&want).position(|(g, w)| g != w) {
            eprintln!(
                "{}: {wrong} wrong; first at {first}: got {:#x}, want {:#x}",
                name, got[first], want[first]
            );
        }
    }
    Ok(wrong)
}

fn parse_module(module: &str) -> Result<(&'static str, u32, &'static str), Error> {
    for kernel in KERNELS
        .into_iter()
        .chain(NATIVE.map(|(name, _)| name))
        .chain(WRITTEN_AFTER.map(|(name, _)| name))
    {
        for stages in 1..=4u32 {
            for &path in paths(kernel) {
                if module == format!("pipe_{kernel}_s{stages}_{path}") {
                    return Ok((kernel, stages, path));
                }
            }
        }
    }
    Err(format!("unknown module {module}").into())
}

/// What the loop means when its iterations run one after another.
fn reference(kernel: &str, c: &Config, src: &[u32], y: &[u32], out_words: usize) -> Vec<u32> {
    let mut out = vec![u32::MAX; out_words];
    let plane = (ROWS * 128) as usize;
    let bdim = c.block as usize;
    for b in 0..GRID as u64 {
        let mut sums = vec![0u32; bdim];
        for iv in c.ivs() {
            let row = (b * REGION + iv * 8) as usize;
            for e in 0..1024usize {
                let at = (row + e / 128) * 128 + e % 128;
                match kernel {
                    "copy" => out[at] = src[at],
                    "slow" => {
                        let warp = (e % bdim) / 32;
                        out[at] = src[at].wrapping_mul(1 + 8 * warp as u32);
                    }
                    // Thread t adds vectors t, t + blockDim, ... of four elements.
                    "reduce" => {
                        let t = (e / 4) % bdim;
                        sums[t] = sums[t].wrapping_add(src[at]);
                    }
                    "axpy" | "axpy_store" => {
                        let v = 2.0 * f32::from_bits(src[at]) + f32::from_bits(y[at]);
                        out[at] = v.to_bits();
                    }
                    "outer" => {
                        for r in 0..3 {
                            out[r * plane + at] = src[r * plane + at];
                        }
                    }
                    _ => {}
                }
            }
        }
        if kernel == "reduce" {
            for (t, sum) in sums.iter().enumerate() {
                out[b as usize * 256 + t] = *sum;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use common::case_name;

    /// A fake child for `run_module`: it runs cases from `from` and, at case
    /// `fault`, reports the error and exits (`reports`) or dies without a word.
    fn fake(
        configs: &[Config],
        fault: Option<usize>,
        reports: bool,
    ) -> impl FnMut(usize, Option<usize>) -> (Vec<CaseResult>, Option<String>) + '_ {
        move |from, count| {
            let mut out = Vec::new();
            let end = count.map_or(configs.len(), |c| (from + c).min(configs.len()));
            for at in from..end {
                let mut r = fill_error("m", "tma", 2, &configs[at..=at], "").remove(0);
                r.error = None;
                r.exact = true;
                if fault == Some(at) {
                    if reports {
                        r.exact = false;
                        r.error = Some("trap".into());
                        out.push(r);
                    }
                    return (out, Some("child failed: exit status: 1".into()));
                }
                out.push(r);
            }
            (out, None)
        }
    }

    /// A warp-specialized kernel runs at its declared 128 consumers only (its
    /// launch block is its manifest's), at every trip count of the matrix.
    #[test]
    fn warp_specialized_kernels_run_at_their_declared_block() {
        let plain = matrix("copy", 3);
        let warp = matrix("ws_copy", 3);
        assert!(warp.iter().all(|config| config.block == 128));
        assert!(plain.iter().any(|config| config.block != 128));
        let trips = |configs: &[Config]| {
            let mut trips: Vec<u64> = configs.iter().map(|config| config.trips).collect();
            trips.dedup();
            trips
        };
        assert_eq!(trips(&warp), trips(&plain));
    }

    #[test]
    fn one_child_runs_the_whole_module() {
        let configs = matrix("copy", 2);
        let (results, children) =
            run_module("m", "tma", 2, &configs, false, fake(&configs, None, true));
        assert_eq!((results.len(), children), (configs.len(), 1));
        assert!(results.iter().all(|r| r.exact));
    }

    #[test]
    fn a_reported_trap_costs_its_case_and_a_new_child_resumes() {
        let configs = matrix("copy", 2);
        let (results, children) = run_module(
            "m",
            "tma",
            2,
            &configs,
            false,
            fake(&configs, Some(3), true),
        );
        assert_eq!((results.len(), children), (configs.len(), 2));
        let failed: Vec<usize> = (0..results.len()).filter(|&i| !results[i].exact).collect();
        assert_eq!(failed, vec![3]);
        assert_eq!(results[3].error.as_deref(), Some("trap"));
        assert_eq!(results[4].name, case_name("m", &configs[4]));
    }

    #[test]
    fn a_silent_death_blames_the_first_unreported_case() {
        let configs = matrix("copy", 3);
        let (results, children) = run_module(
            "m",
            "tma",
            2,
            &configs,
            false,
            fake(&configs, Some(5), false),
        );
        assert_eq!((results.len(), children), (configs.len(), 2));
        let failed: Vec<usize> = (0..results.len()).filter(|&i| !results[i].exact).collect();
        assert_eq!(failed, vec![5]);
        assert_eq!(
            results[5].error.as_deref(),
            Some("child failed: exit status: 1")
        );
        assert_eq!(results[5].name, case_name("m", &configs[5]));
    }

    #[test]
    fn per_case_starts_one_child_per_case() {
        let configs = matrix("copy", 1);
        let (results, children) = run_module(
            "m",
            "tma",
            1,
            &configs,
            true,
            fake(&configs, Some(0), false),
        );
        assert_eq!((results.len(), children), (configs.len(), configs.len()));
        assert!(!results[0].exact && results[1..].iter().all(|r| r.exact));
    }
}
