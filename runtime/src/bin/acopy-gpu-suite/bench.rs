//! The bandwidth benchmark: a 1 GiB f32 array streamed through shared memory, tile by
//! tile, against a plain device-to-device copy of the same bytes in the same process.

use crate::cases::{CopyPath, Fill, Rng};
use crate::load::{load_kernel_files, Error};
use acopy_runtime::{Arg, LaunchConfig, Runtime};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Rows of the benchmark array (f32).
pub const ROWS: u64 = 32768;
/// Columns of the benchmark array (f32). ROWS x COLS x 4 bytes = 1 GiB.
pub const COLS: u64 = 8192;
pub const BYTES: u64 = ROWS * COLS * 4;

/// One streaming-copy kernel: `bw_<path>_<rows>x<cols>` in `bw_<path>_<rows>x<cols>.ptx`,
/// or `bw_tma_dyn_<rows>x<cols>` for the dynamic-start variant.
#[derive(Debug, Clone, Copy)]
pub struct BwKernel {
    pub path: CopyPath,
    pub rows: u32,
    pub cols: u32,
    pub block: u32,
    /// The kernel takes one more argument, `%off: index`, added to both window starts;
    /// the suite passes 0. The compiler cannot prove such a start aligned, so this
    /// measures the cost of the run-time alignment check.
    pub dyn_start: bool,
}

impl BwKernel {
    pub fn name(&self) -> String {
        format!(
            "bw_{}_{}",
            self.kind().trim_end_matches("_start"),
            self.tile()
        )
    }

    /// The `kernel` column of the results: the path, `tma_dyn_start` for the variant.
    pub fn kind(&self) -> &'static str {
        match (self.path, self.dyn_start) {
            (CopyPath::Tma, true) => "tma_dyn_start",
            (p, _) => p.as_str(),
        }
    }

    pub fn tile(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    /// Dynamic shared memory given to the kernel: the tile plus 1 KiB for alignment and
    /// an mbarrier.
    pub fn dynamic_smem(&self) -> u32 {
        self.rows * self.cols * 4 + 1024
    }

    pub fn launch(&self) -> LaunchConfig {
        LaunchConfig {
            grid: [
                (COLS / self.cols as u64) as u32,
                (ROWS / self.rows as u64) as u32,
                1,
            ],
            block: [self.block, 1, 1],
            cluster: [1, 1, 1],
            dynamic_smem: self.dynamic_smem(),
            programmatic: false,
        }
    }
}

/// The sweep: both paths, four tile shapes, and TMA 64x128 at a start the compiler cannot
/// prove aligned.
pub fn kernels() -> Vec<BwKernel> {
    let mut v = Vec::new();
    for path in [CopyPath::Tma, CopyPath::CpAsync] {
        for (rows, cols) in [(32, 128), (64, 128), (128, 128), (64, 256)] {
            v.push(BwKernel {
                path,
                rows,
                cols,
                block: 128,
                dyn_start: false,
            });
        }
    }
    v.push(BwKernel {
        path: CopyPath::Tma,
        rows: 64,
        cols: 128,
        block: 128,
        dyn_start: true,
    });
    v
}

/// One row of the `bandwidth` table in the results.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BwRow {
    /// "tma", "tma_dyn_start", "cp_async" or "device_copy".
    pub kernel: String,
    /// "RxC" (f32 elements); null for the device copy.
    pub tile: Option<String>,
    pub gbps: Option<f64>,
    pub ratio_to_copy: Option<f64>,
    /// Whether the streamed output equals the input, checked once before timing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Median of the samples.
pub fn median(v: &mut [f32]) -> f32 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return f32::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// GB/s (10^9 bytes) for a copy of `bytes`, counting the read and the write.
pub fn gbps(bytes: u64, ms: f32) -> f64 {
    2.0 * bytes as f64 / (ms as f64 * 1e-3) / 1e9
}

/// Time `f` with CUDA events: `warmup` untimed calls, then `runs` timed one by one.
fn time_runs(
    rt: &Runtime,
    warmup: usize,
    runs: usize,
    mut f: impl FnMut() -> Result<(), Error>,
) -> Result<Vec<f32>, Error> {
    for _ in 0..warmup {
        f()?;
    }
    rt.synchronize()?;
    let start = rt.event()?;
    let stop = rt.event()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        start.record()?;
        f()?;
        stop.record()?;
        stop.synchronize()?;
        times.push(stop.elapsed_ms_since(&start)?);
    }
    rt.synchronize()?;
    Ok(times)
}

/// Run the benchmark in this process.
pub fn run(
    rt: &Runtime,
    dir: &Path,
    kernels: &[BwKernel],
    warmup: usize,
    runs: usize,
    seed: u64,
) -> Result<Vec<BwRow>, Error> {
    let bytes = BYTES as usize;
    eprintln!("bandwidth: preparing {} MiB of random f32", bytes >> 20);
    let mut host = vec![0u8; bytes];
    Rng::new(seed).fill(&mut host, Fill::Random);
    let src = rt.upload(&host)?;
    let dst = rt.alloc(bytes)?;

    let mut t = time_runs(rt, warmup, runs, || Ok(rt.copy_dtod(&dst, &src, bytes)?))?;
    let copy_ms = median(&mut t);
    let copy = gbps(BYTES, copy_ms);
    eprintln!("bandwidth: device_copy {copy:.1} GB/s (median {copy_ms:.3} ms of {runs})");
    let mut rows = vec![BwRow {
        kernel: "device_copy".into(),
        tile: None,
        gbps: Some(copy),
        ratio_to_copy: Some(1.0),
        exact: None,
        error: None,
    }];

    for k in kernels {
        let row = match run_kernel(rt, dir, k, &src, &dst, &host, warmup, runs) {
            Ok((g, exact)) => {
                eprintln!(
                    "bandwidth: {} {g:.1} GB/s, {:.3} of the device copy{}",
                    k.name(),
                    g / copy,
                    if exact { "" } else { ", OUTPUT WRONG" }
                );
                BwRow {
                    kernel: k.kind().into(),
                    tile: Some(k.tile()),
                    gbps: Some(g),
                    ratio_to_copy: Some(g / copy),
                    exact: Some(exact),
                    error: None,
                }
            }
            Err(e) => {
                eprintln!("bandwidth: {} ERROR {e}", k.name());
                BwRow {
                    kernel: k.kind().into(),
                    tile: Some(k.tile()),
                    gbps: None,
                    ratio_to_copy: None,
                    exact: None,
                    error: Some(format!("{}: {e}", k.name())),
                }
            }
        };
        rows.push(row);
    }
    Ok(rows)
}

#[allow(clippy::too_many_arguments)]
fn run_kernel(
    rt: &Runtime,
    dir: &Path,
    k: &BwKernel,
    src: &acopy_runtime::DeviceBuffer,
    dst: &acopy_runtime::DeviceBuffer,
    host: &[u8],
    warmup: usize,
    runs: usize,
) -> Result<(f64, bool), Error> {
    let name = k.name();
    let (ptx, ptx_path, manifest) = load_kernel_files(dir, &name)?;
    let entry = manifest.as_ref().and_then(|m| m.kernel(&name));
    if k.path == CopyPath::Tma && entry.is_none() {
        return Err(format!(
            "no manifest entry for kernel `{name}` next to {}",
            ptx_path.display()
        )
        .into());
    }
    let module = rt.load_ptx(&ptx, &ptx_path.display().to_string())?;
    let f = module.function(&name)?;
    let shape = [ROWS, COLS];
    let mut list = vec![src.memref(&shape), dst.memref(&shape)];
    if k.dyn_start {
        list.push(Arg::I64(0));
    }
    let mut args = rt.bind(&list, entry)?;
    let cfg = k.launch();
    dst.fill(0xFF)?;
    f.launch(&cfg, &mut args)?;
    rt.synchronize()?;
    let got = dst.to_vec()?;
    let exact = got == host;
    drop(got);
    let mut t = time_runs(rt, warmup, runs, || Ok(f.launch(&cfg, &mut args)?))?;
    Ok((gbps(BYTES, median(&mut t)), exact))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(BYTES, 1 << 30);
        for k in kernels() {
            let l = k.launch();
            assert_eq!(l.grid[0] as u64 * k.cols as u64, COLS);
            assert_eq!(l.grid[1] as u64 * k.rows as u64, ROWS);
            assert!(k.rows <= 256 && k.cols <= 256, "TMA box limit");
        }
        assert_eq!(kernels()[0].name(), "bw_tma_32x128");
        let dyn_start: Vec<String> = kernels()
            .iter()
            .filter(|k| k.dyn_start)
            .map(|k| format!("{} {}", k.name(), k.kind()))
            .collect();
        assert_eq!(dyn_start, ["bw_tma_dyn_64x128 tma_dyn_start"]);
    }

    #[test]
    fn median_and_gbps() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        // 1 GiB read + 1 GiB written in 0.5 ms.
        let g = gbps(1 << 30, 0.5);
        assert!((g - 4294.967296).abs() < 1e-6, "{g}");
    }
}
