//! `acopy-gpu-attention`: the attention kernels of `examples/attention/gen.py` on the
//! GPU through acopy-runtime alone: each module `attn_{f16,bf16}_BHxSxD[_causal]` of a
//! directory (its PTX and manifest) is checked and, with `--time`, timed, in a child
//! process of its own.
//!
//! - **Checked** (shapes up to 2^28 multiply-adds of Q Kᵀ): q, k and v hold
//!   multiples of 1/256 in [-1, 1] (exact in f16 and bf16), out is poisoned with NaN, and
//!   every element is compared with softmax(Q Kᵀ / sqrt(D)) V computed on the host
//!   in f64 (masked past the diagonal with `_causal`). The kernel rounds P to the
//!   input type and uses ex2.approx: it passes when the largest absolute error is
//!   at most [`Shape::tolerance`].
//! - **Timed** (`--time`, shapes of at least 2^30): the median of 20 launches after
//!   5, between CUDA events; TFLOP/s = 4 BH S² D / time (half that when causal).
//!
//! Prints one JSON line per module (`{name, path, shape, exact_or_max_error, ok}`,
//! or with `tflops` and `ms`); `--json FILE` writes `{cases, performance}`.
//! Usage: `acopy-gpu-attention DIR [--time] [--json FILE] [--timeout-s N]`.

use acopy_runtime::{LaunchConfig, LoadedKernel, Runtime};
use std::path::Path;
use std::time::Duration;

#[path = "kernel-bench/harness.rs"]
mod harness;
use harness::Error;

const CHECK_LIMIT: u64 = 1 << 28;
const TIME_FLOOR: u64 = 1 << 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    bf16: bool,
    bh: u64,
    s: u64,
    d: u64,
    causal: bool,
}

impl Shape {
    /// `attn_bf16_32x4096x128` or `attn_f16_1x200x64_causal`.
    fn parse(name: &str) -> Option<Shape> {
        let (bf16, rest) = match name.strip_prefix("attn_bf16_") {
            Some(rest) => (true, rest),
            None => (false, name.strip_prefix("attn_f16_")?),
        };
        let (dims, causal) = match rest.strip_suffix("_causal") {
            Some(dims) => (dims, true),
            None => (rest, false),
        };
        let mut parts = dims.split('x').map(|part| part.parse::<u64>().ok());
        let (bh, s, d) = (parts.next()??, parts.next()??, parts.next()??);
        if parts.next().is_some() || bh == 0 || s == 0 || !matches!(d, 64 | 128) {
            return None;
        }
        Some(Shape {
            bf16,
            bh,
            s,
            d,
            causal,
        })
    }

    /// The largest error a checked element may have: P is rounded to f16 (11
    /// significant bits) or bf16 (8), and exp2 is approximate.
    fn tolerance(&self) -> f64 {
        if self.bf16 {
            2e-2
        } else {
            1e-2
        }
    }

    fn macs(&self) -> u64 {
        self.bh
            .saturating_mul(self.s)
            .saturating_mul(self.s)
            .saturating_mul(self.d)
    }

    fn flops(&self) -> f64 {
        let full = 4.0 * self.macs() as f64;
        if self.causal {
            full / 2.0
        } else {
            full
        }
    }
}

/// bf16 bits of `k / 256` for |k| <= 256 (at most 8 significant bits: exact):
/// the upper half of the f32.
fn bf16_of_256ths(k: i32) -> u16 {
    ((k as f32 / 256.0).to_bits() >> 16) as u16
}

/// f16 bits of `k / 256` for |k| <= 256: exact, normal or zero.
fn f16_of_256ths(k: i32) -> u16 {
    if k == 0 {
        return 0;
    }
    let sign = if k < 0 { 0x8000 } else { 0 };
    let magnitude = k.unsigned_abs();
    // k / 256 = 1.f * 2^e with e = floor(log2 k) - 8.
    let top = 31 - magnitude.leading_zeros();
    let exponent = top as i32 - 8 + 15;
    let fraction = (magnitude << (10 - top)) & 0x3FF;
    sign | ((exponent as u16) << 10) | fraction as u16
}

/// Deterministic multiples of 1/256 in [-1, 1], as integers k.
fn draw(count: usize, seed: u64) -> Vec<i32> {
    harness::draws(count, seed, 513)
        .into_iter()
        .map(|draw| draw as i32 - 256)
        .collect()
}

/// softmax(Q Kᵀ / sqrt(D)) V per (bh), row by row, in f64.
fn reference(q: &[i32], k: &[i32], v: &[i32], shape: Shape) -> Vec<f64> {
    let (s, bh) = (shape.s as usize, shape.bh as usize);
    (0..bh)
        .flat_map(|b| (0..s).map(move |i| (b, i)))
        .flat_map(|(b, i)| reference_row(q, k, v, shape, b, i))
        .collect()
}

/// Row `i` of head `b` of the reference: its D outputs.
fn reference_row(q: &[i32], k: &[i32], v: &[i32], shape: Shape, b: usize, i: usize) -> Vec<f64> {
    let (s, d) = (shape.s as usize, shape.d as usize);
    let value = |x: i32| f64::from(x) / 256.0;
    let scale = 1.0 / (d as f64).sqrt();
    let base = b * s * d;
    let keys = if shape.causal { i + 1 } else { s };
    let scores: Vec<f64> = (0..keys)
        .map(|j| {
            (0..d)
                .map(|x| value(q[base + i * d + x]) * value(k[base + j * d + x]))
                .sum::<f64>()
                * scale
        })
        .collect();
    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores.iter().map(|score| (score - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    (0..d)
        .map(|x| {
            weights
                .iter()
                .enumerate()
                .map(|(j, w)| w * value(v[base + j * d + x]))
                .sum::<f64>()
                / total
        })
        .collect()
}

/// The rows a shape too large for the whole reference checks: the first and
/// last row of every 64-row block of the first and last head, and random ones.
fn sampled_rows(shape: Shape) -> Vec<(usize, usize)> {
    let (s, bh) = (shape.s as usize, shape.bh as usize);
    let mut rows: Vec<(usize, usize)> = [0, bh - 1]
        .iter()
        .flat_map(|b| {
            (0..s)
                .step_by(64)
                .flat_map(move |i| [(*b, i), (*b, (i + 63).min(s - 1))])
        })
        .collect();
    let draws = harness::draws(256, shape.macs() ^ 0x5eed, (bh * s) as u64);
    rows.extend(draws.iter().map(|at| (*at as usize / s, *at as usize % s)));
    rows
}

fn main() -> std::process::ExitCode {
    harness::main(
        "acopy-gpu-attention",
        Shape::parse,
        child_main,
        |name, shape, why| {
            serde_json::json!({
                "name": name, "shape": [shape.bh, shape.s, shape.d], "causal": shape.causal,
                "exact_or_max_error": why, "ok": false,
            })
        },
    )
}

fn child_main(args: &[String]) -> Result<bool, Error> {
    let [dir, name, rest @ ..] = args else {
        return Err("--child DIR NAME [--time]".into());
    };
    let shape = Shape::parse(name).ok_or("not an attention module name")?;
    let dir = Path::new(dir);
    let (ptx, manifest) = harness::read_module(dir, name)?;
    let entry = manifest.kernel(name).ok_or("no manifest entry")?;
    let path = harness::copy_path(&entry.chip);
    let rt = Runtime::with_device(0)?;
    let kernel = LoadedKernel::load(&rt, &ptx, name, name)?;
    let mut launch = LaunchConfig::declared(entry)?;
    let block = launch.block;
    // examples/attention/gen.py gives each warp 16 query rows: a block of 4 warps
    // takes 64, one of 8 warps 128 (its --rows), which the manifest's block says.
    let rows = u64::from(block[0]) / 2;
    launch.grid = [shape.s.div_ceil(rows) as u32, shape.bh as u32, 1];
    let elements = (shape.bh * shape.s * shape.d) as usize;
    let [q, k, v] = [1u64, 2, 3].map(|seed| draw(elements, shape.macs() ^ (seed << 40)));
    let upload = |values: &[i32]| {
        let bits: Vec<u8> = values
            .iter()
            .flat_map(|value| {
                let bits = if shape.bf16 {
                    bf16_of_256ths(*value)
                } else {
                    f16_of_256ths(*value)
                };
                bits.to_le_bytes()
            })
            .collect();
        rt.upload(&bits)
    };
    let (dq, dk, dv) = (upload(&q)?, upload(&k)?, upload(&v)?);
    let out = rt.alloc(elements * 4)?;
    let dims = [shape.bh, shape.s, shape.d];
    let arguments = [
        dq.memref(&dims),
        dk.memref(&dims),
        dv.memref(&dims),
        out.memref(&dims),
    ];
    let run = || -> Result<(), Error> {
        let mut packed = rt.bind(&arguments, Some(entry))?;
        kernel.launch_on(&launch, &mut packed, std::ptr::null_mut())?;
        Ok(())
    };
    let shape_json = serde_json::json!([shape.bh, shape.s, shape.d]);
    out.fill(0xFF)?;
    run()?;
    rt.synchronize_timeout(Duration::from_secs(30))?;
    let got = out.to_vec()?;
    let all_rows = shape.macs() <= CHECK_LIMIT;
    let error = output_error(&got, [&q, &k, &v], shape, all_rows);
    let ok = error <= shape.tolerance();
    println!(
        "RESULT {}",
        serde_json::json!({"name": name, "path": path, "shape": shape_json, "causal": shape.causal,
                           "exact_or_max_error": error, "ok": ok,
                           "rows_checked": if all_rows { "all" } else { "sampled" }})
    );
    if rest.iter().any(|arg| arg == "--time") && shape.macs() >= TIME_FLOOR {
        let ms = harness::median_ms(&rt, run)?;
        let tflops = shape.flops() / (f64::from(ms) * 1e-3) / 1e12;
        println!(
            "RESULT {}",
            serde_json::json!({"name": name, "path": path, "shape": shape_json, "causal": shape.causal,
                               "ms": ms, "tflops": tflops, "block": block[0]})
        );
    }
    Ok(ok)
}

/// The largest error of the kernel's `got` against the reference: over every
/// row where the host reference is cheap (`all_rows`), else over sampled rows.
fn output_error(got: &[u8], [q, k, v]: [&[i32]; 3], shape: Shape, all_rows: bool) -> f64 {
    if all_rows {
        return max_error(got, &reference(q, k, v, shape));
    }
    let row = 4 * shape.d as usize;
    sampled_rows(shape)
        .into_iter()
        .map(|(b, i)| {
            let at = (b * shape.s as usize + i) * row;
            max_error(&got[at..at + row], &reference_row(q, k, v, shape, b, i))
        })
        .fold(0.0, f64::max)
}

/// The largest absolute difference of the f32 `bytes` from `want`; a NaN
/// (an element the kernel did not write) is infinitely far.
fn max_error(bytes: &[u8], want: &[f64]) -> f64 {
    bytes
        .chunks_exact(4)
        .zip(want)
        .map(|(got, want)| {
            let got = f64::from(f32::from_le_bytes([got[0], got[1], got[2], got[3]]));
            if got.is_nan() {
                f64::INFINITY
            } else {
                (got - want).abs()
            }
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_give_the_shape() {
        let shape = Shape::parse("attn_f16_32x4096x128_causal").expect("a name");
        assert_eq!(
            (shape.bh, shape.s, shape.d, shape.causal, shape.bf16),
            (32, 4096, 128, true, false)
        );
        assert!(Shape::parse("attn_bf16_2x256x64").expect("a name").bf16);
        assert_eq!(shape.flops(), 2.0 * 32.0 * 4096.0 * 4096.0 * 128.0);
        for bad in [
            "attn_f16_1x2x32",
            "attn_f32_1x2x64",
            "attn_f16_0x2x64",
            "attn_f16_1x2",
        ] {
            assert_eq!(Shape::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn multiples_of_a_256th_encode_exactly_in_f16() {
        assert_eq!(f16_of_256ths(256), 0x3C00); // 1.0
        assert_eq!(f16_of_256ths(-128), 0xB800); // -0.5
        assert_eq!(f16_of_256ths(1), 0x1C00); // 2^-8
        assert_eq!(f16_of_256ths(3), 0x2200); // 3 * 2^-8 = 1.5 * 2^-7
        assert_eq!(f16_of_256ths(0), 0);
        for k in [-256, -255, -3, 0, 1, 127, 255, 256] {
            let bf16 = f32::from_bits(u32::from(bf16_of_256ths(k)) << 16);
            assert_eq!(bf16, k as f32 / 256.0, "{k}");
        }
        let drawn = draw(10_000, 5);
        assert!(drawn.iter().all(|k| (-256..=256).contains(k)));
    }

    #[test]
    fn an_unwritten_element_is_infinitely_wrong() {
        let bytes: Vec<u8> = [1.0f32, f32::NAN]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(max_error(&bytes[..4], &[0.75]), 0.25);
        assert_eq!(max_error(&bytes, &[1.0, 0.0]), f64::INFINITY);
    }

    #[test]
    fn the_reference_is_a_softmax_average() {
        // One query, two keys with scores 0 and 0 (q = 0): the mean of the two values.
        let shape = Shape {
            bf16: false,
            bh: 1,
            s: 2,
            d: 64,
            causal: false,
        };
        let q = vec![0; 128];
        let k = vec![256; 128];
        let mut v = vec![0; 128];
        v[0] = 256;
        v[64] = -128;
        let out = reference(&q, &k, &v, shape);
        assert!((out[0] - 0.25).abs() < 1e-12);
        // Causal: the first query sees only the first key.
        let causal = reference(
            &q,
            &k,
            &v,
            Shape {
                causal: true,
                ..shape
            },
        );
        assert!((causal[0] - 1.0).abs() < 1e-12);
    }
}
