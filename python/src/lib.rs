//! `acopy._native`: the Rust half of the Python package.
//!
//! It calls `acopy::compile` / `acopy::verify` and hands back plain Python
//! values (dicts, lists, strings); `acopy/__init__.py` turns them into the
//! package's classes and raises its exceptions, so the Python API stays in one
//! Python file. Nothing here panics across the boundary: argument errors are
//! `ValueError`s, and a panic inside acopy becomes an error diagnostic (the
//! caller then gets `acopy.CompileError`, not pyo3's `PanicException`).

mod launch;
mod xla;

use std::panic::{catch_unwind, AssertUnwindSafe};

use acopy::{
    target::CopyPath, Chip, Compiled, Detail, Diagnostic, Emit, Failed, Input, Options,
    PipelinedLoop, Severity, WaitScheme,
};
use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyDict, PyList},
};

/// `compile(source, filename, chip, fallback, emit)` -> dict with `ok`,
/// `outputs` (dicts: `module`, `chip`, `text`, `manifest` as JSON text),
/// `manifest` (JSON text) and `diagnostics` (dicts, see [`diagnostic`]).
/// Everything a launch needs about a kernel is in the manifest (format
/// version 2: arguments, block, cluster, shared memory, chip), and each
/// output's chip is the compiler's; nothing here reads the source again.
#[pyfunction]
fn compile<'py>(
    py: Python<'py>,
    source: String,
    filename: String,
    chip: Option<String>,
    fallback: bool,
    emit: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let options = Options {
        chip: parse_chip(chip.as_deref())?,
        fallback,
        emit: parse_emit(emit)?,
        ..Default::default()
    };
    // Each call has its own MLIR context, so other Python threads may run
    // (and compile) meanwhile.
    let result = py.detach(|| {
        contain(|| acopy::compile(Input::file(&filename, &source), &options))
            .unwrap_or_else(|message| Err(panicked(message)))
    });
    let dict = PyDict::new(py);
    match result {
        Ok(Compiled {
            outputs,
            manifest,
            diagnostics,
        }) => {
            let list = PyList::empty(py);
            for output in outputs {
                let item = PyDict::new(py);
                item.set_item("module", output.module)?;
                item.set_item("chip", output.chip)?;
                item.set_item("manifest", output.manifest.to_json_pretty())?;
                item.set_item("text", output.text)?;
                list.append(item)?;
            }
            dict.set_item("ok", true)?;
            dict.set_item("outputs", list)?;
            dict.set_item("manifest", manifest.to_json_pretty())?;
            dict.set_item("diagnostics", diagnostics_list(py, &diagnostics)?)?;
        }
        Err(Failed { diagnostics }) => {
            dict.set_item("ok", false)?;
            dict.set_item("diagnostics", diagnostics_list(py, &diagnostics)?)?;
        }
    }
    Ok(dict)
}

/// `verify(source, filename, chip, fallback)` -> list of diagnostic dicts.
#[pyfunction]
fn verify<'py>(
    py: Python<'py>,
    source: String,
    filename: String,
    chip: Option<String>,
    fallback: bool,
) -> PyResult<Bound<'py, PyList>> {
    let options = Options {
        chip: parse_chip(chip.as_deref())?,
        fallback,
        ..Default::default()
    };
    let diagnostics = py.detach(|| {
        contain(|| acopy::verify(Input::file(&filename, &source), &options))
            .unwrap_or_else(|message| panicked(message).diagnostics)
    });
    diagnostics_list(py, &diagnostics)
}

/// The chip names acopy accepts, oldest first.
#[pyfunction]
fn chips() -> Vec<&'static str> {
    Chip::all().iter().map(Chip::name).collect()
}

fn parse_chip(chip: Option<&str>) -> PyResult<Option<Chip>> {
    chip.map(|name| Chip::parse(name).map_err(|error| PyValueError::new_err(error.to_string())))
        .transpose()
}

fn parse_emit(emit: &str) -> PyResult<Emit> {
    match emit {
        "ptx" => Ok(Emit::Ptx),
        "llvm" => Ok(Emit::Llvm),
        "mlir" => Ok(Emit::Mlir),
        other => Err(PyValueError::new_err(format!(
            "emit must be \"ptx\", \"llvm\" or \"mlir\", not {other:?}"
        ))),
    }
}

/// Runs `body`, turning a panic into its message: acopy's entry points
/// return errors as values, so a panic is a bug in acopy, reported to the
/// caller as an error diagnostic rather than unwinding into Python.
fn contain<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(body)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|message| message.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}

fn panicked(message: String) -> Failed {
    Failed {
        diagnostics: vec![Diagnostic {
            severity: Severity::Error,
            position: None,
            message: format!("internal error in acopy: panicked: {message}"),
            rule: None,
            notes: Vec::new(),
            detail: None,
        }],
    }
}

fn diagnostics_list<'py>(
    py: Python<'py>,
    diagnostics: &[Diagnostic],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for item in diagnostics {
        list.append(diagnostic(py, item)?)?;
    }
    Ok(list)
}

/// A dict with `severity`, `file`, `line`, `column` (all three `None` for an
/// unknown location), `message`, `rule`, `notes` (a list of the same) and
/// `pipelined` (see [`pipelined`]; `None` unless the diagnostic is
/// acopy-pipeline's remark at a loop).
fn diagnostic<'py>(py: Python<'py>, item: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("severity", item.severity.to_string())?;
    dict.set_item("file", item.position.as_ref().map(|p| p.file.as_str()))?;
    dict.set_item("line", item.position.as_ref().map(|p| p.line))?;
    dict.set_item("column", item.position.as_ref().map(|p| p.column))?;
    dict.set_item("message", item.message.as_str())?;
    dict.set_item("rule", item.rule)?;
    dict.set_item("notes", diagnostics_list(py, &item.notes)?)?;
    let pipelined = match &item.detail {
        Some(Detail::Pipelined(data)) => Some(pipelined(py, data)?),
        None => None,
    };
    dict.set_item("pipelined", pipelined)?;
    Ok(dict)
}

/// `acopy::PipelinedLoop` as a dict: `chip`, `path` ("cp_async" or "tma", as
/// the GPU suite's records spell it), `stages`, `requested`, `auto` (`None`
/// for a given count; for `stages = "auto"` a dict: `target_bytes`,
/// `in_flight_bytes`, `limit` "latency", "shared_memory" or "max_stages"),
/// `trips` (`None` for a dynamic trip count), `copies`, `wgmma_in_flight` (`None`
/// unless wgmma consumers keep groups in flight), `released_at_wait` (`None` unless
/// a producer's consumers release each slot at an earlier `wgmma.wait_group`),
/// `producer_block` (`None` unless
/// `producer = "warp"` or `"warpgroup"`: the block size the kernel declares now),
/// `producer_threads` (128 with `producer = "warpgroup"`, else `None`), `registers`
/// (`None`, or with a producer warpgroup [launch, producer, consumers]: the registers a thread
/// launches with and holds after each warpgroup's setmaxnreg), `warp_release` (True when
/// `release = "warp"` has lane 0 of each consumer warp release a slot for its 32 lanes),
/// `multicast` (`None` unless
/// peer CTAs multicast into the slots: a dict with `cluster`, a list x, y, z, and `senders`,
/// the CTAs filling each tile's slots, in tile order), `tiles` (dicts: `tile`, `tile_bytes`,
/// `slot_bytes`, `align`), `shared_bytes`, and either `wait_groups` (a list,
/// cp.async) or `barriers`, `arrivals` and `replaces_user_barrier` (TMA).
fn pipelined<'py>(py: Python<'py>, data: &PipelinedLoop) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("chip", data.chip.name())?;
    dict.set_item(
        "path",
        match data.path {
            CopyPath::CpAsync => "cp_async",
            CopyPath::Tma => "tma",
        },
    )?;
    dict.set_item("stages", data.stages)?;
    dict.set_item("requested", data.requested)?;
    let auto = match &data.auto {
        Some(auto) => {
            let item = PyDict::new(py);
            item.set_item("target_bytes", auto.target_bytes)?;
            item.set_item("in_flight_bytes", auto.in_flight_bytes)?;
            item.set_item("limit", auto.limit.name())?;
            Some(item)
        }
        None => None,
    };
    dict.set_item("auto", auto)?;
    dict.set_item("trips", data.trips)?;
    dict.set_item("copies", data.copies)?;
    dict.set_item("wgmma_in_flight", data.wgmma_in_flight)?;
    dict.set_item("released_at_wait", data.released_at_wait)?;
    dict.set_item("producer_block", data.producer_block)?;
    dict.set_item("producer_threads", data.producer_threads)?;
    dict.set_item("registers", data.registers.map(|r| r.to_vec()))?;
    dict.set_item("warp_release", data.warp_release)?;
    let multicast = match &data.multicast {
        Some(multicast) => {
            let item = PyDict::new(py);
            item.set_item("cluster", multicast.cluster.to_vec())?;
            item.set_item("senders", multicast.senders.clone())?;
            Some(item)
        }
        None => None,
    };
    dict.set_item("multicast", multicast)?;
    dict.set_item("shared_bytes", data.shared_bytes())?;
    let tiles = PyList::empty(py);
    for tile in &data.tiles {
        let item = PyDict::new(py);
        item.set_item("tile", tile.tile.as_str())?;
        item.set_item("tile_bytes", tile.tile_bytes)?;
        item.set_item("slot_bytes", tile.slot_bytes)?;
        item.set_item("align", tile.align)?;
        tiles.append(item)?;
    }
    dict.set_item("tiles", tiles)?;
    match &data.sync {
        WaitScheme::WaitGroups { counts } => {
            dict.set_item("wait_groups", counts.clone())?;
        }
        WaitScheme::Barriers {
            barriers,
            arrivals,
            replaces_user_barrier,
        } => {
            dict.set_item("barriers", *barriers)?;
            dict.set_item("arrivals", *arrivals)?;
            dict.set_item("replaces_user_barrier", *replaces_user_barrier)?;
        }
    }
    Ok(dict)
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(compile, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(chips, module)?)?;
    module.add_function(wrap_pyfunction!(launch::synchronize, module)?)?;
    module.add_function(wrap_pyfunction!(launch::dlpack_facts, module)?)?;
    module.add_class::<launch::Kernel>()?;
    module.add_function(wrap_pyfunction!(xla::register_call, module)?)?;
    module.add_function(wrap_pyfunction!(xla::handler, module)?)?;
    module.add_function(wrap_pyfunction!(xla::layout, module)?)?;
    Ok(())
}
