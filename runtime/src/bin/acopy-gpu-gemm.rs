//! `acopy-gpu-gemm`: the GEMM kernels of `examples/gemm/` on the GPU through
//! acopy-runtime alone (no Python package): each module `gemm_<dtype>_MxNxK` of a
//! directory `examples/gemm/build.sh` wrote (its PTX and manifest) is checked and,
//! with `--time`, timed, in a child process of its own (a trap or a hang costs that
//! module only).
//!
//! - **Exact**: src holds A (M x K) then B (N x K) as small integers in [-2, 2]
//!   (bf16 or f16, both exact), out is poisoned with NaN, and every element of
//!   out = A Bᵀ (f32) is compared with the host's integer matmul: exact, since
//!   every partial sum is an integer far below 2^24. Shapes up to 2^33
//!   multiply-adds are checked (the host reference's cost). A module named
//!   `..._bn` (gen.py --b-major=n) takes A (M x K) and B stored K x N as two
//!   arguments before out, and computes out = A B of them.
//! - **Timed** (`--time`, shapes of at least 2^31 multiply-adds): the median of
//!   20 launches after 5 warm-ups, each between two CUDA events; TFLOP/s =
//!   2 M N K / time. The inputs are the same small integers.
//!
//! Prints one JSON line per module: `{name, path, shape, exact_or_max_error, ok}`
//! and, when timed, `tflops` and `ms`; `--json FILE` writes them as
//! `{cases, performance}`. `bench/bench_gemm.py --baselines` measures cuBLAS
//! and Triton on the same card and `bench_gemm.py --merge` adds the ratios.
//!
//! Usage: `acopy-gpu-gemm DIR [--time] [--json FILE] [--timeout-s N]`.

use acopy_runtime::{Arg, LaunchConfig, LoadedKernel, Runtime};
use std::path::Path;
use std::time::Duration;

#[path = "kernel-bench/harness.rs"]
mod harness;
use harness::Error;

/// The output tile of every GEMM kernel of examples/gemm/gen.py.
const TILE: u64 = 128;
/// The most multiply-adds the host reference does for one check.
const CHECK_LIMIT: u64 = 1 << 33;
/// The fewest multiply-adds a timed shape has.
const TIME_FLOOR: u64 = 1 << 31;

/// A module's name and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    bf16: bool,
    m: u64,
    n: u64,
    k: u64,
    /// `_bn`: B is a second argument stored K x N (N-major).
    b_n: bool,
    /// `_ob16`: out is bf16 (the f32 sums rounded to nearest even), not f32.
    out_bf16: bool,
}

impl Shape {
    /// `gemm_bf16_256x256x512` or `gemm_f16_...`, with `_bn` after the shape when
    /// B is stored K x N, and `_ob16` last when out is bf16.
    fn parse(name: &str) -> Option<Shape> {
        let rest = name.strip_prefix("gemm_")?;
        let (rest, out_bf16) = match rest.strip_suffix("_ob16") {
            Some(rest) => (rest, true),
            None => (rest, false),
        };
        let (rest, b_n) = match rest.strip_suffix("_bn") {
            Some(rest) => (rest, true),
            None => (rest, false),
        };
        let (dtype, dims) = rest.split_once('_')?;
        let bf16 = match dtype {
            "bf16" => true,
            "f16" => false,
            _ => return None,
        };
        let mut parts = dims.split('x').map(|part| part.parse::<u64>().ok());
        let (m, n, k) = (parts.next()??, parts.next()??, parts.next()??);
        if parts.next().is_some() || m == 0 || n == 0 || k == 0 {
            return None;
        }
        Some(Shape {
            bf16,
            m,
            n,
            k,
            b_n,
            out_bf16,
        })
    }

    fn macs(&self) -> u64 {
        self.m.saturating_mul(self.n).saturating_mul(self.k)
    }

    /// Bytes per element of out.
    fn out_bytes(&self) -> usize {
        if self.out_bf16 {
            2
        } else {
            4
        }
    }

    /// Element `at` of out's bytes, as f32.
    fn out_element(&self, bytes: &[u8], at: usize) -> f32 {
        match self.out_bf16 {
            true => f32::from_bits(
                u32::from(u16::from_le_bytes([bytes[2 * at], bytes[2 * at + 1]])) << 16,
            ),
            false => f32::from_le_bytes([
                bytes[4 * at],
                bytes[4 * at + 1],
                bytes[4 * at + 2],
                bytes[4 * at + 3],
            ]),
        }
    }

    /// What out holds for the exact sum `want`: f32, or rounded to bf16.
    fn expected(&self, want: i64) -> f32 {
        match self.out_bf16 {
            true => round_to_bf16(want as f32),
            false => want as f32,
        }
    }
}

/// `value` rounded to the nearest bf16, ties to even (cvt.rn.bf16.f32), as f32.
fn round_to_bf16(value: f32) -> f32 {
    let bits = value.to_bits();
    let rounded = bits.wrapping_add(0x7FFF + ((bits >> 16) & 1)) & 0xFFFF_0000;
    f32::from_bits(rounded)
}

/// The 16-bit encoding of a small integer in [-2, 2].
fn encode(value: i32, bf16: bool) -> u16 {
    let magnitude: u16 = match (value.abs(), bf16) {
        (0, _) => 0,
        (1, true) => 0x3F80,
        (2, true) => 0x4000,
        (1, false) => 0x3C00,
        (2, false) => 0x4000,
        _ => unreachable!("inputs are drawn from [-2, 2]"),
    };
    if value < 0 {
        magnitude | 0x8000
    } else {
        magnitude
    }
}

/// Small integers in [-2, 2], the same on every machine for a seed.
fn draw_values(count: usize, seed: u64) -> Vec<i32> {
    harness::draws(count, seed, 5)
        .into_iter()
        .map(|draw| draw as i32 - 2)
        .collect()
}

/// out = A Bᵀ over the rows of `src` (A's M, then B's N), as integers; with
/// `b_n`, out = A B of A's M rows and then B stored K x N.
fn reference(src: &[i32], shape: Shape) -> Vec<i64> {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    let b_at = |kk: usize, j: usize| match shape.b_n {
        true => src[m * k + kk * n + j],
        false => src[(m + j) * k + kk],
    };
    let mut out = vec![0i64; m * n];
    for i in 0..m {
        let a = &src[i * k..(i + 1) * k];
        for j in 0..n {
            out[i * n + j] = a
                .iter()
                .enumerate()
                .map(|(kk, x)| i64::from(x * b_at(kk, j)))
                .sum();
        }
    }
    out
}

/// A module of the directory: a GEMM, or the register-only mma.sync peak
/// (`bench/mma_peak.py`, `mma_peak_<dtype>_<ITERS>`), timed only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Module {
    Gemm(Shape),
    Peak { bf16: bool, iters: u64 },
}

impl Module {
    fn parse(name: &str) -> Option<Module> {
        if let Some(rest) = name.strip_prefix("mma_peak_") {
            let (dtype, iters) = rest.split_once('_')?;
            let bf16 = match dtype {
                "bf16" => true,
                "f16" => false,
                _ => return None,
            };
            return Some(Module::Peak {
                bf16,
                iters: iters.parse().ok().filter(|iters| *iters > 0)?,
            });
        }
        Shape::parse(name).map(Module::Gemm)
    }
}

fn main() -> std::process::ExitCode {
    harness::main(
        "acopy-gpu-gemm",
        Module::parse,
        child_main,
        |name, module, why| {
            let shape = match module {
                Module::Gemm(shape) => serde_json::json!([shape.m, shape.n, shape.k]),
                Module::Peak { .. } => serde_json::Value::Null,
            };
            serde_json::json!({"name": name, "shape": shape, "exact_or_max_error": why, "ok": false})
        },
    )
}

/// Blocks per SM of the peak's grid, warps per block and mma.sync per round.
const PEAK_BLOCKS_PER_SM: u64 = 4;
const PEAK_WARPS: u64 = 8;
const PEAK_CHAINS: u64 = 16;

/// Times the mma.sync peak: FLOPs = blocks x warps x ITERS x 16 x (2 x 16 x 8 x 16).
fn peak_child(dir: &Path, name: &str, iters: u64) -> Result<bool, Error> {
    let ptx = std::fs::read_to_string(dir.join(format!("{name}.ptx")))?;
    let rt = Runtime::with_device(0)?;
    let blocks = PEAK_BLOCKS_PER_SM * rt.info().sm_count.max(1) as u64;
    let kernel = LoadedKernel::load(&rt, &ptx, name, name)?;
    let launch = LaunchConfig::linear(blocks as u32, 256);
    let input = rt.upload(&[0u8; 16])?;
    let out = rt.alloc((PEAK_CHAINS * 1_048_576 * 4) as usize)?;
    let arguments = [input.memref(&[8]), out.memref(&[PEAK_CHAINS, 1_048_576])];
    let ms = harness::median_ms(&rt, || {
        let mut packed = rt.bind(&arguments, None)?;
        kernel.launch_on(&launch, &mut packed, std::ptr::null_mut())?;
        Ok(())
    })?;
    let flops = (blocks * PEAK_WARPS * iters * PEAK_CHAINS * 2 * 16 * 8 * 16) as f64;
    let tflops = flops / (f64::from(ms) * 1e-3) / 1e12;
    println!(
        "RESULT {}",
        serde_json::json!({"name": name, "path": "cp_async", "shape": serde_json::Value::Null,
                           "ms": ms, "tflops": tflops, "mma_sync_peak": true})
    );
    Ok(true)
}

/// `--child DIR NAME [--time]`: checks (and times) one module, printing a
/// `RESULT` line for each.
fn child_main(args: &[String]) -> Result<bool, Error> {
    let [dir, name, rest @ ..] = args else {
        return Err("--child DIR NAME [--time]".into());
    };
    let time = rest.iter().any(|arg| arg == "--time");
    let dir = Path::new(dir);
    let shape = match Module::parse(name).ok_or("not a GEMM module name")? {
        Module::Gemm(shape) => shape,
        Module::Peak { iters, .. } if time => return peak_child(dir, name, iters),
        Module::Peak { .. } => return Ok(true),
    };
    let (ptx, manifest) = harness::read_module(dir, name)?;
    let entry = manifest.kernel(name).ok_or("no manifest entry")?;
    let path = harness::copy_path(&entry.chip);
    let rt = Runtime::with_device(0)?;
    let kernel = LoadedKernel::load(&rt, &ptx, name, name)?;
    let mut launch = LaunchConfig::declared(entry)?;
    let block = launch.block;
    // A clustered build (examples/gemm/gen.py --cluster) needs whole clusters: its
    // blocks past N store nothing.
    let cluster_x = u64::from(entry.cluster[0].max(1));
    launch.grid = [
        (shape.n.div_ceil(TILE).div_ceil(cluster_x) * cluster_x) as u32,
        shape.m.div_ceil(TILE) as u32,
        1,
    ];
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    let values = draw_values((m + n) * k, shape.macs());
    let bits: Vec<u8> = values
        .iter()
        .flat_map(|value| encode(*value, shape.bf16).to_le_bytes())
        .collect();
    let out = rt.alloc(m * n * shape.out_bytes())?;
    // One src of A then B (N x K), or (`_bn`) A and B (K x N) as two arguments.
    let (src, bsrc) = match shape.b_n {
        true => (
            rt.upload(&bits[..m * k * 2])?,
            Some(rt.upload(&bits[m * k * 2..])?),
        ),
        false => (rt.upload(&bits)?, None),
    };
    let arguments: Vec<Arg> = match &bsrc {
        Some(bsrc) => vec![
            src.memref(&[m as u64, k as u64]),
            bsrc.memref(&[k as u64, n as u64]),
            out.memref(&[m as u64, n as u64]),
        ],
        None => vec![
            src.memref(&[(m + n) as u64, k as u64]),
            out.memref(&[m as u64, n as u64]),
        ],
    };
    let run = |args: &[Arg]| -> Result<(), Error> {
        let mut packed = rt.bind(args, Some(entry))?;
        kernel.launch_on(&launch, &mut packed, std::ptr::null_mut())?;
        Ok(())
    };
    // One launch on a NaN-poisoned out, then every element, or (too large for a host
    // matmul) every tile's corners and random entries, against the host.
    let bytes = poisoned_run(&rt, &out, || run(&arguments))?;
    let ok = if shape.macs() <= CHECK_LIMIT {
        check(&bytes, &values, (shape, path))
    } else {
        spot_check(&bytes, &values, (shape, path))
    };
    if time && shape.macs() >= TIME_FLOOR {
        let ms = harness::median_ms(&rt, || run(&arguments))?;
        let tflops = 2.0 * shape.macs() as f64 / (f64::from(ms) * 1e-3) / 1e12;
        println!(
            "RESULT {}",
            serde_json::json!({"name": name, "path": path, "shape": [shape.m, shape.n, shape.k],
                               "ms": ms, "tflops": tflops, "block": block[0]})
        );
    }
    Ok(ok)
}

/// Launches once on a NaN-poisoned `out` and reads it back.
fn poisoned_run(
    rt: &Runtime,
    out: &acopy_runtime::DeviceBuffer,
    launch: impl Fn() -> Result<(), Error>,
) -> Result<Vec<u8>, Error> {
    out.fill(0xFF)?;
    launch()?;
    rt.synchronize_timeout(Duration::from_secs(60))?;
    Ok(out.to_vec()?)
}

/// How many random entries a shape too large for the host matmul checks,
/// beside the corners of every 128 x 128 tile.
const SPOT_SAMPLES: usize = 4096;

/// Compares the kernel's out `bytes`, exactly, at the four corners of every
/// 128 x 128 tile (where a wrong tile order or a missing tile shows) and at
/// `SPOT_SAMPLES` random entries with their host dot products.
fn spot_check(bytes: &[u8], values: &[i32], (shape, path): (Shape, &str)) -> bool {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    let mut entries: Vec<(usize, usize)> = Vec::new();
    for i in (0..m).step_by(128) {
        for j in (0..n).step_by(128) {
            for (di, dj) in [(0, 0), (127, 0), (0, 127), (127, 127)] {
                entries.push(((i + di).min(m - 1), (j + dj).min(n - 1)));
            }
        }
    }
    let draws = harness::draws(SPOT_SAMPLES, shape.macs() ^ 0x5eed, (m * n) as u64);
    entries.extend(draws.iter().map(|at| (*at as usize / n, *at as usize % n)));
    let b_at = |kk: usize, j: usize| match shape.b_n {
        true => values[m * k + kk * n + j],
        false => values[(m + j) * k + kk],
    };
    let wrong = entries
        .iter()
        .filter(|(i, j)| {
            let want: i64 = (0..k)
                .map(|kk| i64::from(values[i * k + kk] * b_at(kk, *j)))
                .sum();
            shape.out_element(bytes, i * n + j) != shape.expected(want)
        })
        .count();
    let verdict = match wrong {
        0 => format!("exact at {} sampled entries", entries.len()),
        _ => format!("{wrong} of {} sampled entries differ", entries.len()),
    };
    report(shape, path, &verdict, wrong == 0);
    wrong == 0
}

/// Compares every element of the kernel's out `bytes` with the host matmul.
fn check(bytes: &[u8], values: &[i32], (shape, path): (Shape, &str)) -> bool {
    let want = reference(values, shape);
    let wrong = want
        .iter()
        .enumerate()
        .filter(|(at, want)| shape.out_element(bytes, *at) != shape.expected(**want))
        .count();
    let verdict = if wrong == 0 {
        "exact".to_string()
    } else {
        format!("{wrong} of {} differ", want.len())
    };
    report(shape, path, &verdict, wrong == 0);
    wrong == 0
}

/// The `RESULT` line of a check.
fn report(shape: Shape, path: &str, verdict: &str, ok: bool) {
    let name = format!(
        "gemm_{}_{}x{}x{}{}{}",
        if shape.bf16 { "bf16" } else { "f16" },
        shape.m,
        shape.n,
        shape.k,
        if shape.b_n { "_bn" } else { "" },
        if shape.out_bf16 { "_ob16" } else { "" }
    );
    println!(
        "RESULT {}",
        serde_json::json!({"name": name, "path": path, "shape": [shape.m, shape.n, shape.k],
                           "exact_or_max_error": verdict, "ok": ok})
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_give_the_shape_and_the_path() {
        let bf16 = Shape::parse("gemm_bf16_256x128x512").expect("a GEMM name");
        assert_eq!((bf16.m, bf16.n, bf16.k, bf16.bf16), (256, 128, 512, true));
        let f16 = Shape::parse("gemm_f16_128x128x64").expect("a GEMM name");
        assert!(!f16.bf16 && !f16.b_n);
        let b_n = Shape::parse("gemm_bf16_256x128x512_bn").expect("a GEMM name");
        assert_eq!((b_n.m, b_n.n, b_n.k, b_n.b_n), (256, 128, 512, true));
        assert!(!b_n.out_bf16 && !bf16.out_bf16);
        let out_bf16 = Shape::parse("gemm_bf16_256x128x512_bn_ob16").expect("a GEMM name");
        assert!(out_bf16.out_bf16 && out_bf16.b_n && out_bf16.out_bytes() == 2);
        assert!(Shape::parse("gemm_bf16_256x128x512_ob16").is_some_and(|s| s.out_bf16 && !s.b_n));
        assert_eq!(Shape::parse("gemm_bf16_256x128x512_ob16_bn"), None);
        assert_eq!(
            (harness::copy_path("sm_80"), harness::copy_path("sm_89")),
            ("cp_async", "cp_async")
        );
        assert_eq!(
            (harness::copy_path("sm_90a"), harness::copy_path("sm_100a")),
            ("tma", "tma")
        );
        for bad in [
            "gemm_f32_1x1x1",
            "gemm_bf16_1x1",
            "gemm_bf16_0x1x1",
            "copy_bf16_1x1x1",
            "gemm_bf16_1x1x1_bk",
        ] {
            assert_eq!(Shape::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Module::parse("mma_peak_bf16_4096"),
            Some(Module::Peak {
                bf16: true,
                iters: 4096
            })
        );
        for bad in ["mma_peak_f32_1", "mma_peak_f16_0", "mma_peak_f16"] {
            assert_eq!(Module::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn small_integers_encode_exactly() {
        // bf16 is the upper half of f32; f16 has 5 exponent bits, bias 15.
        for value in -2..=2 {
            let bf16 = f32::from_bits(u32::from(encode(value, true)) << 16);
            assert_eq!(bf16, value as f32);
        }
        assert_eq!(encode(1, false), 0x3C00);
        assert_eq!(encode(-2, false), 0xC000);
        assert_eq!(encode(0, false), 0);
        let drawn = draw_values(1000, 7);
        assert!(drawn.iter().all(|v| (-2..=2).contains(v)));
        assert!((-2..=2).all(|v| drawn.contains(&v)));
    }

    #[test]
    fn bf16_outputs_round_to_nearest_even() {
        // 257 lies halfway between the bf16 neighbours 256 and 258: ties go to even
        // (256); 259 is halfway between 258 and 260: to 260. Small sums are exact.
        assert_eq!(round_to_bf16(257.0), 256.0);
        assert_eq!(round_to_bf16(259.0), 260.0);
        assert_eq!(round_to_bf16(-259.0), -260.0);
        assert_eq!(round_to_bf16(258.5), 258.0);
        assert_eq!(round_to_bf16(-7.0), -7.0);
        let shape = Shape::parse("gemm_bf16_1x2x4_ob16").expect("a GEMM name");
        assert_eq!(shape.expected(16_387), 16_384.0);
        let bytes = [0x80, 0x43, 0x00, 0xC0]; // 256.0 and -2.0 as bf16, little-endian
        assert_eq!(
            (shape.out_element(&bytes, 0), shape.out_element(&bytes, 1)),
            (256.0, -2.0)
        );
        let f32_shape = Shape {
            out_bf16: false,
            ..shape
        };
        assert_eq!(f32_shape.expected(16_387), 16_387.0);
    }

    #[test]
    fn the_reference_is_a_times_b_transposed() {
        // A = [[1, 2]], B = [[1, -1], [2, 0]] (N x K): out = [[-1, 2]].
        let shape = Shape {
            bf16: true,
            m: 1,
            n: 2,
            k: 2,
            b_n: false,
            out_bf16: false,
        };
        assert_eq!(reference(&[1, 2, 1, -1, 2, 0], shape), vec![-1, 2]);
        // The same B stored K x N: [[1, 2], [-1, 0]].
        let b_n = Shape { b_n: true, ..shape };
        assert_eq!(reference(&[1, 2, 1, 2, -1, 0], b_n), vec![-1, 2]);
    }
}
