//! `acopy-gpu-pipeline`: the exactness matrix of loops pipelined by `acopy-pipeline`.
//!
//! The kernels are `tests/gpu/pipeline/kernels/pipe_<kernel>_s<S>.mlir` (written by
//! `gen.py`), each compiled for sm_80 (cp.async) and sm_90 (TMA) by `build.sh` into
//! `<ptx-dir>/pipe_<kernel>_s<S>_<path>.ptx` (+ manifest). For every module a child
//! process runs its whole matrix (trip counts {0, 1, 2, S-1, S, S+1, 2S+1, 1000}, lower
//! bound 0 and 5, step 1 and 3, block sizes 128, and 32/96/256 at S+1 and 1000 trips)
//! on 2 blocks, with random inputs uploaded once, the output poisoned (0xFF) before each
//! launch and every element compared with the host reference; a hung or faulting module
//! costs its own cases only (they are recorded with the error). Results go to
//! `bench/results/pipeline-h200.json` as `cases[]` of {name, path, stages, trips, exact}.

use acopy_runtime::manifest::Manifest;
use acopy_runtime::{Arg, LaunchConfig, Runtime};
use clap::Parser;
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
#[path = "acopy-gpu-suite/child.rs"]
mod child;

use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

type Error = Box<dyn std::error::Error>;

/// Rows per block (gen.py's REGION) and in all.
const REGION: u64 = 24032;
const ROWS: u64 = 2 * REGION;
const GRID: u32 = 2;
const KERNELS: [&str; 5] = ["copy", "slow", "reduce", "axpy", "outer"];
/// Kernels in the native TMA form (gen.py's NATIVE_KERNELS): sm_90 PTX only, and
/// the reference of the kernel they are written after.
const NATIVE: [(&str, &str); 2] = [("native", "copy"), ("native_outer", "outer")];

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
    /// Also time the 1 GiB persistent-grid kernels (pipe_bw_*) against a device copy.
    #[arg(long)]
    bandwidth: bool,
    #[arg(long, hide = true)]
    child_bw: bool,
    /// Skip the exactness matrix (with --bandwidth: the timing alone).
    #[arg(long)]
    no_cases: bool,
    /// Run only these kernels' matrices (default: all, the native ones included).
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct CaseResult {
    name: String,
    path: String,
    stages: u32,
    trips: u64,
    lb: u64,
    step: u64,
    block: u32,
    exact: bool,
    wrong: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Clone, Copy, Debug)]
struct Config {
    trips: u64,
    lb: u64,
    step: u64,
    block: u32,
}

impl Config {
    /// The upper bound: short of the last step's end, so a step of 3 also tests an
    /// upper bound that is not lb + T*step; below lb for T = 0 when lb allows.
    fn ub(&self) -> i64 {
        let lb = self.lb as i64;
        if self.trips == 0 {
            return if lb >= 4 { lb - 4 } else { lb };
        }
        lb + (self.trips as i64 - 1) * self.step as i64 + 1
    }

    fn ivs(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.trips).map(|j| self.lb + j * self.step)
    }
}

fn matrix(stages: u64) -> Vec<Config> {
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
            let blocks: &[u32] = if t == stages + 1 || t == 1000 {
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
        return match child_bandwidth(cli.seed, &cli.ptx_dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("bandwidth: {e}");
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
    let mut cases: Vec<CaseResult> = Vec::new();
    let all: Vec<&str> = KERNELS
        .iter()
        .copied()
        .chain(NATIVE.iter().map(|(name, _)| *name))
        .filter(|name| cli.kernels.is_empty() || cli.kernels.iter().any(|k| k == name))
        .collect();
    let kernels: &[&str] = if cli.no_cases { &[] } else { &all };
    for kernel in kernels {
        let paths: &[&str] = if NATIVE.iter().any(|(name, _)| name == kernel) {
            &["tma"]
        } else {
            &["cp_async", "tma"]
        };
        for stages in 1..=4u32 {
            for &path in paths {
                let module = format!("pipe_{kernel}_s{stages}_{path}");
                let started = Instant::now();
                let got = run_child(&module, cli);
                let expected = matrix(u64::from(stages));
                let results = match got {
                    Ok(results) if results.len() == expected.len() => results,
                    Ok(results) => fill_error(
                        &module,
                        path,
                        stages,
                        &expected,
                        &format!("{} results of {}", results.len(), expected.len()),
                    ),
                    Err(e) => fill_error(&module, path, stages, &expected, &e),
                };
                let exact = results.iter().filter(|r| r.exact).count();
                println!(
                    "{module}: {exact}/{} exact ({:.1}s)",
                    results.len(),
                    started.elapsed().as_secs_f64()
                );
                for r in results.iter().filter(|r| !r.exact) {
                    println!("  NOT EXACT {} {:?}", r.name, r.error);
                }
                cases.extend(results);
            }
        }
    }
    let mut bandwidth: Vec<serde_json::Value> = Vec::new();
    let mut copy_gbps = serde_json::Value::Null;
    let mut bandwidth_ok = true;
    if cli.bandwidth {
        match run_bandwidth(cli) {
            Ok(rows) => {
                for row in rows {
                    if row["kernel"] == "device_copy" {
                        copy_gbps = row["gbps"].clone();
                    } else {
                        bandwidth_ok &= row["exact"] == true;
                        println!("{row}");
                        bandwidth.push(row);
                    }
                }
            }
            Err(e) => {
                bandwidth_ok = false;
                println!("bandwidth: {e}");
            }
        }
    }
    let passed = cases.iter().filter(|c| c.exact).count();
    let json = serde_json::json!({
        "date": format!("{:?}", std::time::SystemTime::now()),
        "device": info.name,
        "seed": cli.seed,
        "cases": cases,
        "bandwidth": bandwidth,
        "device_copy_gbps": copy_gbps,
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
    println!("gpu-pipeline: {passed} exact, {} not", cases.len() - passed);
    if passed == cases.len() && bandwidth_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn fill_error(
    module: &str,
    path: &str,
    stages: u32,
    configs: &[Config],
    error: &str,
) -> Vec<CaseResult> {
    configs
        .iter()
        .map(|c| CaseResult {
            name: case_name(module, c),
            path: path.into(),
            stages,
            trips: c.trips,
            lb: c.lb,
            step: c.step,
            block: c.block,
            exact: false,
            wrong: 0,
            error: Some(error.into()),
        })
        .collect()
}

fn case_name(module: &str, c: &Config) -> String {
    format!("{module}_t{}_lb{}_st{}_b{}", c.trips, c.lb, c.step, c.block)
}

fn run_child(module: &str, cli: &Cli) -> Result<Vec<CaseResult>, String> {
    let seed = cli.seed.to_string();
    let args: [&OsStr; 6] = [
        "--child".as_ref(),
        module.as_ref(),
        "--ptx-dir".as_ref(),
        cli.ptx_dir.as_os_str(),
        "--seed".as_ref(),
        seed.as_ref(),
    ];
    let (status, out) = child::run_self(&args, Duration::from_secs(cli.module_timeout_s))?;
    let results: Vec<CaseResult> = out
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if !status.success() && results.is_empty() {
        return Err(format!("child failed: {status}"));
    }
    Ok(results)
}

/// Seeded random bytes (xorshift), so a failing case is reproduced from its seed.
fn random_words(seed: u64, words: usize) -> Vec<u32> {
    let mut state = seed | 1;
    (0..words)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 16) as u32
        })
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn child(cli: &Cli, module: &str) -> Result<(), Error> {
    let (function_kernel, stages, path) = parse_module(module)?;
    // A native-form kernel computes what the kernel it is written after does.
    let kernel = NATIVE
        .iter()
        .find(|(name, _)| *name == function_kernel)
        .map_or(function_kernel, |(_, like)| *like);
    let rt = Runtime::with_device(0)?;
    let ptx_path = cli.ptx_dir.join(format!("{module}.ptx"));
    let ptx =
        std::fs::read_to_string(&ptx_path).map_err(|e| format!("{}: {e}", ptx_path.display()))?;
    let manifest_path = cli.ptx_dir.join(format!("{module}.manifest.json"));
    let manifest = if path == "tma" {
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

    let outer = kernel == "outer";
    let plane = (ROWS * 128) as usize;
    let src_words = if outer { 3 * plane } else { plane };
    let mut src = random_words(cli.seed, src_words);
    if kernel == "axpy" {
        // Small multiples of 1/4: 2x + y is exact in f32, fused or not.
        for w in src.iter_mut() {
            *w = (((*w % 2001) as f32 - 1000.0) * 0.25).to_bits();
        }
    }
    let y: Vec<u32> = random_words(cli.seed ^ 0x9e37_79b9, plane)
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
    let shape2 = [ROWS, 128];
    let shape3 = [3, ROWS, 128];
    for config in matrix(u64::from(stages)) {
        d_out.fill(0xFF)?;
        let mut args: Vec<Arg> = match kernel {
            "outer" => vec![d_src.memref(&shape3), d_out.memref(&shape3)],
            "axpy" => vec![
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
        let mut packed = rt.bind(&args, entry)?;
        let launch = LaunchConfig::linear(GRID, config.block);
        let outcome = function
            .launch(&launch, &mut packed)
            .and_then(|()| rt.synchronize_timeout(Duration::from_secs(20)));
        let mut result = CaseResult {
            name: case_name(module, &config),
            path: path.into(),
            stages,
            trips: config.trips,
            lb: config.lb,
            step: config.step,
            block: config.block,
            exact: false,
            wrong: 0,
            error: None,
        };
        match outcome {
            Err(e) => {
                result.error = Some(e.to_string());
                println!("RESULT {}", serde_json::to_string(&result)?);
                // The context is unusable after a fault or a hang.
                return Err(e.into());
            }
            Ok(()) => {
                let got_bytes = d_out.to_vec()?;
                let got: Vec<u32> = got_bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let want = reference(kernel, &config, &src, &y, out_words);
                let wrong = got.iter().zip(&want).filter(|(g, w)| g != w).count() as u64;
                if wrong > 0 {
                    if let Some(first) = got.iter().zip(&want).position(|(g, w)| g != w) {
                        eprintln!(
                            "{}: {wrong} wrong; first at {first}: got {:#x}, want {:#x}",
                            result.name, got[first], want[first]
                        );
                    }
                }
                result.wrong = wrong;
                result.exact = wrong == 0;
            }
        }
        println!("RESULT {}", serde_json::to_string(&result)?);
    }
    Ok(())
}

fn parse_module(module: &str) -> Result<(&'static str, u32, &'static str), Error> {
    for kernel in KERNELS.into_iter().chain(NATIVE.map(|(name, _)| name)) {
        for stages in 1..=4u32 {
            for path in ["cp_async", "tma"] {
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
                    "reduce" => sums[e % bdim] = sums[e % bdim].wrapping_add(src[at]),
                    "axpy" => {
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

fn run_bandwidth(cli: &Cli) -> Result<Vec<serde_json::Value>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let child = Command::new(exe)
        .arg("--child-bw")
        .arg("--ptx-dir")
        .arg(&cli.ptx_dir)
        .arg("--seed")
        .arg(cli.seed.to_string())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start the bandwidth child: {e}"))?;
    let text = String::from_utf8_lossy(&child.stdout);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if rows.is_empty() {
        return Err(format!("no bandwidth results ({})", child.status));
    }
    Ok(rows)
}

const GIB: usize = 1 << 30;
const BW_ROWS: u64 = 2_097_152;

fn median_ms(rt: &Runtime, mut run: impl FnMut() -> Result<(), Error>) -> Result<f64, Error> {
    for _ in 0..3 {
        run()?;
    }
    rt.synchronize()?;
    let mut times = Vec::new();
    for _ in 0..11 {
        let start = rt.event()?;
        let end = rt.event()?;
        start.record()?;
        run()?;
        end.record()?;
        end.synchronize()?;
        times.push(f64::from(end.elapsed_ms_since(&start)?));
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Ok(times[times.len() / 2])
}

/// The persistent-grid kernels over 1 GiB: pipe_bw_reduce (i32 sum per thread, 16x128
/// tiles) and pipe_bw_axpy (out = 2x + y, two 8x128 tiles per stage), S = 1..4, 1 and 2
/// blocks per SM, 128 and 256 threads, both paths; each result checked once.
fn child_bandwidth(seed: u64, ptx_dir: &std::path::Path) -> Result<(), Error> {
    let rt = Runtime::with_device(0)?;
    let sms = rt.info().sm_count as u32;
    let words = GIB / 4;
    let quarter = |w: u32| (((w % 2001) as f32 - 1000.0) * 0.25).to_bits();
    let x: Vec<u32> = random_words(seed, words).into_iter().map(quarter).collect();
    let y: Vec<u32> = random_words(seed ^ 0x5555, words)
        .into_iter()
        .map(quarter)
        .collect();
    let d_x = rt.upload(&bytes_of(&x))?;
    let d_y = rt.upload(&bytes_of(&y))?;
    let d_out = rt.alloc(GIB)?;
    let copy_ms = median_ms(&rt, || Ok(rt.copy_dtod(&d_out, &d_x, GIB)?))?;
    let copy_gbps = 2.0 * GIB as f64 / copy_ms / 1e6;
    println!(
        "RESULT {}",
        serde_json::json!({"kernel": "device_copy", "gbps": copy_gbps})
    );
    let axpy_want: Vec<u32> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| (2.0 * f32::from_bits(*a) + f32::from_bits(*b)).to_bits())
        .collect();
    let shape = [BW_ROWS, 128];
    for kernel in ["reduce", "axpy"] {
        for path in ["cp_async", "tma"] {
            for stages in 1..=4u32 {
                let module = format!("pipe_bw_{kernel}_s{stages}_{path}");
                let ptx_path = ptx_dir.join(format!("{module}.ptx"));
                let ptx = std::fs::read_to_string(&ptx_path)?;
                let manifest = if path == "tma" {
                    Some(Manifest::from_json(&std::fs::read_to_string(
                        ptx_dir.join(format!("{module}.manifest.json")),
                    )?)?)
                } else {
                    None
                };
                let name = format!("pipe_bw_{kernel}");
                let entry = manifest.as_ref().and_then(|m| m.kernel(&name));
                let loaded = rt.load_ptx(&ptx, &module)?;
                let function = loaded.function(&name)?;
                for blocks_per_sm in [1u32, 2] {
                    for block in [128u32, 256] {
                        let grid = sms * blocks_per_sm;
                        let args: Vec<Arg> = if kernel == "reduce" {
                            vec![d_x.memref(&shape), d_out.memref(&[1024, 256])]
                        } else {
                            vec![d_x.memref(&shape), d_y.memref(&shape), d_out.memref(&shape)]
                        };
                        let launch = LaunchConfig::linear(grid, block);
                        d_out.fill(0xFF)?;
                        let mut packed = rt.bind(&args, entry)?;
                        function.launch(&launch, &mut packed)?;
                        rt.synchronize_timeout(Duration::from_secs(20))?;
                        let got = if kernel == "reduce" {
                            let mut head = vec![0u8; 1024 * 256 * 4];
                            d_out.read(&mut head)?;
                            head
                        } else {
                            d_out.to_vec()?
                        };
                        let exact = if kernel == "reduce" {
                            let mut want = vec![u32::MAX; 1024 * 256];
                            let tiles = (BW_ROWS / 16) as usize;
                            for b in 0..grid as usize {
                                let mut sums = vec![0u32; block as usize];
                                let mut t = b;
                                while t < tiles {
                                    for e in 0..2048 {
                                        let at = t * 2048 + e;
                                        let s = &mut sums[e % block as usize];
                                        *s = s.wrapping_add(x[at]);
                                    }
                                    t += grid as usize;
                                }
                                want[b * 256..b * 256 + block as usize].copy_from_slice(&sums);
                            }
                            got.chunks_exact(4)
                                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .zip(&want)
                                .all(|(g, w)| g == *w)
                        } else {
                            got.chunks_exact(4)
                                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .zip(&axpy_want)
                                .all(|(g, w)| g == *w)
                        };
                        let ms = median_ms(&rt, || {
                            let mut packed = rt.bind(&args, entry)?;
                            Ok(function.launch(&launch, &mut packed)?)
                        })?;
                        let bytes = if kernel == "reduce" { GIB } else { 3 * GIB } as f64;
                        let gbps = bytes / ms / 1e6;
                        println!(
                            "RESULT {}",
                            serde_json::json!({
                                "kernel": format!("pipe_{kernel}"), "path": path, "stages": stages,
                                "blocks_per_sm": blocks_per_sm, "block": block, "gbps": gbps,
                                "ratio_to_device_copy": gbps / copy_gbps, "exact": exact,
                                "ratio_to_reference": serde_json::Value::Null,
                            })
                        );
                    }
                }
            }
        }
    }
    Ok(())
}
