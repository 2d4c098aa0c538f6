//! What the pipelined-loop runner's matrices share: a case's configuration and
//! result, seeded random data, one child process per module, and the timing loop.

use acopy_runtime::Runtime;
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub type Error = Box<dyn std::error::Error>;

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct CaseResult {
    pub name: String,
    pub path: String,
    pub stages: u32,
    pub trips: u64,
    pub lb: u64,
    pub step: u64,
    pub block: u32,
    pub exact: bool,
    pub wrong: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub trips: u64,
    pub lb: u64,
    pub step: u64,
    pub block: u32,
}

impl Config {
    /// The upper bound: short of the last step's end, so a step of 3 also tests an
    /// upper bound that is not lb + T*step; below lb for T = 0 when lb allows.
    pub fn ub(&self) -> i64 {
        let lb = self.lb as i64;
        if self.trips == 0 {
            return if lb >= 4 { lb - 4 } else { lb };
        }
        lb + (self.trips as i64 - 1) * self.step as i64 + 1
    }

    pub fn ivs(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.trips).map(|j| self.lb + j * self.step)
    }
}

pub fn fill_error(
    module: &str,
    path: &str,
    stages: u32,
    configs: &[Config],
    error: &str,
) -> Vec<CaseResult> {
    configs
        .iter()
        .map(|c| CaseResult {
            error: Some(error.into()),
            ..CaseResult::new(module, path, stages, c)
        })
        .collect()
}

pub fn case_name(module: &str, c: &Config) -> String {
    format!("{module}_t{}_lb{}_st{}_b{}", c.trips, c.lb, c.step, c.block)
}

/// Seeded random bytes (xorshift), so a failing case is reproduced from its seed.
pub fn random_words(seed: u64, words: usize) -> Vec<u32> {
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

pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub const GIB: usize = 1 << 30;
pub fn median_ms(rt: &Runtime, mut run: impl FnMut() -> Result<(), Error>) -> Result<f64, Error> {
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

/// Runs `--child module` in a child process (`child::run_self`) and reads its
/// `RESULT` lines; an error only when it failed before reporting any.
pub fn run_module(
    module: &str,
    ptx_dir: &Path,
    seed: u64,
    timeout: Duration,
) -> Result<Vec<CaseResult>, String> {
    let seed = seed.to_string();
    let args: [&OsStr; 6] = [
        "--child".as_ref(),
        module.as_ref(),
        "--ptx-dir".as_ref(),
        ptx_dir.as_os_str(),
        "--seed".as_ref(),
        seed.as_ref(),
    ];
    let (status, out) = super::child::run_self(&args, timeout);
    let results: Vec<CaseResult> = out
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    match status {
        _ if !results.is_empty() => Ok(results),
        Ok(status) if status.success() => Ok(results),
        Ok(status) => Err(format!("child failed: {status}")),
        Err(error) => Err(error),
    }
}

/// Runs this program with `flag` (a bandwidth child) and reads its `RESULT` rows.
pub fn bandwidth_child(
    flag: &str,
    ptx_dir: &Path,
    seed: u64,
) -> Result<Vec<serde_json::Value>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let child = Command::new(exe)
        .arg(flag)
        .arg("--ptx-dir")
        .arg(ptx_dir)
        .arg("--seed")
        .arg(seed.to_string())
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

/// What the 1 GiB timing runs share: random x and y of small multiples of 1/4 (so
/// 2x + y is exact in f32, fused or not) on the device, an output buffer, the device
/// copy's GB/s (printed as the `device_copy` row) and the axpy's expected result.
pub struct BandwidthData {
    pub rt: Runtime,
    pub sms: u32,
    pub x: Vec<u32>,
    pub d_x: acopy_runtime::DeviceBuffer,
    pub d_y: acopy_runtime::DeviceBuffer,
    pub d_out: acopy_runtime::DeviceBuffer,
    pub copy_gbps: f64,
    pub axpy_want: Vec<u32>,
}

pub fn bandwidth_data(seed: u64) -> Result<BandwidthData, Error> {
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
    Ok(BandwidthData {
        rt,
        sms,
        x,
        d_x,
        d_y,
        d_out,
        copy_gbps,
        axpy_want,
    })
}

/// One module's results, as its child reported them, or each of its cases failed
/// with why when the child reported too few; prints the module's line.
pub fn module_results(
    module: &str,
    path: &str,
    stages: u32,
    expected: &[Config],
    started: Instant,
    got: Result<Vec<CaseResult>, String>,
) -> Vec<CaseResult> {
    let results = match got {
        Ok(results) if results.len() == expected.len() => results,
        Ok(results) => fill_error(
            module,
            path,
            stages,
            expected,
            &format!("{} results of {}", results.len(), expected.len()),
        ),
        Err(e) => fill_error(module, path, stages, expected, &e),
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
    results
}

impl CaseResult {
    /// The result of `config` in `module`, not yet run.
    pub fn new(module: &str, path: &str, stages: u32, config: &Config) -> Self {
        CaseResult {
            name: case_name(module, config),
            path: path.into(),
            stages,
            trips: config.trips,
            lb: config.lb,
            step: config.step,
            block: config.block,
            exact: false,
            wrong: 0,
            error: None,
        }
    }
}

/// Whether `got` holds exactly the little-endian words `want` (a 1 GiB output in about
/// the time of a memcmp: the comparison runs a block at a time, without an early exit
/// inside a block).
pub fn same_words(got: &[u8], want: &[u32]) -> bool {
    got.len() == want.len() * 4
        && got.chunks(1 << 14).zip(want.chunks(1 << 12)).all(|(g, w)| {
            g.chunks_exact(4).zip(w).fold(true, |ok, (c, w)| {
                ok & (u32::from_le_bytes([c[0], c[1], c[2], c[3]]) == *w)
            })
        })
}

/// Little-endian 32-bit words of `bytes`.
pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// How many words of `got` differ from `want` (a length difference counts as
/// wrong too); the first difference goes to stderr under `name`.
pub fn count_wrong(name: &str, got: &[u32], want: &[u32]) -> u64 {
    let wrong = got.iter().zip(want).filter(|(g, w)| g != w).count() as u64
        + got.len().abs_diff(want.len()) as u64;
    if let Some(first) = got.iter().zip(want).position(|(g, w)| g != w) {
        eprintln!(
            "{name}: {wrong} wrong; first at {first}: got {:#x}, want {:#x}",
            got[first], want[first]
        );
    }
    wrong
}
