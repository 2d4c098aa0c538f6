//! What the pipelined-loop runner's matrices share: a case's configuration and
//! result, seeded random data, one child process per module, and the timing loop.

use acopy_runtime::Runtime;
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

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
    let (status, out) = super::child::run_self(&args, timeout)?;
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
