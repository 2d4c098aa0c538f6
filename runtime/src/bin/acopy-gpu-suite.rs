//! `acopy-gpu-suite`: run the acopy GPU test kernels and the bandwidth benchmark.
//!
//! Loads `<ptx-dir>/<name>.ptx` (and `<name>.manifest.json` for TMA kernels), runs every
//! case of the table in `acopy-gpu-suite/cases.rs` in its own child process (so a hung or
//! faulting kernel costs one case, not the run), compares every output element with a
//! host reference, times the streaming-copy kernels against `cuMemcpyDtoD`, and writes
//! `bench/results/gpu-h200.json` plus, with `--results-md`, a markdown table.
//!
//! Without a driver or a GPU it prints `SKIPPED: <reason>` and exits 0 without writing
//! results. Otherwise it exits 1 unless every case is exact and every benchmark kernel
//! ran and produced exact output.

#[path = "acopy-gpu-suite/bench.rs"]
mod bench;
#[path = "acopy-gpu-suite/cases.rs"]
mod cases;
#[path = "acopy-gpu-suite/child.rs"]
mod child;
#[cfg(test)]
#[path = "acopy-gpu-suite/kernel_files.rs"]
mod kernel_files;
#[path = "acopy-gpu-suite/load.rs"]
mod load;
#[path = "acopy-gpu-suite/report.rs"]
mod report;
#[path = "acopy-gpu-suite/swizzle_model.rs"]
mod swizzle_model;

use acopy_runtime::Runtime;
use cases::{count_wrong, first_mismatches, CopyPath, Data, Rng};
use clap::Parser;
use load::{load_kernel_files, Error};
use report::{CaseResult, Results};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "acopy-gpu-suite",
    about = "Run the acopy GPU correctness cases and the bandwidth benchmark"
)]
struct Cli {
    /// Directory with `<name>.ptx` and `<name>.manifest.json`.
    #[arg(long, default_value = "tests/gpu/ptx")]
    ptx_dir: PathBuf,
    /// Where to write the JSON results [default: bench/results/gpu-h200.json; with
    /// --only, nothing is written unless this is given].
    #[arg(long)]
    results_json: Option<PathBuf>,
    /// Append a markdown table of the results to this file (e.g. bench/RESULTS.md).
    #[arg(long)]
    results_md: Option<PathBuf>,
    /// Seed for the random inputs [default: from the clock; printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Run only cases / bandwidth kernels whose name contains one of these.
    #[arg(long)]
    only: Vec<String>,
    /// Skip the bandwidth benchmark.
    #[arg(long)]
    no_bandwidth: bool,
    /// Timed runs per bandwidth kernel (the median is reported).
    #[arg(long, default_value_t = 25)]
    runs: usize,
    /// Untimed warm-up runs per bandwidth kernel.
    #[arg(long, default_value_t = 5)]
    warmup: usize,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    device: i32,
    /// Seconds a case may take before its process is killed.
    #[arg(long, default_value_t = 60)]
    case_timeout_s: u64,
    /// Seconds the whole benchmark may take before its process is killed.
    #[arg(long, default_value_t = 400)]
    bandwidth_timeout_s: u64,
    /// Print the case table (kernel signatures, launches) as markdown and exit.
    #[arg(long)]
    list: bool,
    #[arg(long, hide = true)]
    child_case: Option<String>,
    #[arg(long, hide = true)]
    child_bandwidth: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.list {
        print!("{}", list_markdown());
        return ExitCode::SUCCESS;
    }
    if let Some(name) = &cli.child_case {
        return child_case(&cli, name);
    }
    if cli.child_bandwidth {
        return child_bandwidth(&cli);
    }
    parent(&cli)
}

fn selected(cli: &Cli, name: &str) -> bool {
    cli.only.is_empty() || cli.only.iter().any(|o| name.contains(o.as_str()))
}

fn parent(cli: &Cli) -> ExitCode {
    let info = match Runtime::probe(cli.device) {
        Ok(i) => i,
        Err(e) if e.is_no_gpu() => {
            println!("SKIPPED: {e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            println!("ERROR: the CUDA driver is present but unusable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let seed = cli.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_secs() ^ (t.subsec_nanos() as u64) << 20
    });
    println!(
        "acopy-gpu-suite: {} ({}, {} SMs), CUDA driver {}, seed {seed}, PTX from {}",
        info.name,
        info.chip(),
        info.sm_count,
        info.driver(),
        cli.ptx_dir.display()
    );
    if !cli.ptx_dir.is_dir() {
        println!(
            "warning: {} is not a directory; every case will fail",
            cli.ptx_dir.display()
        );
    }

    // Dated when the run starts.
    let date = report::utc_now();
    let cases = run_cases(cli, seed);
    let bandwidth = run_bandwidth(cli, seed);
    let results = Results {
        date,
        device: info.name.clone(),
        driver: info.driver(),
        seed,
        cases,
        bandwidth,
    };
    report_results(cli, &results)
}

/// The arguments every child gets (PTX folder, device), then `extra`.
fn child_args(cli: &Cli, extra: &[String]) -> Vec<String> {
    let mut a = vec![
        "--ptx-dir".to_string(),
        cli.ptx_dir.display().to_string(),
        "--device".into(),
        cli.device.to_string(),
    ];
    a.extend_from_slice(extra);
    a
}

/// Runs each selected case in its own child, with a seed of its own derived
/// from `seed` and its place in the table, printing a line per case.
fn run_cases(cli: &Cli, seed: u64) -> Vec<CaseResult> {
    let mut results = Vec::new();
    for (i, case) in cases::cases().iter().enumerate() {
        if !selected(cli, case.name) {
            continue;
        }
        let case_seed = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let args = child_args(
            cli,
            &[
                "--child-case".into(),
                case.name.into(),
                "--seed".into(),
                case_seed.to_string(),
            ],
        );
        let r = match run_child(&args, Duration::from_secs(cli.case_timeout_s)) {
            Ok(json) => serde_json::from_str::<CaseResult>(&json)
                .unwrap_or_else(|e| error_result(case, format!("unreadable child result: {e}"))),
            Err(e) => error_result(case, e),
        };
        let status = match (&r.error, r.exact) {
            (Some(e), _) => format!("ERROR {e}"),
            (None, true) => "exact".into(),
            (None, false) => format!("WRONG {} of {} elements", r.wrong, case.out_elems()),
        };
        println!("{:<26} {:<8} {:>8} B  {status}", r.name, r.path, r.bytes);
        results.push(r);
    }
    results
}

/// The bandwidth rows from one child, or a row with its error; none when
/// `--no-bandwidth` or `--only` leaves no kernel to time.
fn run_bandwidth(cli: &Cli, seed: u64) -> Vec<bench::BwRow> {
    let kernels: Vec<bench::BwKernel> = bench::kernels()
        .into_iter()
        .filter(|k| selected(cli, &k.name()))
        .collect();
    if cli.no_bandwidth || kernels.is_empty() {
        return Vec::new();
    }
    let mut extra = vec![
        "--child-bandwidth".to_string(),
        "--seed".into(),
        seed.to_string(),
        "--runs".into(),
        cli.runs.to_string(),
        "--warmup".into(),
        cli.warmup.to_string(),
    ];
    for o in &cli.only {
        extra.push("--only".into());
        extra.push(o.clone());
    }
    match run_child(
        &child_args(cli, &extra),
        Duration::from_secs(cli.bandwidth_timeout_s),
    ) {
        Ok(json) => match serde_json::from_str::<Vec<bench::BwRow>>(&json) {
            Ok(rows) => rows,
            Err(e) => vec![bw_error(format!("unreadable result: {e}"))],
        },
        Err(e) => vec![bw_error(e)],
    }
}

/// Prints the table, writes the JSON and (with `--results-md`) appends the
/// table; fails unless every case and benchmark kernel was exact and both
/// files were written.
fn report_results(cli: &Cli, results: &Results) -> ExitCode {
    let failures = results.failures();
    let passed = results.cases.iter().filter(|c| c.exact).count();
    let md = results.markdown();
    println!("{md}");

    let json_path = match (&cli.results_json, cli.only.is_empty()) {
        (Some(p), _) => Some(p.clone()),
        (None, true) => Some(PathBuf::from("bench/results/gpu-h200.json")),
        (None, false) => None,
    };
    if let Some(p) = json_path {
        if let Err(e) = write_json(&p, results) {
            println!("ERROR: writing {}: {e}", p.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", p.display());
    }
    if let Some(p) = &cli.results_md {
        let r = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .and_then(|mut f| std::io::Write::write_all(&mut f, md.as_bytes()));
        if let Err(e) = r {
            println!("ERROR: appending to {}: {e}", p.display());
            return ExitCode::FAILURE;
        }
        println!("appended the table to {}", p.display());
    }
    println!(
        "gpu-suite: {passed} passed, {} failed",
        results.cases.len() - passed
    );
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn write_json(p: &Path, r: &Results) -> Result<(), Error> {
    if let Some(dir) = p.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let mut text = serde_json::to_string_pretty(r)?;
    text.push('\n');
    std::fs::write(p, text)?;
    Ok(())
}

fn error_result(case: &cases::Case, e: String) -> CaseResult {
    CaseResult {
        name: case.name.into(),
        path: case.path.as_str().into(),
        bytes: case.out_bytes(),
        exact: false,
        wrong: case.out_elems(),
        error: Some(e),
    }
}

fn bw_error(e: String) -> bench::BwRow {
    bench::BwRow {
        kernel: "benchmark".into(),
        tile: None,
        gbps: None,
        ratio_to_copy: None,
        exact: None,
        error: Some(e),
    }
}

/// Run this binary again with `args`; its stdout line `RESULT <json>` is the answer.
/// Its stderr passes through. Killed after `timeout`.
fn run_child(args: &[String], timeout: Duration) -> Result<String, String> {
    let (status, out) = child::run_self(args, timeout);
    let status = status?;
    match out.lines().find_map(|l| l.strip_prefix("RESULT ")) {
        Some(json) => Ok(json.to_string()),
        None => Err(format!(
            "the process ended ({status}) without a result; its stderr is above"
        )),
    }
}

fn child_case(cli: &Cli, name: &str) -> ExitCode {
    let all = cases::cases();
    let Some(case) = all.iter().find(|c| c.name == name) else {
        eprintln!("no case named {name}");
        return ExitCode::FAILURE;
    };
    let r = match run_case(cli, case) {
        Ok(r) => r,
        Err(e) => error_result(case, e.to_string()),
    };
    println!(
        "RESULT {}",
        serde_json::to_string(&r).expect("serializable")
    );
    ExitCode::SUCCESS
}

fn run_case(cli: &Cli, case: &cases::Case) -> Result<CaseResult, Error> {
    let rt = Runtime::with_device(cli.device)?;
    let (ptx, ptx_path, manifest) = load_kernel_files(&cli.ptx_dir, case.ptx)?;
    let entry = manifest.as_ref().and_then(|m| m.kernel(case.kernel));
    // A fallback-mode kernel for a TMA chip may have been lowered without any tensor map.
    if case.path == CopyPath::Tma && !case.fallback() && entry.is_none() {
        return Err(format!(
            "no manifest entry for kernel `{}`: expected {}/{}.manifest.json \
             (acopy-opt --tma-manifest)",
            case.kernel,
            cli.ptx_dir.display(),
            case.ptx
        )
        .into());
    }
    if let Some(e) = entry {
        if e.cluster != case.launch.cluster {
            return Err(format!(
                "the kernel was compiled for cluster {:?}, the case launches {:?}",
                e.cluster, case.launch.cluster
            )
            .into());
        }
    }
    let module = rt.load_ptx(&ptx, &ptx_path.display().to_string())?;
    let f = module.function(case.kernel)?;

    let seed = cli.seed.unwrap_or(1);
    let mut rng = Rng::new(seed);
    let mut src = vec![0u8; case.src_bytes() as usize];
    rng.fill(&mut src, case.src_fill);
    let mut out_init = vec![0u8; case.out_bytes() as usize];
    rng.fill(&mut out_init, case.out_fill);
    let d_src = rt.upload(&src)?;
    let d_out = rt.upload(&out_init)?;

    let args = case.args(d_src.memref(&case.src), d_out.memref(&case.out));
    let mut packed = rt.bind(&args, entry)?;
    // The dynamic shared memory the manifest records (pipelined slots moved there).
    let launch = entry.map_or(case.launch, |e| case.launch.for_kernel(e));
    if let Some(e) = entry {
        launch.check_kernel(e)?;
    }
    f.launch(&launch, &mut packed)?;
    rt.synchronize()?;
    let got = d_out.to_vec()?;

    let eb = case.elem.bytes() as usize;
    let want = (case.reference)(&Data {
        src: &src,
        src_shape: &case.src,
        out_init: &out_init,
        out_shape: &case.out,
        elem_bytes: eb,
        starts: &case.starts,
    });
    let wrong = count_wrong(&got, &want, eb);
    if wrong > 0 {
        eprintln!(
            "{}: {wrong} wrong elements; first ones (index: got, want):",
            case.name
        );
        for m in first_mismatches(&got, &want, eb, 8) {
            eprintln!("  {m}");
        }
    }
    Ok(CaseResult {
        name: case.name.into(),
        path: case.path.as_str().into(),
        bytes: case.out_bytes(),
        exact: wrong == 0,
        wrong,
        error: None,
    })
}

fn child_bandwidth(cli: &Cli) -> ExitCode {
    let kernels: Vec<bench::BwKernel> = bench::kernels()
        .into_iter()
        .filter(|k| selected(cli, &k.name()))
        .collect();
    let rows = Runtime::with_device(cli.device)
        .map_err(Error::from)
        .and_then(|rt| {
            bench::run(
                &rt,
                &cli.ptx_dir,
                &kernels,
                cli.warmup,
                cli.runs.max(1),
                cli.seed.unwrap_or(1),
            )
        });
    match rows {
        Ok(rows) => {
            println!(
                "RESULT {}",
                serde_json::to_string(&rows).expect("serializable")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bandwidth: {e}");
            println!(
                "RESULT {}",
                serde_json::to_string(&vec![bw_error(e.to_string())]).expect("serializable")
            );
            ExitCode::SUCCESS
        }
    }
}

/// The case table as markdown: what each kernel must be.
fn list_markdown() -> String {
    let mut s = String::from(
        "| case | path (chip) | PTX file / kernel | gpu.func signature | starts | launch | what the kernel does | expected `out` |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for c in cases::cases() {
        let starts = if c.starts.is_empty() {
            "-".to_string()
        } else {
            let v: Vec<String> = c.starts.iter().map(|s| s.to_string()).collect();
            format!("({})", v.join(", "))
        };
        s.push_str(&format!(
            "| {} | {} ({}) | `{}.ptx` / `{}` | `{}` | {} | {} | {} | {} |\n",
            c.name,
            c.path.as_str(),
            c.chip_text(),
            c.ptx,
            c.kernel,
            c.signature(),
            starts,
            c.launch_text(),
            c.what,
            c.expect,
        ));
    }
    s.push_str(&format!(
        "\nBandwidth kernels (`<name>.ptx`, kernel `<name>`, signature \
         `(%src: memref<{r}x{c}xf32>, %dst: memref<{r}x{c}xf32>)`, grid (8192/cols, 32768/rows), \
         dynamic shared memory = tile bytes + 1024; `bw_tma_dyn_64x128` takes a third \
         argument `%off: index`, added to both window starts, which the suite passes as 0):\n\n\
         | name | kernel | tile | block | dynamic smem |\n|---|---|---|---|---|\n",
        r = bench::ROWS,
        c = bench::COLS
    ));
    for k in bench::kernels() {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            k.name(),
            k.kind(),
            k.tile(),
            k.block,
            k.dynamic_smem()
        ));
    }
    s
}
