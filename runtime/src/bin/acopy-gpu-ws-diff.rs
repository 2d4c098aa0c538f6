//! `acopy-gpu-ws-diff`: the differential test of marked loops
//! (tests/gpu/ws_diff/README.md).
//!
//! `tests/gpu/ws_diff/build.sh DIR` draws random marked loops (gen.py) and builds
//! each three times: marked as drawn, marked at `stages = 1`, and unmarked. This
//! runs every kernel in a child process of its own (a hang or a trap costs that
//! kernel only): for each of its trip counts, on fresh random bytes, the output
//! and the footer poisoned (0xFF) before each launch, all three builds run and
//! every byte is compared with the host reference below and between the builds.
//! Each kernel's result is `match`, `mismatch`, `hang` (its child timed out),
//! `error` (a trap or a launch failure) or `refused` (acopy-opt refused a build
//! with a documented rule, recorded by build.sh). Writes
//! `{cases: [{name, path, features, result, detail?}], summary}`.

use acopy_runtime::manifest::{KernelEntry, Manifest};
use acopy_runtime::{Arg, DeviceBuffer, LaunchConfig, Runtime};
use clap::Parser;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[path = "acopy-gpu-suite/child.rs"]
mod child;

type Error = Box<dyn std::error::Error>;

/// The builds of each kernel, in the order they run.
const VARIANTS: [&str; 3] = ["marked", "s1", "unmarked"];

#[derive(Parser, Debug)]
struct Cli {
    /// What tests/gpu/ws_diff/build.sh wrote (cases.json, ptx/, refused.log).
    #[arg(long, default_value = "target/ws-diff")]
    dir: PathBuf,
    #[arg(long, default_value = "bench/results/ws-differential-h200.json")]
    results_json: PathBuf,
    #[arg(long, default_value_t = 20261206)]
    seed: u64,
    /// A kernel's child that prints no result for this long is killed (`hang`).
    #[arg(long, default_value_t = 20)]
    case_timeout_s: u64,
    /// Only kernels whose name contains this.
    #[arg(long)]
    only: Option<String>,
    #[arg(long, hide = true)]
    child: Option<String>,
}

fn thread() -> String {
    "thread".into()
}

/// What gen.py drew for a kernel (cases.json).
#[derive(Serialize, Deserialize, Clone, Debug)]
struct Features {
    #[serde(rename = "type")]
    element: String,
    bytes: usize,
    rows: usize,
    cols: usize,
    block: u32,
    grid: u32,
    producer: String,
    /// How a producer's consumers release a slot: "warp" (`release = "warp"`)
    /// or "thread" (the default; cases.json of before it has no entry).
    #[serde(default = "thread")]
    release: String,
    stages: serde_json::Value,
    consumer: String,
    swizzle: u32,
    transform: String,
    k: u8,
    outer: usize,
    tma_store: bool,
    native: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct Case {
    name: String,
    path: String,
    features: Features,
    trips: Vec<usize>,
    tmax: usize,
}

#[derive(Deserialize)]
struct Cases {
    cases: Vec<Case>,
}

/// One kernel's result.
#[derive(Serialize, Deserialize, Clone, Debug)]
struct Outcome {
    name: String,
    path: String,
    features: Features,
    result: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let cases = match read_cases(&cli.dir) {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("acopy-gpu-ws-diff: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(name) = &cli.child {
        return match cases.iter().find(|case| &case.name == name) {
            Some(case) => match run_kernel(&cli, case) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    println!("RESULT error {e}");
                    ExitCode::FAILURE
                }
            },
            None => ExitCode::from(2),
        };
    }
    parent(&cli, &cases)
}

fn read_cases(dir: &Path) -> Result<Vec<Case>, Error> {
    let path = dir.join("cases.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(serde_json::from_str::<Cases>(&text)?.cases)
}

fn parent(cli: &Cli, cases: &[Case]) -> ExitCode {
    let info = match Runtime::probe(0) {
        Ok(info) => info,
        Err(e) => {
            println!("SKIPPED: {e}");
            return ExitCode::SUCCESS;
        }
    };
    println!(
        "acopy-gpu-ws-diff: {} ({}), seed {}",
        info.name,
        info.chip(),
        cli.seed
    );
    let refused = std::fs::read_to_string(cli.dir.join("refused.log")).unwrap_or_default();
    let mut outcomes = Vec::new();
    for case in cases {
        if cli
            .only
            .as_ref()
            .is_some_and(|only| !case.name.contains(only))
        {
            continue;
        }
        let outcome = run_case(cli, case, &refused);
        println!(
            "{} {}: {}",
            outcome.name,
            outcome.result,
            outcome.detail.as_deref().unwrap_or("")
        );
        outcomes.push(outcome);
    }
    let summary = summarize(&outcomes, &info.name);
    println!("ws-diff: {summary}");
    write_results(cli, &outcomes, summary.clone());
    let bad = ["mismatch", "hang", "error"];
    if outcomes.iter().any(|o| bad.contains(&o.result.as_str())) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A kernel's result: `refused` from build.sh's log, else its child's word.
fn run_case(cli: &Cli, case: &Case, refused: &str) -> Outcome {
    let outcome = |result: &str, detail: Option<String>| Outcome {
        name: case.name.clone(),
        path: case.path.clone(),
        features: case.features.clone(),
        result: result.into(),
        detail,
    };
    if let Some(line) = refused
        .lines()
        .find(|line| line.starts_with(&format!("{}_", case.name)))
    {
        return outcome("refused", Some(line.to_string()));
    }
    let seed = cli.seed.to_string();
    let dir = cli.dir.as_os_str().to_string_lossy().to_string();
    let args = ["--child", &case.name, "--dir", &dir, "--seed", &seed];
    let (status, out) = child::run_self(&args, Duration::from_secs(cli.case_timeout_s));
    let said = out.lines().find_map(|line| line.strip_prefix("RESULT "));
    match (status, said) {
        (Err(why), _) => outcome("hang", Some(why)),
        (Ok(_), Some(line)) => {
            let (result, detail) = line.split_once(' ').unwrap_or((line, ""));
            outcome(result, (!detail.is_empty()).then(|| detail.to_string()))
        }
        (Ok(status), None) => outcome("error", Some(format!("no result ({status})"))),
    }
}

fn summarize(outcomes: &[Outcome], device: &str) -> serde_json::Value {
    let count = |result: &str| outcomes.iter().filter(|o| o.result == result).count();
    let per_path = |path: &str| outcomes.iter().filter(|o| o.path == path).count();
    serde_json::json!({
        "device": device,
        "kernels": outcomes.len(),
        "cp_async": per_path("cp_async"),
        "tma": per_path("tma"),
        "match": count("match"),
        "mismatch": count("mismatch"),
        "hang": count("hang"),
        "error": count("error"),
        "refused": count("refused"),
        "producer_warp": outcomes.iter().filter(|o| o.features.producer == "warp").count(),
        "release_warp": outcomes.iter().filter(|o| o.features.release == "warp").count(),
    })
}

fn write_results(cli: &Cli, outcomes: &[Outcome], summary: serde_json::Value) {
    let json = serde_json::json!({
        "date": format!("{:?}", std::time::SystemTime::now()),
        "seed": cli.seed,
        "builds": VARIANTS,
        "cases": outcomes,
        "summary": summary,
    });
    if let Some(dir) = cli.results_json.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let text = serde_json::to_string_pretty(&json).unwrap_or_default();
    if let Err(e) = std::fs::write(&cli.results_json, text) {
        println!("cannot write {}: {e}", cli.results_json.display());
    }
}

/// One loaded build of a kernel.
struct Build {
    module: acopy_runtime::Module,
    manifest: Manifest,
}

impl Build {
    fn load(rt: &Runtime, dir: &Path, module: &str) -> Result<Build, Error> {
        let ptx_path = dir.join("ptx").join(format!("{module}.ptx"));
        let ptx = std::fs::read_to_string(&ptx_path)
            .map_err(|e| format!("{}: {e}", ptx_path.display()))?;
        let manifest_path = dir.join("ptx").join(format!("{module}.manifest.json"));
        let manifest = Manifest::from_json(&std::fs::read_to_string(&manifest_path)?)?;
        let module = rt.load_ptx(&ptx, &ptx_path.display().to_string())?;
        Ok(Build { module, manifest })
    }

    fn entry(&self, name: &str) -> Result<&KernelEntry, Error> {
        self.manifest
            .kernel(name)
            .ok_or_else(|| format!("no manifest entry for {name}").into())
    }
}

/// The device buffers of a kernel: its input, output and footer.
struct Buffers {
    src: Vec<u8>,
    d_src: DeviceBuffer,
    d_out: DeviceBuffer,
    d_foot: DeviceBuffer,
}

/// The child: every trip count, every build, compared with the reference and
/// with each other; prints `RESULT match` or `RESULT mismatch <why>`.
fn run_kernel(cli: &Cli, case: &Case) -> Result<(), Error> {
    let rt = Runtime::with_device(0)?;
    let builds: Vec<Build> = VARIANTS
        .iter()
        .map(|variant| Build::load(&rt, &cli.dir, &format!("{}_{variant}", case.name)))
        .collect::<Result<_, _>>()?;
    let f = &case.features;
    let rows = f.grid as usize * f.outer * case.tmax * f.rows;
    let bytes = rows * f.cols * f.bytes;
    let src = random_bytes(cli.seed ^ fnv(&case.name), bytes);
    let buffers = Buffers {
        d_src: rt.upload(&src)?,
        d_out: rt.alloc(bytes)?,
        d_foot: rt.alloc(f.grid as usize * f.block as usize * 4)?,
        src,
    };
    for &trips in &case.trips {
        let want = reference(case, &buffers.src, trips);
        let mut got: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for (variant, build) in VARIANTS.iter().zip(&builds) {
            let output = launch(&rt, case, build, &buffers, trips, rows)?;
            if let Some(why) = differs(&output, &want) {
                println!("RESULT mismatch {variant} at {trips} trips: {why}");
                return Ok(());
            }
            got.push(output);
        }
        if got.windows(2).any(|pair| pair[0] != pair[1]) {
            println!("RESULT mismatch the builds differ at {trips} trips");
            return Ok(());
        }
    }
    println!("RESULT match");
    Ok(())
}

/// Runs one build at `trips` on poisoned outputs; returns the output and the footer.
fn launch(
    rt: &Runtime,
    case: &Case,
    build: &Build,
    buffers: &Buffers,
    trips: usize,
    rows: usize,
) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let f = &case.features;
    buffers.d_out.fill(0xFF)?;
    buffers.d_foot.fill(0xFF)?;
    let entry = build.entry(&case.name)?;
    let shape = [rows as u64, f.cols as u64];
    let args = vec![
        buffers.d_src.memref(&shape),
        buffers.d_out.memref(&shape),
        buffers.d_foot.memref(&[u64::from(f.grid * f.block)]),
        Arg::I64(trips as i64),
    ];
    let mut packed = rt.bind(&args, Some(entry))?;
    // A producer warp's build declares the block it grew to.
    let block = entry
        .launch
        .as_ref()
        .and_then(|l| l.block)
        .map_or(f.block, |b| b[0]);
    let config = LaunchConfig::linear(f.grid, block).for_kernel(entry);
    let function = build.module.function(&case.name)?;
    function.launch(&config, &mut packed)?;
    rt.synchronize_timeout(Duration::from_secs(10))?;
    Ok((buffers.d_out.to_vec()?, buffers.d_foot.to_vec()?))
}

/// Where `got` first differs from `want`, and how many bytes differ.
fn differs(got: &(Vec<u8>, Vec<u8>), want: &(Vec<u8>, Vec<u8>)) -> Option<String> {
    for (part, (g, w)) in [("out", (&got.0, &want.0)), ("foot", (&got.1, &want.1))] {
        let wrong = g.iter().zip(w.iter()).filter(|(a, b)| a != b).count();
        if wrong > 0 {
            let first = g
                .iter()
                .zip(w.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            return Some(format!(
                "{wrong} bytes of {part} differ, first at byte {first}: got {:#04x}, want {:#04x}",
                g[first], w[first]
            ));
        }
    }
    None
}

/// What the kernel means, its loop run one iteration after another: block b's
/// entry o of the persistent loop reads rows `b·O·TMAX·R + (o·T + i)·R` for
/// i < T and writes them, transformed, to the same rows of `out`; every other
/// byte keeps the poison. Then each consumer thread g writes `7·g + B` to
/// `foot[g]`.
fn reference(case: &Case, src: &[u8], trips: usize) -> (Vec<u8>, Vec<u8>) {
    let f = &case.features;
    let row_bytes = f.cols * f.bytes;
    let mut out = vec![0xFFu8; src.len()];
    for block in 0..f.grid as usize {
        let base = block * f.outer * case.tmax * f.rows;
        for entry in 0..f.outer {
            let first = (base + entry * trips * f.rows) * row_bytes;
            let last = first + trips * f.rows * row_bytes;
            for at in (first..last).step_by(f.bytes) {
                let element = &src[at..at + f.bytes];
                out[at..at + f.bytes].copy_from_slice(&transform(f, element));
            }
        }
    }
    let threads = (f.grid * f.block) as usize;
    let foot = (0..threads)
        .flat_map(|g| ((7 * g + f.block as usize) as i32).to_le_bytes())
        .collect();
    (out, foot)
}

/// One element, little-endian, through the kernel's transform.
fn transform(f: &Features, element: &[u8]) -> Vec<u8> {
    let mut value = element.to_vec();
    match f.transform.as_str() {
        "xor" => value[0] ^= f.k,
        "add" => {
            let mut carry = u16::from(f.k);
            for byte in value.iter_mut() {
                let sum = u16::from(*byte) + carry;
                *byte = sum as u8;
                carry = sum >> 8;
            }
        }
        _ => {}
    }
    value
}

/// Seeded random bytes (xorshift64).
fn random_bytes(seed: u64, bytes: usize) -> Vec<u8> {
    let mut state = seed | 1;
    (0..bytes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// A kernel's own seed from its name (FNV-1a), so each draws other bytes.
fn fnv(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(transform: &str, bytes: usize) -> Features {
        Features {
            element: "i16".into(),
            bytes,
            rows: 2,
            cols: 4,
            block: 32,
            grid: 2,
            producer: "warp".into(),
            release: "thread".into(),
            stages: serde_json::json!(2),
            consumer: "block_dim".into(),
            swizzle: 0,
            transform: transform.into(),
            k: 1,
            outer: 2,
            tma_store: false,
            native: false,
        }
    }

    #[test]
    fn add_carries_through_the_element() {
        let f = features("add", 2);
        assert_eq!(transform(&f, &[0xFF, 0x00]), vec![0x00, 0x01]);
        assert_eq!(transform(&f, &[0xFF, 0xFF]), vec![0x00, 0x00]);
        assert_eq!(
            transform(&features("xor", 2), &[0x01, 0x01]),
            vec![0x00, 0x01]
        );
        assert_eq!(
            transform(&features("copy", 2), &[0x01, 0x01]),
            vec![0x01, 0x01]
        );
    }

    #[test]
    fn the_reference_writes_only_the_rows_each_entry_reads() {
        let case = Case {
            name: "k".into(),
            path: "tma".into(),
            features: features("copy", 2),
            trips: vec![1],
            tmax: 3,
        };
        // 2 blocks x 2 entries x 3 trips max x 2 rows of 8 bytes.
        let src: Vec<u8> = (0..2 * 2 * 3 * 2 * 8).map(|i| i as u8).collect();
        let (out, foot) = reference(&case, &src, 1);
        let written: Vec<usize> = (0..out.len() / 16)
            .filter(|row| out[row * 16] != 0xFF)
            .collect();
        // One trip: entry 0 at rows 0..2 (row pair 0), entry 1 at rows 2..4 (pair
        // 1); block 1 starts at row 12 (pair 6).
        assert_eq!(written, vec![0, 1, 6, 7]);
        assert_eq!(&foot[..4], &32i32.to_le_bytes());
        assert_eq!(&foot[4..8], &39i32.to_le_bytes());
    }

    #[test]
    fn a_differing_byte_is_named() {
        let want = (vec![1, 2, 3], vec![4]);
        assert_eq!(differs(&want.clone(), &want), None);
        let got = (vec![1, 9, 3], vec![4]);
        assert!(differs(&got, &want)
            .is_some_and(|why| why.contains("1 bytes of out differ, first at byte 1")));
        let got = (vec![1, 2, 3], vec![5]);
        assert!(differs(&got, &want).is_some_and(|why| why.contains("of foot")));
    }
}
