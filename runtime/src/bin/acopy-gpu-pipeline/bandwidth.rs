//! `--bandwidth`: the persistent-grid kernels over 1 GiB (`pipe_bw_reduce`,
//! `pipe_bw_axpy`, `pipe_bw_axpy_store`; tests/gpu/pipeline/gen.py), timed against the
//! device copy in the same process.
//!
//! The plan is every module `pipe_bw_<kernel>_r<rows>_s<S>_<path>` of the selected
//! kernels (`--bw-kernels`), tile rows (`--reduce-rows`, `--axpy-rows`, each a list),
//! paths and S = 1..4, each at every blocks per SM (`--blocks-per-sm`) and thread count
//! (`--threads`). What cannot run is a row with `skipped` and the reason, not an error:
//! a module without PTX (acopy-opt refused it; build.sh's `refused.log` says why) and a
//! launch shape whose blocks do not fit one SM side by side (the occupancy calculator,
//! e.g. 32 KiB tiles at S = 4 and 2 blocks per SM). One child process times the modules
//! in order, the 2 GiB of inputs made once; a child that fails, or prints nothing for
//! `--bw-module-timeout-s`, ends its module with `error` rows and a new child resumes at
//! the next module. A module that failed after others in the same child is first retried
//! alone in a fresh child, so that a fault left by an earlier module in the context is
//! not blamed on it (its rows then carry `retried_alone` and the first error). After
//! `--bw-deadline-s` no child starts: the modules left are skipped with that reason.
//! Each launch shape is checked once (the reduction's sums of the first blocks, the
//! axpy's every element), then timed: the median of 11 after 3 warm-ups.
//! `tile_bytes` is the bytes of all tiles one stage copies into shared memory: rows x
//! 512 for the reduction, 2 x rows x 512 for the axpys (axpy_store's third tile is
//! stored, not copied in by a stage).

use super::common::{bandwidth_data, median_ms, same_words, BandwidthData, Error, GIB};
use acopy_runtime::manifest::{KernelEntry, Manifest};
use acopy_runtime::{Arg, Function, LaunchConfig, RuntimeError};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The bandwidth kernels, longest name first (so `parse` finds axpy_store before axpy).
pub const KERNELS: [&str; 3] = ["axpy_store", "reduce", "axpy"];
const BW_ROWS: u64 = 2_097_152;
/// The reduction's output, `memref<1024x256xi32>`: one row per block, one word per thread.
const OUT_BLOCKS: u32 = 1024;
const OUT_THREADS: u32 = 256;

/// What `--bandwidth` runs (from the command line).
pub struct Options {
    pub ptx_dir: PathBuf,
    pub seed: u64,
    pub kernels: Vec<String>,
    pub reduce_rows: Vec<u64>,
    pub axpy_rows: Vec<u64>,
    pub blocks_per_sm: Vec<u32>,
    pub threads: Vec<u32>,
    pub only_module: Option<String>,
    pub module_timeout: Duration,
    pub deadline: Option<Duration>,
}

/// One bandwidth module: `pipe_bw_<kernel>` with `rows` x 128 tiles, S stages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BwModule {
    pub kernel: &'static str,
    pub rows: u64,
    pub path: &'static str,
    pub stages: u32,
}

impl BwModule {
    pub fn name(&self) -> String {
        format!(
            "pipe_bw_{}_r{}_s{}_{}",
            self.kernel, self.rows, self.stages, self.path
        )
    }

    /// The bytes of all tiles one stage copies into shared memory.
    pub fn tile_bytes(&self) -> u64 {
        let tiles = if self.kernel == "reduce" { 1 } else { 2 };
        tiles * self.rows * 128 * 4
    }

    /// The module `name` names, if it is a bandwidth module.
    pub fn parse(name: &str) -> Option<BwModule> {
        let rest = name.strip_prefix("pipe_bw_")?;
        let kernel = KERNELS
            .into_iter()
            .find(|k| rest.starts_with(&format!("{k}_r")))?;
        let rest = &rest[kernel.len() + 2..];
        let (rows, rest) = rest.split_once("_s")?;
        let (stages, path) = rest.split_once('_')?;
        let path = paths(kernel).iter().copied().find(|p| *p == path)?;
        let rows: u64 = rows.parse().ok()?;
        let stages: u32 = stages.parse().ok()?;
        (rows > 0 && (1..=4).contains(&stages)).then_some(BwModule {
            kernel,
            rows,
            path,
            stages,
        })
    }

    /// The fields every row of this module at one launch shape has.
    fn row(&self, blocks_per_sm: u32, block: u32) -> serde_json::Map<String, Value> {
        let value = json!({
            "module": self.name(), "kernel": format!("pipe_{}", self.kernel), "path": self.path,
            "stages": self.stages, "rows": self.rows, "tile_bytes": self.tile_bytes(),
            "blocks_per_sm": blocks_per_sm, "block": block,
        });
        match value {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        }
    }
}

/// The paths a bandwidth kernel runs on: a TMA store has no cp.async form.
fn paths(kernel: &str) -> &'static [&'static str] {
    if kernel == "axpy_store" {
        &["tma"]
    } else {
        &["cp_async", "tma"]
    }
}

/// Whether the options can be run: known kernels, tile rows that divide the 1 GiB,
/// blocks that fit the reduction's output.
pub fn validate(opts: &Options) -> Result<(), String> {
    if let Some(bad) = opts.kernels.iter().find(|k| !KERNELS.contains(&k.as_str())) {
        return Err(format!(
            "--bw-kernels: unknown kernel `{bad}` (known: reduce, axpy, axpy_store)"
        ));
    }
    for (flag, rows) in [
        ("--reduce-rows", &opts.reduce_rows),
        ("--axpy-rows", &opts.axpy_rows),
    ] {
        if let Some(bad) = rows.iter().find(|&&r| r == 0 || !BW_ROWS.is_multiple_of(r)) {
            return Err(format!(
                "{flag}: {bad} rows do not divide the {BW_ROWS} rows of 1 GiB"
            ));
        }
    }
    if let Some(bad) = opts.threads.iter().find(|&&t| t == 0 || t > OUT_THREADS) {
        return Err(format!(
            "--threads: {bad} is not 1..={OUT_THREADS} (the reduction writes one word per thread into rows of {OUT_THREADS})"
        ));
    }
    if let Some(bad) = opts.blocks_per_sm.iter().find(|&&b| b == 0 || b > 4) {
        return Err(format!("--blocks-per-sm: {bad} is not 1..=4"));
    }
    if opts.threads.is_empty() || opts.blocks_per_sm.is_empty() {
        return Err("--threads and --blocks-per-sm need at least one value".into());
    }
    Ok(())
}

/// Every selected module, in the order they run: kernel, tile rows, path, S.
pub fn plan(opts: &Options) -> Vec<BwModule> {
    let mut out = Vec::new();
    for kernel in ["reduce", "axpy", "axpy_store"] {
        if !opts.kernels.iter().any(|k| k == kernel) {
            continue;
        }
        let rows = if kernel == "reduce" {
            &opts.reduce_rows
        } else {
            &opts.axpy_rows
        };
        for &rows in rows {
            for &path in paths(kernel) {
                for stages in 1..=4u32 {
                    let module = BwModule {
                        kernel,
                        rows,
                        path,
                        stages,
                    };
                    if opts
                        .only_module
                        .as_ref()
                        .is_none_or(|m| *m == module.name())
                    {
                        out.push(module);
                    }
                }
            }
        }
    }
    out
}

/// The launch shapes, `(blocks per SM, threads)`, in the order they run.
fn shapes(opts: &Options) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for &b in &opts.blocks_per_sm {
        for &t in &opts.threads {
            out.push((b, t));
        }
    }
    out
}

/// A row per launch shape of `module`, each skipped for `why`.
fn skipped_rows(module: &BwModule, shapes: &[(u32, u32)], why: &str) -> Vec<Value> {
    shapes
        .iter()
        .map(|&(b, t)| {
            let mut row = module.row(b, t);
            row.insert("gbps".into(), Value::Null);
            row.insert("exact".into(), Value::Null);
            row.insert("skipped".into(), why.into());
            Value::Object(row)
        })
        .collect()
}

/// Why a module after the deadline has no rows.
const DEADLINE: &str = "not run: the run's deadline (--bw-deadline-s) had passed";

/// What `--bandwidth` measured: its rows (the device copy's apart) and whether every
/// row that ran was exact.
pub struct Run {
    pub rows: Vec<Value>,
    pub copy_gbps: Value,
    pub ok: bool,
}

/// The parent of `--bandwidth`: the modules without PTX skipped, the rest run in
/// children (`run_modules`); each row is printed as it comes.
pub fn parent(opts: &Options) -> Run {
    if let Err(e) = validate(opts) {
        println!("bandwidth: {e}");
        return Run {
            rows: Vec::new(),
            copy_gbps: Value::Null,
            ok: false,
        };
    }
    let shapes = shapes(opts);
    let refused = refused_reasons(&opts.ptx_dir);
    let mut rows = Vec::new();
    let mut runnable = Vec::new();
    for module in plan(opts) {
        let name = module.name();
        if opts.ptx_dir.join(format!("{name}.ptx")).exists() {
            runnable.push(module);
            continue;
        }
        let why = refused.get(&name).map_or_else(
            || format!("no {name}.ptx in {}", opts.ptx_dir.display()),
            |r| format!("acopy-opt refused it: {r}"),
        );
        for row in skipped_rows(&module, &shapes, &why) {
            println!("{row}");
            rows.push(row);
        }
    }
    let started = Instant::now();
    let expired = || opts.deadline.is_some_and(|d| started.elapsed() > d);
    rows.extend(run_modules(&runnable, &shapes, expired, |modules| {
        let left = opts.deadline.map(|d| d.saturating_sub(started.elapsed()));
        spawn_child(opts, modules, left)
    }));
    let copy_gbps = rows
        .iter()
        .find(|r| r["kernel"] == "device_copy")
        .map_or(Value::Null, |r| r["gbps"].clone());
    rows.retain(|r| r["kernel"] != "device_copy");
    let ok = rows
        .iter()
        .all(|r| r.get("skipped").is_some() || r["exact"] == true);
    Run {
        rows,
        copy_gbps,
        ok,
    }
}

/// build.sh's `refused.log` in the PTX folder: `<module>: <why>` per line.
fn refused_reasons(ptx_dir: &Path) -> HashMap<String, String> {
    let text = std::fs::read_to_string(ptx_dir.join("refused.log")).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(m, why)| (m.to_string(), why.to_string()))
        .collect()
}

/// What one child reported: its rows (the device copy's too), the modules it finished
/// (`DONE` lines), why it stopped early, if it did, and whether it stopped at the
/// deadline (`DEADLINE`: it started no module after it).
#[derive(Default)]
pub struct ChildRun {
    pub rows: Vec<Value>,
    pub done: Vec<String>,
    pub failure: Option<String>,
    pub deadline: bool,
}

/// Runs `modules` in children from `spawn`, resuming after a module that failed (one
/// retry alone when it was not its child's first module); once `expired`, the modules
/// left are skipped. Returns every row, in module order, the device copy's included.
pub fn run_modules(
    modules: &[BwModule],
    shapes: &[(u32, u32)],
    expired: impl Fn() -> bool,
    mut spawn: impl FnMut(&[BwModule]) -> ChildRun,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut next = 0;
    while next < modules.len() {
        if expired() {
            for module in &modules[next..] {
                out.extend(skipped_rows(module, shapes, DEADLINE));
            }
            break;
        }
        let left = &modules[next..];
        let run = spawn(left);
        let finished = left
            .iter()
            .take_while(|m| run.done.contains(&m.name()))
            .count();
        out.extend(rows_of(&run.rows, &left[..finished], true));
        next += finished;
        if next == modules.len() {
            break;
        }
        if run.deadline && run.failure.is_none() {
            for module in &modules[next..] {
                out.extend(skipped_rows(module, shapes, DEADLINE));
            }
            break;
        }
        let failed = &modules[next];
        let why = failure_of(&run, failed);
        let last = if finished > 0 && !expired() {
            let alone = spawn(std::slice::from_ref(failed));
            if alone.done.contains(&failed.name()) {
                out.extend(retried_rows(&alone.rows, failed, &why));
                next += 1;
                continue;
            }
            alone
        } else {
            run
        };
        let why = failure_of(&last, failed);
        out.extend(failed_rows(&last.rows, failed, shapes, &why));
        next += 1;
    }
    out
}

/// The rows of `run` that belong to `modules` (and, with `copy`, the device copy's).
fn rows_of(rows: &[Value], modules: &[BwModule], copy: bool) -> Vec<Value> {
    let names: Vec<String> = modules.iter().map(BwModule::name).collect();
    rows.iter()
        .filter(|r| {
            (copy && r["kernel"] == "device_copy")
                || r["module"]
                    .as_str()
                    .is_some_and(|m| names.iter().any(|n| n == m))
        })
        .cloned()
        .collect()
}

/// Why `module` did not finish in `run`: the error its child printed for it, else
/// why the child stopped.
fn failure_of(run: &ChildRun, module: &BwModule) -> String {
    let name = module.name();
    run.rows
        .iter()
        .filter(|r| r["module"] == name.as_str())
        .find_map(|r| r["error"].as_str().map(str::to_string))
        .or_else(|| run.failure.clone())
        .unwrap_or_else(|| "the child stopped before the module's end".into())
}

/// A module that ran alone after failing in a shared child: its rows, marked.
fn retried_rows(rows: &[Value], module: &BwModule, first_error: &str) -> Vec<Value> {
    rows_of(rows, std::slice::from_ref(module), false)
        .into_iter()
        .map(|mut row| {
            row["retried_alone"] = true.into();
            row["first_error"] = first_error.into();
            row
        })
        .collect()
}

/// A module that failed: the shape rows its child printed, then an `error` row for
/// each shape without one.
fn failed_rows(rows: &[Value], module: &BwModule, shapes: &[(u32, u32)], why: &str) -> Vec<Value> {
    let mut out: Vec<Value> = rows_of(rows, std::slice::from_ref(module), false)
        .into_iter()
        .filter(|r| r["block"].is_u64())
        .collect();
    for &(b, t) in shapes {
        let has = out
            .iter()
            .any(|r| r["blocks_per_sm"] == b && r["block"] == t);
        if !has {
            let mut row = module.row(b, t);
            row.insert("gbps".into(), Value::Null);
            row.insert("exact".into(), false.into());
            row.insert("error".into(), why.into());
            out.push(Value::Object(row));
        }
    }
    out
}

/// Runs `--child-bw` on `modules`, printing its rows as they come; a child silent for
/// the module timeout is killed.
fn spawn_child(opts: &Options, modules: &[BwModule], deadline: Option<Duration>) -> ChildRun {
    let names: Vec<String> = modules.iter().map(BwModule::name).collect();
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut args: Vec<String> = vec![
        "--child-bw".into(),
        "--ptx-dir".into(),
        opts.ptx_dir.display().to_string(),
        "--seed".into(),
        opts.seed.to_string(),
        "--bw-modules".into(),
        names.join(","),
        "--blocks-per-sm".into(),
        list(&opts.blocks_per_sm),
        "--threads".into(),
        list(&opts.threads),
    ];
    if let Some(left) = deadline {
        args.extend(["--bw-deadline-s".into(), left.as_secs().to_string()]);
    }
    let mut run = ChildRun::default();
    let started = Instant::now();
    run.failure = stream_self(&args, opts.module_timeout, |line| {
        if let Some(row) = line.strip_prefix("RESULT ") {
            if let Ok(row) = serde_json::from_str::<Value>(row) {
                println!("{row}");
                run.rows.push(row);
            }
        } else if let Some(module) = line.strip_prefix("DONE ") {
            println!("{module}: done ({:.1}s)", started.elapsed().as_secs_f64());
            run.done.push(module.to_string());
        } else if line == "DEADLINE" {
            run.deadline = true;
        }
    });
    run
}

/// Runs this binary with `args`, handing each line of its stdout to `on_line` as it
/// comes; kills it when no line came for `idle`. Returns why it failed, if it did.
fn stream_self(args: &[String], idle: Duration, mut on_line: impl FnMut(&str)) -> Option<String> {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return Some(format!("cannot find own binary: {e}")),
    };
    let mut child = match Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return Some(format!("cannot start the bandwidth child: {e}")),
    };
    let Some(stdout) = child.stdout.take() else {
        return Some("the bandwidth child has no standard output".into());
    };
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut hung = None;
    loop {
        match rx.recv_timeout(idle) {
            Ok(line) => on_line(&line),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                hung = Some(format!(
                    "no output for {}s (hung kernel?); the child was killed",
                    idle.as_secs()
                ));
                let _ = child.kill();
                break;
            }
        }
    }
    let status = child.wait();
    let _ = reader.join();
    match (hung, status) {
        (Some(why), _) => Some(why),
        (None, Ok(status)) if status.success() => None,
        (None, Ok(status)) => Some(format!("child failed: {status}")),
        (None, Err(e)) => Some(format!("waiting for the child: {e}")),
    }
}

/// What the checks of one child keep between launches: the reduction's expected sums
/// by (tile rows, grid, threads), each made once, and a 1 GiB host buffer for the
/// axpy's output (allocated once, not per launch).
#[derive(Default)]
struct Checks {
    sums: HashMap<(u64, u32, u32), Vec<u32>>,
    host: Vec<u8>,
}

/// `--child-bw`: times `modules` in order on one set of inputs, printing a `RESULT`
/// row per launch shape and `DONE <module>` after each; a module that fails prints an
/// `error` row and ends the child (its context may be unusable). Past the deadline it
/// starts no module: it prints `DEADLINE` and ends.
pub fn child(opts: &Options, modules: &[String]) -> Result<(), Error> {
    let modules: Vec<BwModule> = modules
        .iter()
        .map(|m| BwModule::parse(m).ok_or_else(|| format!("unknown bandwidth module {m}")))
        .collect::<Result<_, _>>()?;
    let started = Instant::now();
    let data = bandwidth_data(opts.seed)?;
    let mut checks = Checks::default();
    for module in &modules {
        if opts.deadline.is_some_and(|d| started.elapsed() > d) {
            println!("DEADLINE");
            return Ok(());
        }
        if let Err(e) = time_module(opts, &data, &mut checks, module) {
            let mut row = module.row(0, 0);
            row.insert("block".into(), Value::Null);
            row.insert("blocks_per_sm".into(), Value::Null);
            row.insert("error".into(), e.to_string().into());
            println!("RESULT {}", Value::Object(row));
            return Err(e);
        }
        println!("DONE {}", module.name());
    }
    Ok(())
}

/// Why `blocks_per_sm` blocks cannot run side by side on one SM when only `fit` do.
pub fn fit_reason(fit: u32, blocks_per_sm: u32, block: u32, smem: [u32; 2]) -> Option<String> {
    (fit < blocks_per_sm).then(|| {
        format!(
            "{fit} block(s) of {block} threads fit one SM side by side, {blocks_per_sm} asked \
             (shared memory per block: {} static + {} dynamic bytes)",
            smem[0], smem[1]
        )
    })
}

/// Loads one module and times it at each launch shape, or prints the shape skipped.
fn time_module(
    opts: &Options,
    data: &BandwidthData,
    checks: &mut Checks,
    module: &BwModule,
) -> Result<(), Error> {
    let name = module.name();
    let ptx_path = opts.ptx_dir.join(format!("{name}.ptx"));
    let ptx =
        std::fs::read_to_string(&ptx_path).map_err(|e| format!("{}: {e}", ptx_path.display()))?;
    // TMA kernels always have a manifest (their tensor maps); a cp.async one has one
    // when its slots moved to dynamic shared memory.
    let manifest_path = opts.ptx_dir.join(format!("{name}.manifest.json"));
    let manifest = if module.path == "tma" || manifest_path.exists() {
        Some(Manifest::from_json(&std::fs::read_to_string(
            &manifest_path,
        )?)?)
    } else {
        None
    };
    let kernel = format!("pipe_bw_{}", module.kernel);
    let entry = manifest.as_ref().and_then(|m| m.kernel(&kernel));
    let loaded = data.rt.load_ptx(&ptx, &name)?;
    let function = loaded.function(&kernel)?;
    let dynamic = entry.and_then(|e| e.dynamic_shared_memory).unwrap_or(0);
    for (blocks_per_sm, block) in shapes(opts) {
        let mut row = module.row(blocks_per_sm, block);
        row.insert("static_shared_memory".into(), function.static_smem().into());
        row.insert("dynamic_shared_memory".into(), dynamic.into());
        let skipped = match function.max_blocks_per_sm(block, dynamic) {
            Ok(fit) => {
                row.insert("max_blocks_per_sm".into(), fit.into());
                let smem = [function.static_smem(), dynamic];
                fit_reason(fit, blocks_per_sm, block, smem)
            }
            Err(e @ RuntimeError::SharedMemory { .. }) => Some(e.to_string()),
            Err(e) => return Err(e.into()),
        };
        if let Some(why) = skipped {
            row.insert("gbps".into(), Value::Null);
            row.insert("exact".into(), Value::Null);
            row.insert("skipped".into(), why.into());
        } else {
            let launch = Launch {
                function: &function,
                entry,
                blocks_per_sm,
                block,
            };
            time_launch(data, checks, module, &launch, &mut row)?;
        }
        println!("RESULT {}", Value::Object(row));
    }
    Ok(())
}

/// One launch shape of a loaded module.
struct Launch<'a> {
    function: &'a Function<'a>,
    entry: Option<&'a KernelEntry>,
    blocks_per_sm: u32,
    block: u32,
}

/// Checks the output of one launch, then times the median launch; the row gets
/// `gbps`, `exact` and the ratio to the device copy.
fn time_launch(
    data: &BandwidthData,
    checks: &mut Checks,
    module: &BwModule,
    launch: &Launch<'_>,
    row: &mut serde_json::Map<String, Value>,
) -> Result<(), Error> {
    let BandwidthData {
        rt,
        sms,
        d_x,
        d_y,
        d_out,
        copy_gbps,
        ..
    } = data;
    let grid = sms * launch.blocks_per_sm;
    if module.kernel == "reduce" && grid > OUT_BLOCKS {
        return Err(
            format!("a grid of {grid} blocks; the reduction's output holds {OUT_BLOCKS}").into(),
        );
    }
    let shape = [BW_ROWS, 128];
    let args: Vec<Arg> = if module.kernel == "reduce" {
        vec![d_x.memref(&shape), d_out.memref(&[1024, 256])]
    } else {
        vec![d_x.memref(&shape), d_y.memref(&shape), d_out.memref(&shape)]
    };
    let config = match launch.entry {
        Some(entry) => LaunchConfig::linear(grid, launch.block).for_kernel(entry),
        None => LaunchConfig::linear(grid, launch.block),
    };
    d_out.fill(0xFF)?;
    let mut packed = rt.bind(&args, launch.entry)?;
    launch.function.launch(&config, &mut packed)?;
    rt.synchronize_timeout(Duration::from_secs(20))?;
    let exact = launch_exact(data, checks, module, grid, launch.block)?;
    let ms = median_ms(rt, || {
        let mut packed = rt.bind(&args, launch.entry)?;
        Ok(launch.function.launch(&config, &mut packed)?)
    })?;
    let bytes = if module.kernel == "reduce" {
        GIB
    } else {
        3 * GIB
    } as f64;
    let gbps = bytes / ms / 1e6;
    row.insert("gbps".into(), gbps.into());
    row.insert("ratio_to_device_copy".into(), (gbps / copy_gbps).into());
    row.insert("exact".into(), exact.into());
    row.insert("ratio_to_reference".into(), Value::Null);
    Ok(())
}

/// Whether the output of the launch just made is what the kernel means: the first
/// `grid` blocks' sums for the reduction, 2x + y for the axpys.
fn launch_exact(
    data: &BandwidthData,
    checks: &mut Checks,
    module: &BwModule,
    grid: u32,
    block: u32,
) -> Result<bool, Error> {
    if module.kernel != "reduce" {
        checks.host.resize(data.d_out.len(), 0);
        data.d_out.read(&mut checks.host)?;
        return Ok(same_words(&checks.host, &data.axpy_want));
    }
    let mut got = vec![0u8; (OUT_BLOCKS * OUT_THREADS * 4) as usize];
    data.d_out.read(&mut got)?;
    let want = checks
        .sums
        .entry((module.rows, grid, block))
        .or_insert_with(|| reduce_reference(&data.x, module.rows, grid, block));
    Ok(got
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .zip(want.iter())
        .all(|(g, w)| g == *w))
}

/// The persistent reduction's 1024 x 256 output words: block b's thread sums over the
/// tiles b, b + grid, ...; thread t adds vectors t, t + block, ... of each tile; the
/// words no thread writes keep the poison (0xFFFFFFFF).
pub fn reduce_reference(x: &[u32], rows: u64, grid: u32, block: u32) -> Vec<u32> {
    let mut want = vec![u32::MAX; (OUT_BLOCKS * OUT_THREADS) as usize];
    let tile = (rows * 128) as usize;
    let tiles = x.len() / tile;
    let block = block as usize;
    for b in 0..grid as usize {
        let mut sums = vec![0u32; block];
        for t in (b..tiles).step_by(grid as usize) {
            for (e, v) in x[t * tile..(t + 1) * tile].iter().enumerate() {
                let s = &mut sums[(e / 4) % block];
                *s = s.wrapping_add(*v);
            }
        }
        let at = b * OUT_THREADS as usize;
        want[at..at + block].copy_from_slice(&sums);
    }
    want
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Options {
        Options {
            ptx_dir: PathBuf::from("/nonexistent"),
            seed: 1,
            kernels: vec!["reduce".into(), "axpy".into()],
            reduce_rows: vec![4, 8, 16, 32, 64],
            axpy_rows: vec![2, 4, 8, 16, 32],
            blocks_per_sm: vec![1, 2],
            threads: vec![128],
            only_module: None,
            module_timeout: Duration::from_secs(1),
            deadline: None,
        }
    }

    fn module(name: &str) -> BwModule {
        BwModule::parse(name).expect(name)
    }

    #[test]
    fn names_parse_back() {
        for name in [
            "pipe_bw_reduce_r4_s1_cp_async",
            "pipe_bw_reduce_r64_s4_tma",
            "pipe_bw_axpy_r2_s3_cp_async",
            "pipe_bw_axpy_store_r8_s2_tma",
        ] {
            assert_eq!(module(name).name(), name);
        }
        let m = module("pipe_bw_axpy_store_r8_s2_tma");
        assert_eq!(
            (m.kernel, m.rows, m.stages, m.path),
            ("axpy_store", 8, 2, "tma")
        );
        for bad in [
            "pipe_bw_axpy_store_r8_s2_cp_async",
            "pipe_bw_reduce_r8_s5_tma",
            "pipe_bw_reduce_r0_s1_tma",
            "pipe_bw_reduce_rx_s1_tma",
            "pipe_bw_copy_r8_s1_tma",
            "pipe_reduce_s1_tma",
            "pipe_bw_reduce_r8_s1_sm90",
        ] {
            assert_eq!(BwModule::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn tile_bytes_count_every_tile_a_stage_copies() {
        assert_eq!(module("pipe_bw_reduce_r4_s1_tma").tile_bytes(), 2048);
        assert_eq!(module("pipe_bw_reduce_r64_s1_tma").tile_bytes(), 32768);
        assert_eq!(module("pipe_bw_axpy_r2_s1_tma").tile_bytes(), 2048);
        assert_eq!(module("pipe_bw_axpy_r32_s1_tma").tile_bytes(), 32768);
        assert_eq!(module("pipe_bw_axpy_store_r8_s1_tma").tile_bytes(), 8192);
    }

    #[test]
    fn the_tile_plan_is_5_sizes_by_4_stages_by_2_paths_per_kernel() {
        let tiles = plan(&options());
        assert_eq!(tiles.len(), 2 * 5 * 4 * 2);
        assert_eq!(tiles[0].name(), "pipe_bw_reduce_r4_s1_cp_async");
        assert_eq!(tiles[4].name(), "pipe_bw_reduce_r4_s1_tma");
        assert_eq!(tiles[79].name(), "pipe_bw_axpy_r32_s4_tma");
        let sizes: Vec<u64> = tiles.iter().map(BwModule::tile_bytes).collect();
        for kib in [2, 4, 8, 16, 32] {
            assert_eq!(sizes.iter().filter(|&&b| b == kib * 1024).count(), 16);
        }
        // The default flags: one size each and the TMA store.
        let mut opts = options();
        opts.kernels = KERNELS.iter().map(|k| k.to_string()).collect();
        opts.reduce_rows = vec![16];
        opts.axpy_rows = vec![8];
        assert_eq!(plan(&opts).len(), 8 + 8 + 4);
        opts.only_module = Some("pipe_bw_axpy_r8_s3_cp_async".into());
        assert_eq!(plan(&opts), vec![module("pipe_bw_axpy_r8_s3_cp_async")]);
    }

    #[test]
    fn bad_options_are_refused_with_the_flag() {
        assert_eq!(validate(&options()), Ok(()));
        type Change = fn(&mut Options);
        let cases: [(Change, &str); 7] = [
            (|o| o.kernels.push("copy".into()), "--bw-kernels"),
            (|o| o.reduce_rows.push(0), "--reduce-rows: 0"),
            (|o| o.axpy_rows.push(3), "--axpy-rows: 3"),
            (|o| o.threads.push(512), "--threads: 512"),
            (|o| o.blocks_per_sm.push(5), "--blocks-per-sm: 5"),
            (|o| o.blocks_per_sm.push(0), "--blocks-per-sm: 0"),
            (|o| o.threads.clear(), "at least one value"),
        ];
        for (change, flag) in cases {
            let mut opts = options();
            change(&mut opts);
            let e = validate(&opts).unwrap_err();
            assert!(e.contains(flag), "{e}");
        }
    }

    #[test]
    fn a_shape_that_does_not_fit_an_sm_is_skipped_with_why() {
        assert_eq!(fit_reason(2, 2, 128, [32, 131072]), None);
        assert_eq!(fit_reason(3, 1, 128, [32, 131072]), None);
        let why = fit_reason(1, 2, 128, [32, 131112]).unwrap();
        assert!(why.starts_with("1 block(s) of 128 threads fit one SM side by side, 2 asked"));
        assert!(why.contains("32 static + 131112 dynamic"), "{why}");
        assert!(fit_reason(0, 1, 256, [0, 0]).is_some());
    }

    /// A row the fake child prints for `m` at a shape.
    fn measured(m: &BwModule, (b, t): (u32, u32)) -> Value {
        let mut row = m.row(b, t);
        row.insert("gbps".into(), 1000.0.into());
        row.insert("exact".into(), true.into());
        Value::Object(row)
    }

    /// A fake child: runs the modules it is given in order and fails at the module
    /// named in `faults` (once per entry), printing an error row when `reports`.
    fn fake<'a>(
        shapes: &'a [(u32, u32)],
        faults: &'a std::cell::RefCell<Vec<String>>,
        reports: bool,
        calls: &'a std::cell::RefCell<Vec<Vec<String>>>,
    ) -> impl FnMut(&[BwModule]) -> ChildRun + 'a {
        move |modules| {
            calls
                .borrow_mut()
                .push(modules.iter().map(BwModule::name).collect());
            let mut run = ChildRun::default();
            run.rows
                .push(json!({"kernel": "device_copy", "gbps": 4000.0}));
            for m in modules {
                let mut faults = faults.borrow_mut();
                if let Some(at) = faults.iter().position(|f| *f == m.name()) {
                    faults.remove(at);
                    run.rows.push(measured(m, shapes[0]));
                    if reports {
                        run.rows
                            .push(json!({"module": m.name(), "block": null, "error": "trap"}));
                    }
                    run.failure = Some("child failed: exit status: 1".into());
                    return run;
                }
                run.rows.extend(shapes.iter().map(|&s| measured(m, s)));
                run.done.push(m.name());
            }
            run
        }
    }

    fn four() -> Vec<BwModule> {
        plan(&options()).into_iter().take(4).collect()
    }

    fn of<'a>(rows: &'a [Value], m: &BwModule) -> Vec<&'a Value> {
        rows.iter()
            .filter(|r| r["module"] == m.name().as_str())
            .collect()
    }

    #[test]
    fn one_child_times_every_module() {
        let (shapes, faults, calls) =
            ([(1, 128), (2, 128)], Default::default(), Default::default());
        let modules = four();
        let rows = run_modules(
            &modules,
            &shapes,
            || false,
            fake(&shapes, &faults, true, &calls),
        );
        assert_eq!(calls.borrow().len(), 1);
        assert_eq!(rows.len(), 1 + 4 * 2);
        assert!(rows[1..].iter().all(|r| r["exact"] == true));
    }

    #[test]
    fn a_module_that_fails_after_others_is_retried_alone_and_the_rest_resume() {
        let shapes = [(1, 128), (2, 128)];
        let modules = four();
        let faults = std::cell::RefCell::new(vec![modules[2].name()]);
        let calls = Default::default();
        let rows = run_modules(
            &modules,
            &shapes,
            || false,
            fake(&shapes, &faults, true, &calls),
        );
        let calls: Vec<Vec<String>> = calls.into_inner();
        assert_eq!(calls.len(), 3);
        assert_eq!(calls[1], vec![modules[2].name()]);
        assert_eq!(calls[2], vec![modules[3].name()]);
        let retried = of(&rows, &modules[2]);
        assert_eq!(retried.len(), 2);
        assert!(retried
            .iter()
            .all(|r| r["retried_alone"] == true && r["first_error"] == "trap"));
        assert_eq!(of(&rows, &modules[3]).len(), 2);
        assert!(of(&rows, &modules[1])[0].get("retried_alone").is_none());
    }

    #[test]
    fn a_module_that_fails_alone_too_keeps_its_rows_and_errors_the_rest() {
        let shapes = [(1, 128), (2, 128)];
        let modules = four();
        let faults = std::cell::RefCell::new(vec![modules[1].name(), modules[1].name()]);
        let calls = Default::default();
        let rows = run_modules(
            &modules,
            &shapes,
            || false,
            fake(&shapes, &faults, false, &calls),
        );
        assert_eq!(calls.borrow().len(), 3);
        let failed = of(&rows, &modules[1]);
        assert_eq!(failed.len(), 2);
        assert_eq!(failed[0]["exact"], true);
        assert_eq!(failed[1]["exact"], false);
        assert_eq!(failed[1]["error"], "child failed: exit status: 1");
        assert_eq!(
            (
                failed[1]["blocks_per_sm"].as_u64(),
                failed[1]["gbps"].is_null()
            ),
            (Some(2), true)
        );
        assert_eq!(of(&rows, &modules[2]).len(), 2);
        assert_eq!(of(&rows, &modules[3]).len(), 2);
    }

    #[test]
    fn a_first_module_that_fails_is_not_retried() {
        let shapes = [(1, 128)];
        let modules = four();
        let faults = std::cell::RefCell::new(vec![modules[0].name()]);
        let calls = Default::default();
        let rows = run_modules(
            &modules,
            &shapes,
            || false,
            fake(&shapes, &faults, true, &calls),
        );
        let calls: Vec<Vec<String>> = calls.into_inner();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[1].len(), 3);
        // The one shape it measured before the trap stays; no error row is added.
        let first = of(&rows, &modules[0]);
        assert_eq!((first.len(), first[0]["exact"].as_bool()), (1, Some(true)));
    }

    #[test]
    fn after_the_deadline_the_modules_left_are_skipped() {
        let shapes = [(1, 128), (2, 128)];
        let modules = four();
        let faults = std::cell::RefCell::new(vec![modules[1].name()]);
        let calls = Default::default();
        let spawned = std::cell::Cell::new(0);
        let expired = || spawned.get() > 0;
        let mut child = fake(&shapes, &faults, true, &calls);
        let rows = run_modules(&modules, &shapes, expired, |m| {
            spawned.set(spawned.get() + 1);
            child(m)
        });
        assert_eq!(spawned.get(), 1);
        let failed = of(&rows, &modules[1]);
        assert_eq!(failed.last().unwrap()["error"], "trap");
        for m in &modules[2..] {
            let left = of(&rows, m);
            assert_eq!(left.len(), 2);
            assert!(left[0]["skipped"].as_str().unwrap().contains("deadline"));
        }
    }

    #[test]
    fn a_child_that_stops_at_the_deadline_skips_the_rest_without_a_retry() {
        let shapes = [(1, 128)];
        let modules = four();
        let mut calls = 0;
        let rows = run_modules(
            &modules,
            &shapes,
            || false,
            |left| {
                calls += 1;
                let mut run = ChildRun::default();
                run.rows.push(measured(&left[0], shapes[0]));
                run.done.push(left[0].name());
                run.deadline = true;
                run
            },
        );
        assert_eq!(calls, 1);
        assert_eq!(of(&rows, &modules[0])[0]["exact"], true);
        for m in &modules[1..] {
            assert_eq!(of(&rows, m)[0]["skipped"], DEADLINE);
        }
    }

    /// The consumer as gen.py writes it: thread t loads vector<4xi32> v = t, t + block,
    /// ... < rows * 32 of each tile and adds it lane-wise; the lanes are added at the end.
    fn kernel_loop(x: &[u32], rows: u64, grid: u32, block: u32) -> Vec<u32> {
        let tile = (rows * 128) as usize;
        let mut want = vec![u32::MAX; (OUT_BLOCKS * OUT_THREADS) as usize];
        for b in 0..grid as usize {
            for t in 0..block as usize {
                let mut lanes = [0u32; 4];
                for i in (b..x.len() / tile).step_by(grid as usize) {
                    for v in (t..tile / 4).step_by(block as usize) {
                        for (l, lane) in lanes.iter_mut().enumerate() {
                            *lane = lane.wrapping_add(x[i * tile + 4 * v + l]);
                        }
                    }
                }
                want[b * OUT_THREADS as usize + t] =
                    lanes.iter().fold(0u32, |a, l| a.wrapping_add(*l));
            }
        }
        want
    }

    #[test]
    fn the_reference_is_the_kernels_loop_at_4_and_64_rows_and_128_and_256_threads() {
        let x = super::super::common::random_words(7, 64 * 128 * 13);
        for rows in [4, 64] {
            for block in [128, 256] {
                for grid in [3, 5] {
                    let want = reduce_reference(&x, rows, grid, block);
                    assert_eq!(
                        want,
                        kernel_loop(&x, rows, grid, block),
                        "{rows} {block} {grid}"
                    );
                }
            }
        }
        // 4 rows are 128 vectors: threads 128..255 of a 256-thread block add nothing.
        let want = reduce_reference(&x, 4, 3, 256);
        assert!(want[128..256].iter().all(|&w| w == 0));
        assert!(want[3 * 256..].iter().all(|&w| w == u32::MAX));
    }

    #[test]
    fn outputs_compare_word_for_word() {
        let want: Vec<u32> = (0..10_000).collect();
        let mut got = super::super::common::bytes_of(&want);
        assert!(same_words(&got, &want));
        let last = got.len() - 1;
        got[last] ^= 1;
        assert!(!same_words(&got, &want));
        assert!(!same_words(&got[..got.len() - 4], &want));
    }

    #[test]
    fn refused_modules_read_their_reason() {
        let dir = std::env::temp_dir().join(format!("acopy-bw-refused-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("refused.log"),
            "pipe_bw_axpy_r64_s4_tma: the pipelined loop needs 262296 bytes: more\n",
        )
        .unwrap();
        let reasons = refused_reasons(&dir);
        assert_eq!(
            reasons["pipe_bw_axpy_r64_s4_tma"],
            "the pipelined loop needs 262296 bytes: more"
        );
        assert!(refused_reasons(&dir.join("none")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
