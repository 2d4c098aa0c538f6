//! What `acopy-gpu-gemm` and `acopy-gpu-attention` share (their `#[path]` includes
//! this file): the flags, the modules of a directory (each a `.ptx` with its
//! `.manifest.json`, named by the kernel's shape), one child process per module
//! (a trap or a hang costs that module only), the JSON they print and write, and
//! the timing.

use acopy_runtime::Runtime;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "../acopy-gpu-suite/child.rs"]
mod child;

pub type Error = Box<dyn std::error::Error>;

/// The flags: the directory, `--time`, `--json FILE`, `--timeout-s N`.
pub struct Options {
    pub dir: PathBuf,
    pub time: bool,
    pub json: Option<PathBuf>,
    pub timeout: Duration,
}

/// Reads the flags; `tool` names the binary in the usage line.
pub fn options(args: &[String], tool: &str) -> Result<Options, Error> {
    let mut options = Options {
        dir: PathBuf::new(),
        time: false,
        json: None,
        timeout: Duration::from_secs(120),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--time" => options.time = true,
            "--json" => options.json = Some(rest.next().ok_or("--json needs a file")?.into()),
            "--timeout-s" => {
                let seconds = rest.next().ok_or("--timeout-s needs a number")?.parse()?;
                options.timeout = Duration::from_secs(seconds);
            }
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}").into()),
            dir => options.dir = dir.into(),
        }
    }
    if options.dir.as_os_str().is_empty() {
        return Err(format!("usage: {tool} DIR [--time] [--json FILE] [--timeout-s N]").into());
    }
    Ok(options)
}

/// The modules of `dir` whose names `parse` reads, by name, in order.
pub fn modules<S>(dir: &Path, parse: fn(&str) -> Option<S>) -> Result<Vec<(String, S)>, Error> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().and_then(|ext| ext.to_str()) != Some("ptx") {
            continue;
        }
        let Some(name) = path.file_stem().and_then(|stem| stem.to_str()) else {
            continue;
        };
        if let Some(shape) = parse(name) {
            found.push((name.to_string(), shape));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// `main` of either binary: `--child ...` runs `child`, anything else the
/// parent over the modules `parse` names; `failed(name, shape, why)` is the case
/// row of a module whose child printed nothing.
pub fn main<S>(
    tool: &str,
    parse: fn(&str) -> Option<S>,
    child: fn(&[String]) -> Result<bool, Error>,
    failed: fn(&str, &S, String) -> serde_json::Value,
) -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("--child") => child(&args[1..]),
        _ => parent(&args, tool, parse, failed),
    };
    match result {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(error) => {
            eprintln!("{tool}: {error}");
            std::process::ExitCode::from(2)
        }
    }
}

fn parent<S>(
    args: &[String],
    tool: &str,
    parse: fn(&str) -> Option<S>,
    failed: fn(&str, &S, String) -> serde_json::Value,
) -> Result<bool, Error> {
    let options = options(args, tool)?;
    if let Err(error) = Runtime::probe(0) {
        println!("SKIPPED: {error}");
        return Ok(true);
    }
    let (mut cases, mut performance, mut all_ok) = (Vec::new(), Vec::new(), true);
    for (name, shape) in modules(&options.dir, parse)? {
        let mut child_args = vec![
            "--child".to_string(),
            options.dir.display().to_string(),
            name.clone(),
        ];
        if options.time {
            child_args.push("--time".into());
        }
        let (status, stdout) = child::run_self(&child_args, options.timeout);
        let mut lines: Vec<serde_json::Value> = stdout
            .lines()
            .filter_map(|line| line.strip_prefix("RESULT "))
            .filter_map(|json| serde_json::from_str(json).ok())
            .collect();
        if lines.is_empty() {
            let why = status.map_or_else(|e| e, |s| s.to_string());
            lines.push(failed(&name, &shape, format!("no result ({why})")));
        }
        for line in lines {
            println!("{line}");
            if line.get("tflops").is_some() {
                performance.push(line);
            } else {
                all_ok &= line.get("ok") == Some(&serde_json::Value::Bool(true));
                cases.push(line);
            }
        }
    }
    if let Some(json) = options.json {
        let document = serde_json::json!({"cases": cases, "performance": performance});
        std::fs::write(json, serde_json::to_string_pretty(&document)?)?;
    }
    Ok(all_ok)
}

/// Module `name` of `dir`: its PTX and its manifest (`examples/*/build.sh`
/// writes both).
pub fn read_module(
    dir: &Path,
    name: &str,
) -> Result<(String, acopy_runtime::manifest::Manifest), Error> {
    let ptx = std::fs::read_to_string(dir.join(format!("{name}.ptx")))?;
    let manifest_text = std::fs::read_to_string(dir.join(format!("{name}.manifest.json")))?;
    Ok((
        ptx,
        acopy_runtime::manifest::Manifest::from_json(&manifest_text)?,
    ))
}

/// The median of 20 launches after 5 warm-ups, each between two events.
pub fn median_ms(rt: &Runtime, launch: impl Fn() -> Result<(), Error>) -> Result<f32, Error> {
    for _ in 0..5 {
        launch()?;
    }
    rt.synchronize()?;
    let mut times = Vec::with_capacity(20);
    for _ in 0..20 {
        let (start, stop) = (rt.event()?, rt.event()?);
        start.record()?;
        launch()?;
        stop.record()?;
        stop.synchronize()?;
        times.push(stop.elapsed_ms_since(&start)?);
    }
    times.sort_by(f32::total_cmp);
    Ok(times[times.len() / 2])
}

/// The copy path of a module compiled for `chip`: cp.async on sm_80 to sm_89,
/// TMA from sm_90 on.
pub fn copy_path(chip: &str) -> &'static str {
    if chip.starts_with("sm_8") {
        "cp_async"
    } else {
        "tma"
    }
}

/// xorshift64*: the same draws on every machine for a seed, each below `bound`.
pub fn draws(count: usize, seed: u64, bound: u64) -> Vec<u64> {
    let mut state = seed | 1;
    (0..count)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % bound
        })
        .collect()
}
