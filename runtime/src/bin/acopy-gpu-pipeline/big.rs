//! `--big`: pipelined loops whose slots do not fit the 48 KiB of static shared memory
//! and move to dynamic shared memory (docs/pipelining.md, "Shared memory").
//!
//! The kernels are `tests/gpu/pipeline/kernels/pipe_big_<kernel>_s<S>.mlir` (written by
//! `gen_big.py`): `copy` with one 32 KiB tile per stage, `axpy` with two 16 KiB tiles,
//! S = 1..4 (S = 1 stays static), each built for sm_80 (cp.async) and sm_90 (TMA) with
//! its manifest, whose `dynamic_shared_memory` the launch takes
//! (`LaunchConfig::for_kernel`). Each module runs in its own child process: trip counts
//! {0, 1, S-1, S, S+1, 1000}, lower bound 0 step 1 and lower bound 5 step 3, 128 and
//! 256 threads, 2 blocks; random inputs, the output poisoned before each launch, every
//! element compared. Results go to `--big-json` as `cases[]` of {name, path, stages,
//! trips, exact}. `--big-bandwidth` also times `pipe_bwbig_*` over 1 GiB with one block
//! per SM.

use super::common::{
    bandwidth_data, bytes_of, count_wrong, median_ms, module_results, random_words, run_module,
    same_words, words_of, BandwidthData, CaseResult, Config, Error, GIB,
};
use acopy_runtime::manifest::{KernelEntry, Manifest};
use acopy_runtime::{Arg, LaunchConfig, Runtime};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Rows per block (gen_big.py's REGION) and in all.
const REGION: u64 = 64 * (5 + 3 * 999 + 1);
const ROWS: u64 = 2 * REGION;
const GRID: u32 = 2;
const KERNELS: [&str; 2] = ["copy", "axpy"];
const BW_ROWS: u64 = 2_097_152;

fn tile_rows(kernel: &str) -> u64 {
    if kernel == "copy" {
        64
    } else {
        32
    }
}

/// What `--big` runs with (from the command line).
pub struct Options {
    pub ptx_dir: PathBuf,
    pub seed: u64,
    pub module_timeout: Duration,
    pub json: PathBuf,
    pub bandwidth: bool,
}

/// The module `pipe_big_<kernel>_s<S>_<path>` as (kernel, S, path).
pub fn parse(module: &str) -> Option<(&'static str, u32, &'static str)> {
    for kernel in KERNELS {
        for stages in 1..=4u32 {
            for path in ["cp_async", "tma"] {
                if module == format!("pipe_big_{kernel}_s{stages}_{path}") {
                    return Some((kernel, stages, path));
                }
            }
        }
    }
    None
}

pub fn matrix(stages: u64) -> Vec<Config> {
    let mut trips = vec![0, 1, stages - 1, stages, stages + 1, 1000];
    trips.sort_unstable();
    trips.dedup();
    let mut out = Vec::new();
    for &(lb, step) in &[(0u64, 1u64), (5, 3)] {
        for &trips in &trips {
            for block in [128u32, 256] {
                out.push(Config {
                    trips,
                    lb,
                    step,
                    block,
                });
            }
        }
    }
    out
}

/// The parent of `--big`: every module's matrix, then (with `--big-bandwidth`) the
/// timing; writes `--big-json`.
pub fn parent(cli: &Options, device: &str) -> ExitCode {
    let mut cases: Vec<CaseResult> = Vec::new();
    for kernel in KERNELS {
        for stages in 1..=4u32 {
            for path in ["cp_async", "tma"] {
                let module = format!("pipe_big_{kernel}_s{stages}_{path}");
                let started = Instant::now();
                let expected = matrix(u64::from(stages));
                let got = run_module(&module, &cli.ptx_dir, cli.seed, cli.module_timeout);
                let results = module_results(&module, path, stages, &expected, started, got);
                cases.extend(results);
            }
        }
    }
    let mut bandwidth = Vec::new();
    let mut copy_gbps = serde_json::Value::Null;
    let mut bandwidth_ok = true;
    if cli.bandwidth {
        match run_bandwidth(cli) {
            Ok(rows) => {
                for row in rows {
                    println!("{row}");
                    if row["kernel"] == "device_copy" {
                        copy_gbps = row["gbps"].clone();
                    } else {
                        bandwidth_ok &= row["exact"] == true;
                        bandwidth.push(row);
                    }
                }
            }
            Err(e) => {
                bandwidth_ok = false;
                println!("big bandwidth: {e}");
            }
        }
    }
    let passed = cases.iter().filter(|c| c.exact).count();
    let json = serde_json::json!({
        "date": format!("{:?}", std::time::SystemTime::now()),
        "device": device,
        "seed": cli.seed,
        "cases": cases,
        "bandwidth": bandwidth,
        "device_copy_gbps": copy_gbps,
    });
    if let Some(dir) = cli.json.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(
        &cli.json,
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    ) {
        println!("cannot write {}: {e}", cli.json.display());
    }
    println!(
        "gpu-pipeline --big: {passed} exact, {} not",
        cases.len() - passed
    );
    if passed == cases.len() && bandwidth_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The manifest entry of `name` in `<ptx_dir>/<module>.manifest.json`, if any.
fn entry_of(ptx_dir: &Path, module: &str, name: &str) -> Result<Option<KernelEntry>, Error> {
    let path = ptx_dir.join(format!("{module}.manifest.json"));
    let manifest = Manifest::from_json(
        &std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?,
    )?;
    Ok(manifest.kernel(name).cloned())
}

/// One module's matrix, in this (child) process.
pub fn child(
    ptx_dir: &Path,
    seed: u64,
    module: &str,
    (kernel, stages, path): (&'static str, u32, &'static str),
) -> Result<(), Error> {
    let rt = Runtime::with_device(0)?;
    let ptx_path = ptx_dir.join(format!("{module}.ptx"));
    let ptx =
        std::fs::read_to_string(&ptx_path).map_err(|e| format!("{}: {e}", ptx_path.display()))?;
    let name = format!("pipe_big_{kernel}");
    let entry = entry_of(ptx_dir, module, &name)?;
    if stages > 1
        && entry
            .as_ref()
            .and_then(|e| e.dynamic_shared_memory)
            .is_none()
    {
        return Err(format!("{module}: the manifest records no dynamic shared memory").into());
    }
    let loaded = rt.load_ptx(&ptx, &ptx_path.display().to_string())?;
    let function = loaded.function(&name)?;
    let plane = (ROWS * 128) as usize;
    let quarter = |w: u32| (((w % 2001) as f32 - 1000.0) * 0.25).to_bits();
    let src: Vec<u32> = random_words(seed, plane)
        .into_iter()
        .map(|w| if kernel == "axpy" { quarter(w) } else { w })
        .collect();
    let y: Vec<u32> = random_words(seed ^ 0x9e37_79b9, plane)
        .into_iter()
        .map(quarter)
        .collect();
    let d_src = rt.upload(&bytes_of(&src))?;
    let d_y = rt.upload(&bytes_of(&y))?;
    let d_out = rt.alloc(plane * 4)?;
    let shape = [ROWS, 128];
    for config in matrix(u64::from(stages)) {
        d_out.fill(0xFF)?;
        let mut args: Vec<Arg> = if kernel == "copy" {
            vec![d_src.memref(&shape), d_out.memref(&shape)]
        } else {
            vec![
                d_src.memref(&shape),
                d_y.memref(&shape),
                d_out.memref(&shape),
            ]
        };
        args.push(Arg::I64(config.lb as i64));
        args.push(Arg::I64(config.ub()));
        args.push(Arg::I64(config.step as i64));
        let mut packed = rt.bind(&args, entry.as_ref())?;
        let mut launch = LaunchConfig::linear(GRID, config.block);
        if let Some(entry) = &entry {
            launch = launch.for_kernel(entry);
        }
        let outcome = function
            .launch(&launch, &mut packed)
            .and_then(|()| rt.synchronize_timeout(Duration::from_secs(20)));
        let mut result = CaseResult::new(module, path, stages, &config);
        if let Err(e) = outcome {
            result.error = Some(e.to_string());
            println!("RESULT {}", serde_json::to_string(&result)?);
            // The context is unusable after a fault or a hang.
            return Err(e.into());
        }
        let got = words_of(&d_out.to_vec()?);
        let want = reference(kernel, &config, &src, &y);
        let wrong = count_wrong(&result.name, &got, &want);
        result.wrong = wrong;
        result.exact = wrong == 0;
        println!("RESULT {}", serde_json::to_string(&result)?);
    }
    Ok(())
}

/// What the loop means when its iterations run one after another: each block's
/// tiles at rows b*REGION + R*iv, copied (or 2x + y) to the same place.
fn reference(kernel: &str, c: &Config, src: &[u32], y: &[u32]) -> Vec<u32> {
    let mut out = vec![u32::MAX; (ROWS * 128) as usize];
    let rows = tile_rows(kernel);
    for b in 0..u64::from(GRID) {
        for iv in c.ivs() {
            let start = ((b * REGION + iv * rows) * 128) as usize;
            for at in start..start + (rows * 128) as usize {
                out[at] = if kernel == "copy" {
                    src[at]
                } else {
                    (2.0 * f32::from_bits(src[at]) + f32::from_bits(y[at])).to_bits()
                };
            }
        }
    }
    out
}

fn run_bandwidth(cli: &Options) -> Result<Vec<serde_json::Value>, String> {
    super::common::bandwidth_child("--child-bw-big", &cli.ptx_dir, cli.seed)
}

/// `pipe_bwbig_{copy,axpy}` over 1 GiB per array, S = 1..4, both paths, one block per
/// SM, 128 and 256 threads; each result checked once, then the median of 11 runs.
pub fn child_bandwidth(seed: u64, ptx_dir: &Path) -> Result<(), Error> {
    let BandwidthData {
        rt,
        sms,
        x,
        d_x,
        d_y,
        d_out,
        copy_gbps,
        axpy_want,
    } = bandwidth_data(seed)?;
    let shape = [BW_ROWS, 128];
    for kernel in KERNELS {
        for path in ["cp_async", "tma"] {
            for stages in 1..=4u32 {
                let module = format!("pipe_bwbig_{kernel}_s{stages}_{path}");
                let ptx = std::fs::read_to_string(ptx_dir.join(format!("{module}.ptx")))?;
                let name = format!("pipe_bwbig_{kernel}");
                let entry = entry_of(ptx_dir, &module, &name)?;
                let loaded = rt.load_ptx(&ptx, &module)?;
                let function = loaded.function(&name)?;
                for block in [128u32, 256] {
                    let args: Vec<Arg> = if kernel == "copy" {
                        vec![d_x.memref(&shape), d_out.memref(&shape)]
                    } else {
                        vec![d_x.memref(&shape), d_y.memref(&shape), d_out.memref(&shape)]
                    };
                    let mut launch = LaunchConfig::linear(sms, block);
                    if let Some(entry) = &entry {
                        launch = launch.for_kernel(entry);
                    }
                    d_out.fill(0xFF)?;
                    let mut packed = rt.bind(&args, entry.as_ref())?;
                    function.launch(&launch, &mut packed)?;
                    rt.synchronize_timeout(Duration::from_secs(20))?;
                    let want = if kernel == "copy" { &x } else { &axpy_want };
                    let exact = same_words(&d_out.to_vec()?, want);
                    let ms = median_ms(&rt, || {
                        let mut packed = rt.bind(&args, entry.as_ref())?;
                        Ok(function.launch(&launch, &mut packed)?)
                    })?;
                    let bytes = if kernel == "copy" { 2 * GIB } else { 3 * GIB } as f64;
                    let gbps = bytes / ms / 1e6;
                    println!(
                        "RESULT {}",
                        serde_json::json!({
                            "kernel": format!("pipe_big_{kernel}"), "path": path, "stages": stages,
                            "blocks_per_sm": 1, "block": block, "gbps": gbps,
                            "dynamic_shared_memory": launch.dynamic_smem,
                            "ratio_to_device_copy": gbps / copy_gbps, "exact": exact,
                        })
                    );
                }
            }
        }
    }
    Ok(())
}
