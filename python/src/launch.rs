//! `acopy._native.Kernel`: checks a call's arguments against the kernel's manifest
//! entry (its arguments, block, cluster, shared memory and tensor maps, as the compiler
//! recorded them), then packs and launches it with `acopy-runtime`.
//!
//! `acopy/_launch.py` reads each array through its protocol (DLPack, the CUDA array
//! interface, or a torch tensor's own accessors) into a plain tuple, [`ArrayFacts`];
//! everything from there on is here: the checks (each a `TypeError` or `ValueError`
//! naming the argument, what the kernel expects and what it got, raised before the
//! driver is touched), the tensor maps (checked by `encode_params`, which needs no
//! driver, then encoded and cached), the launch configuration and the launch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use acopy_runtime::{
    manifest::{KernelArg, KernelEntry, MemrefArgType},
    sys, tensor_map, Arg, CuTensorMap, KernelArgs, LaunchConfig, LoadedKernel, MemrefArg, Runtime,
    RuntimeError, TiledParams,
};
use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    sync::PyOnceLock,
    types::{PyBool, PyFloat, PyInt, PyTuple},
};

/// What `_launch.py` read from one array: data pointer (element 0), shape, strides in
/// elements (`None`: row-major), DLPack dtype code and bits, DLPack device type and id.
pub(crate) type ArrayFacts = (u64, Vec<i64>, Option<Vec<i64>>, u8, u8, i32, i32);

/// An argument refused before anything is launched: Python's `TypeError` (a wrong kind
/// or dtype) or `ValueError` (shape, strides, device, launch shape). The message names
/// the argument, what the kernel expects and what it got.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("{0}")]
    Type(String),
    #[error("{0}")]
    Value(String),
}

impl From<Refusal> for PyErr {
    fn from(refusal: Refusal) -> PyErr {
        match refusal {
            Refusal::Type(text) => PyTypeError::new_err(text),
            Refusal::Value(text) => PyValueError::new_err(text),
        }
    }
}

/// Why a launch did not happen: a refused argument, or the driver (with what it was
/// doing: loading the module, encoding a named tensor map, launching).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("{}", driver_text(.0, .1))]
    Driver(String, RuntimeError),
}

/// A driver error's text with its context; no driver at all is "no CUDA driver: …".
fn driver_text(context: &str, e: &RuntimeError) -> String {
    match e {
        RuntimeError::LibraryMissing { .. } => format!("no CUDA driver: {e}"),
        _ if context.is_empty() => e.to_string(),
        _ => format!("{context}: {e}"),
    }
}

impl Failure {
    /// As Python sees it: the refusal's `TypeError` / `ValueError`, or `acopy.CudaError`.
    pub(crate) fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Refused(refusal) => refusal.into(),
            Failure::Driver(context, e) => runtime_error(py, &context, &e),
        }
    }
}

/// DLPack device types that are CUDA device memory (kDLCUDA, kDLCUDAManaged).
pub(crate) const DL_CUDA: i32 = 2;
const DL_CUDA_MANAGED: i32 = 13;

/// The DLPack dtypes an MLIR element type accepts: (code, bits).
fn accepted_dtypes(element: &str, bits: Option<u32>) -> Vec<(u8, u8)> {
    match element {
        "f16" => vec![(2, 16)],
        "bf16" => vec![(4, 16)],
        "f32" => vec![(2, 32)],
        "f64" => vec![(2, 64)],
        "i1" => vec![(6, 8)],
        // kDLFloat8_e4m3fn, kDLFloat8_e5m2 (DLPack 1.1); bytes of either also as uint8.
        "f8E4M3FN" => vec![(10, 8), (1, 8)],
        "f8E5M2" => vec![(12, 8), (1, 8)],
        // Signless integers: int or uint of the width.
        e if e.starts_with('i') => match bits {
            Some(b) if b % 8 == 0 && b <= 64 => vec![(0, b as u8), (1, b as u8)],
            _ => vec![],
        },
        _ => vec![],
    }
}

/// A dtype's name as the array libraries spell it.
fn dtype_name(code: u8, bits: u8) -> String {
    match (code, bits) {
        (0, b) => format!("int{b}"),
        (1, b) => format!("uint{b}"),
        (2, b) => format!("float{b}"),
        (4, 16) => "bfloat16".into(),
        (6, 8) => "bool".into(),
        (10, 8) => "float8_e4m3fn".into(),
        (12, 8) => "float8_e5m2".into(),
        (c, b) => format!("DLPack dtype (code {c}, {b} bits)"),
    }
}

fn device_name(kind: i32, id: i32) -> String {
    match kind {
        1 => "cpu".into(),
        2 => format!("cuda:{id}"),
        3 => "cuda pinned host memory".into(),
        13 => format!("cuda managed memory (device {id})"),
        k => format!("DLPack device type {k}"),
    }
}

/// A Python tuple's spelling of `parts`: `(a, b)`, `(a,)`.
fn python_tuple(parts: Vec<String>) -> String {
    match parts.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", parts.join(", ")),
    }
}

fn tuple_text(values: &[i64]) -> String {
    python_tuple(values.iter().map(i64::to_string).collect())
}

/// Dimensions of a type: `?` for a dynamic one.
fn dims_text(values: &[Option<i64>]) -> String {
    python_tuple(
        values
            .iter()
            .map(|v| v.map_or("?".to_string(), |n| n.to_string()))
            .collect(),
    )
}

fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1].max(1);
    }
    strides
}

/// `acopy.CudaError(message, name, code, call)`, the package's class.
fn cuda_error(py: Python<'_>, message: String, e: Option<&RuntimeError>) -> PyErr {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let class = match CLASS.get_or_try_init(py, || {
        py.import("acopy")
            .and_then(|m| m.getattr("CudaError"))
            .map(Bound::unbind)
    }) {
        Ok(class) => class.bind(py),
        Err(err) => return err,
    };
    let (name, code, call) = match e {
        Some(RuntimeError::Driver {
            call, code, name, ..
        }) => (Some(name.clone()), Some(*code), Some(*call)),
        _ => (None, None, None),
    };
    match class.call1((message, name, code, call)) {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

/// A runtime error as `acopy.CudaError`; no driver at all is "no CUDA driver: …".
fn runtime_error(py: Python<'_>, context: &str, e: &RuntimeError) -> PyErr {
    cuda_error(py, driver_text(context, e), Some(e))
}

/// One runtime per device ordinal, for the life of the process (primary contexts, as
/// torch, CuPy and JAX use).
fn runtime(ordinal: i32) -> Result<Runtime, RuntimeError> {
    static RUNTIMES: OnceLock<Mutex<HashMap<i32, Runtime>>> = OnceLock::new();
    let mut map = RUNTIMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(rt) = map.get(&ordinal) {
        return Ok(rt.clone());
    }
    let rt = Runtime::with_device(ordinal)?;
    map.insert(ordinal, rt.clone());
    Ok(rt)
}

/// `cuCtxSynchronize` on device `ordinal`: a fault of an earlier launch is a CudaError.
#[pyfunction]
pub fn synchronize(py: Python<'_>, device: i32) -> PyResult<()> {
    let rt = runtime(device).map_err(|e| runtime_error(py, "", &e))?;
    py.detach(|| rt.make_current().and_then(|()| rt.synchronize()))
        .map_err(|e| runtime_error(py, "", &e))
}

/// Reads a DLPack capsule (`"dltensor"`, or `"dltensor_versioned"`) without consuming
/// it: the producer's deleter still runs when the capsule is collected.
#[pyfunction]
pub fn dlpack_facts(capsule: &Bound<'_, PyAny>) -> PyResult<ArrayFacts> {
    #[repr(C)]
    struct DlTensor {
        data: *mut u8,
        device_type: i32,
        device_id: i32,
        ndim: i32,
        code: u8,
        bits: u8,
        lanes: u16,
        shape: *const i64,
        strides: *const i64,
        byte_offset: u64,
    }
    let raw = capsule.as_ptr();
    // SAFETY: capsule queries on a live object; the names are NUL-terminated.
    let tensor = unsafe {
        if pyo3::ffi::PyCapsule_IsValid(raw, c"dltensor".as_ptr()) == 1 {
            pyo3::ffi::PyCapsule_GetPointer(raw, c"dltensor".as_ptr()) as *const DlTensor
        } else if pyo3::ffi::PyCapsule_IsValid(raw, c"dltensor_versioned".as_ptr()) == 1 {
            // DLManagedTensorVersioned: {version (2 x u32), manager_ctx, deleter, flags
            // (u64), dl_tensor}.
            let base =
                pyo3::ffi::PyCapsule_GetPointer(raw, c"dltensor_versioned".as_ptr()) as *const u8;
            base.add(8 + 8 + 8 + 8) as *const DlTensor
        } else {
            return Err(PyTypeError::new_err(
                "__dlpack__() did not return a DLPack capsule (\"dltensor\")",
            ));
        }
    };
    if tensor.is_null() {
        return Err(PyTypeError::new_err("an empty DLPack capsule"));
    }
    // SAFETY: a valid capsule holds a DLTensor whose arrays have `ndim` entries.
    unsafe {
        let t = &*tensor;
        let ndim = t.ndim.max(0) as usize;
        let shape = if ndim == 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(t.shape, ndim).to_vec()
        };
        let strides = (!t.strides.is_null() && ndim > 0)
            .then(|| std::slice::from_raw_parts(t.strides, ndim).to_vec());
        if t.lanes != 1 {
            return Err(PyTypeError::new_err(format!(
                "a DLPack array with {} lanes per element; acopy takes plain elements",
                t.lanes
            )));
        }
        Ok((
            (t.data as u64).wrapping_add(t.byte_offset),
            shape,
            strides,
            t.code,
            t.bits,
            t.device_type,
            t.device_id,
        ))
    }
}

/// A kernel of a compiled module: its PTX and its manifest entry (launch facts and
/// tensor maps); loaded onto a device at its first launch there.
#[pyclass(frozen, module = "acopy._native")]
pub struct Kernel {
    ptx: String,
    module: String,
    pub(crate) name: String,
    pub(crate) names: Vec<String>,
    /// The entry's arguments (its launch facts), the tensor maps left out.
    pub(crate) args: Vec<KernelArg>,
    /// The block the kernel was compiled for, if any.
    block: Option<[u32; 3]>,
    /// Dynamic shared memory a launch needs; `None` when the compiler could not bound it.
    dynamic_smem: Option<u32>,
    /// Tensor maps sorted by parameter, and the cluster.
    entry: KernelEntry,
    loaded: Mutex<HashMap<i32, Arc<LoadedKernel>>>,
    maps: Mutex<HashMap<MapKey, CuTensorMap>>,
}

/// A tensor map is reused when the same map is asked for the same array layout.
#[derive(Hash, PartialEq, Eq)]
pub(crate) struct MapKey {
    device: i32,
    param: u32,
    base: u64,
    shape: Vec<u64>,
    strides: Vec<u64>,
}

/// Cached tensor maps per kernel; the cache starts over when it is full.
const MAP_CACHE: usize = 256;

/// A checked argument, ready to pack.
pub(crate) enum Ready {
    Memref(MemrefArg),
    Scalar(Arg),
}

/// One tensor map of a launch, its limits checked: the map's index in the
/// entry, the encoder's arguments and the cache key.
pub(crate) type MapReady = (usize, TiledParams, MapKey);

#[pymethods]
impl Kernel {
    /// `Kernel(ptx, module, name, arg_names, entry_json)`: `entry_json` is the kernel's
    /// manifest entry (format version 2, with its launch facts).
    #[new]
    fn new(
        ptx: String,
        module: String,
        name: String,
        arg_names: Vec<String>,
        entry: &str,
    ) -> PyResult<Kernel> {
        let mut entry: KernelEntry = serde_json::from_str(entry)
            .map_err(|e| PyValueError::new_err(format!("kernel manifest entry: {e}")))?;
        entry.tensor_maps.sort_by_key(|e| e.param);
        let Some(facts) = entry.launch.take() else {
            return Err(PyValueError::new_err(format!(
                "kernel manifest entry of `{name}` has no launch facts (manifest version 2)"
            )));
        };
        let mut names = arg_names;
        names.resize_with(facts.args.len(), String::new);
        for (i, n) in names.iter_mut().enumerate() {
            if n.is_empty() {
                *n = format!("arg{i}");
            }
        }
        for (i, arg) in facts.args.iter().enumerate() {
            if let Some(problem) = unlaunchable(arg) {
                return Err(PyTypeError::new_err(format!(
                    "kernel `{name}` cannot be launched from Python: argument '{}' ({i}): {problem}",
                    names[i]
                )));
            }
        }
        Ok(Kernel {
            ptx,
            module,
            name,
            names,
            args: facts.args,
            block: facts.block,
            dynamic_smem: entry.dynamic_shared_memory,
            entry,
            loaded: Mutex::new(HashMap::new()),
            maps: Mutex::new(HashMap::new()),
        })
    }

    /// Bytes of dynamic shared memory a launch gets without `shared_memory=`, as the
    /// manifest records it (the kernel's own use, or the pipelined slots).
    #[getter]
    fn dynamic_shared_memory(&self) -> Option<u32> {
        self.dynamic_smem
    }

    /// Checks `args` (memref arguments as `ArrayFacts` tuples, scalars as they are) and
    /// launches on `stream` (a CUstream handle; 0 is the legacy default stream).
    #[pyo3(signature = (args, grid, block, stream, shared_memory=None))]
    fn launch(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        grid: [u32; 3],
        block: [u32; 3],
        stream: u64,
        shared_memory: Option<u32>,
    ) -> PyResult<()> {
        self.check_count(args.len())?;
        let (ready, device) = self.ready(args)?;
        // Tensor maps: every limit checked without the driver first.
        let maps = self.map_params(&ready, device)?;
        let cfg = self.config(grid, block, shared_memory)?;
        // From here on the driver is needed.
        self.launch_checked(&ready, maps, device, &cfg, stream as usize as sys::CUstream)
            .map_err(|f| f.into_py(py))
    }

    /// Tensor maps encoded so far and kept for reuse (for tests of the cache).
    fn cached_tensor_maps(&self) -> usize {
        self.maps.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Checks one array's facts (as `launch` takes them; the pointer is not looked
    /// at) against argument `i`, a memref, as a launch does, without launching: the
    /// trace-time check of `acopy.jax` and of `acopy.torch`'s fake implementation.
    fn check(&self, i: usize, facts: ArrayFacts) -> PyResult<()> {
        match self.args.get(i) {
            Some(KernelArg::Memref(want)) => {
                self.check_memref(i, want, facts)?;
                Ok(())
            }
            _ => Err(PyValueError::new_err(format!(
                "argument {i} of kernel `{}` is not a memref",
                self.name
            ))),
        }
    }
}

/// Why an argument cannot be passed from Python, if it cannot.
fn unlaunchable(arg: &KernelArg) -> Option<String> {
    match arg {
        KernelArg::Memref(m) if !m.global => {
            Some(format!("{} is not in global memory", m.mlir_type))
        }
        KernelArg::Memref(m) if accepted_dtypes(&m.element, m.element_bits).is_empty() => {
            Some(format!(
                "{} has elements of a type no array library holds",
                m.mlir_type
            ))
        }
        KernelArg::Scalar(s) if scalar_kind(&s.mlir_type).is_none() => Some(format!(
            "{} is not one of the scalar types acopy passes (index, i64, i32, f32, i1)",
            s.mlir_type
        )),
        _ => None,
    }
}

/// Appends one checked argument to `packed`.
fn pack(packed: &mut KernelArgs, ready: &Ready) {
    match ready {
        Ready::Memref(m) => {
            packed.memref_parts(m.allocated, m.aligned, m.offset, &m.shape, &m.strides);
        }
        Ready::Scalar(Arg::I64(v)) => {
            packed.i64(*v);
        }
        Ready::Scalar(Arg::I32(v)) => {
            packed.i32(*v);
        }
        Ready::Scalar(Arg::F32(v)) => {
            packed.f32(*v);
        }
        Ready::Scalar(Arg::Pred(v)) => {
            packed.pred(*v);
        }
        Ready::Scalar(_) => unreachable!("scalar() makes only the four kinds above"),
    }
}

impl Kernel {
    /// A `TypeError` naming what is missing or how many are too many.
    fn check_count(&self, got: usize) -> PyResult<()> {
        let want = self.args.len();
        if got == want {
            return Ok(());
        }
        let missing: Vec<String> = self.names[got.min(self.names.len())..]
            .iter()
            .map(|n| format!("'{n}'"))
            .collect();
        let detail = if missing.is_empty() {
            format!("{} too many", got - want)
        } else {
            format!("missing {}", missing.join(", "))
        };
        Err(PyTypeError::new_err(format!(
            "kernel `{}` takes {want} arguments ({}), got {got}: {detail}",
            self.name,
            self.names.join(", "),
        )))
    }

    /// Each argument checked against its type, and the one device the arrays are on
    /// (0 without arrays).
    fn ready(&self, args: &Bound<'_, PyTuple>) -> PyResult<(Vec<Ready>, i32)> {
        let mut ready = Vec::with_capacity(args.len());
        let mut device: Option<(i32, usize)> = None;
        for (i, (value, arg)) in args.iter().zip(&self.args).enumerate() {
            ready.push(match arg {
                KernelArg::Memref(want) => {
                    let facts: ArrayFacts = value.extract()?;
                    let (memref, dev) = self.check_memref(i, want, facts)?;
                    match device {
                        None => device = Some((dev, i)),
                        Some((d, first)) if d != dev => {
                            return Err(PyValueError::new_err(format!(
                                "argument '{}' ({i}) is on cuda:{dev}, but argument '{}' ({first}) is on cuda:{d}; a kernel runs on one device",
                                self.names[i], self.names[first]
                            )))
                        }
                        _ => {}
                    }
                    Ready::Memref(memref)
                }
                KernelArg::Scalar(s) => Ready::Scalar(self.scalar(i, &s.mlir_type, &value)?),
            });
        }
        Ok((ready, device.map_or(0, |(d, _)| d)))
    }

    /// What the entry's tensor map `k` is, for an error message.
    fn map_what(&self, k: usize) -> String {
        let e = &self.entry.tensor_maps[k];
        let arg = e.map.arg as usize;
        format!(
            "tensor map {k} (parameter {}) of argument '{}' ({arg})",
            e.param,
            self.names.get(arg).map_or("?", String::as_str)
        )
    }

    /// The encoder's arguments of every tensor map (`new` sorted them by
    /// parameter), checked without the driver.
    pub(crate) fn map_params(
        &self,
        ready: &[Ready],
        device: i32,
    ) -> Result<Vec<MapReady>, Refusal> {
        let mut maps = Vec::with_capacity(self.entry.tensor_maps.len());
        for (k, e) in self.entry.tensor_maps.iter().enumerate() {
            let Some(Ready::Memref(m)) = ready.get(e.map.arg as usize) else {
                return Err(Refusal::Value(format!(
                    "{}: the manifest names an argument that is not a memref",
                    self.map_what(k)
                )));
            };
            let base = m.aligned + m.offset * e.map.element_bytes as u64;
            let params = tensor_map::encode_params(e, base, &m.shape, &m.strides)
                .map_err(|err| Refusal::Value(format!("{}: {err}", self.map_what(k))))?;
            let key = MapKey {
                device,
                param: e.param,
                base,
                shape: m.shape.clone(),
                strides: m.strides.clone(),
            };
            maps.push((k, params, key));
        }
        Ok(maps)
    }

    /// Encodes each tensor map (or takes it from the cache) and appends it; a
    /// failure names the map.
    fn pack_maps(&self, packed: &mut KernelArgs, maps: Vec<MapReady>) -> Result<(), Failure> {
        if maps.is_empty() {
            return Ok(());
        }
        let mut cache = self.maps.lock().unwrap_or_else(|p| p.into_inner());
        for (k, params, key) in maps {
            let map = match cache.get(&key) {
                Some(map) => *map,
                None => {
                    let map = tensor_map::encode(&params)
                        .map_err(|e| Failure::Driver(self.map_what(k), e))?;
                    if cache.len() >= MAP_CACHE {
                        cache.clear();
                    }
                    cache.insert(key, map);
                    map
                }
            };
            packed.tensor_map(&map);
        }
        Ok(())
    }

    /// The driver's part of a launch whose arguments and tensor maps are checked:
    /// the module loaded on `device` (once), the arguments packed, the maps encoded
    /// (or taken from the cache), the launch on `stream`. It needs no Python: the
    /// XLA FFI handler (`xla.rs`) runs it too.
    pub(crate) fn launch_checked(
        &self,
        ready: &[Ready],
        maps: Vec<MapReady>,
        device: i32,
        cfg: &LaunchConfig,
        stream: sys::CUstream,
    ) -> Result<(), Failure> {
        let kernel = self.loaded(device)?;
        let mut packed = KernelArgs::with_capacity(
            kernel
                .params()
                .map_or(ready.len() * 7 + maps.len(), <[_]>::len),
        );
        for r in ready {
            pack(&mut packed, r);
        }
        self.pack_maps(&mut packed, maps)?;
        kernel
            .launch_on(cfg, &mut packed, stream)
            .map_err(|e| Failure::Driver(format!("launching `{}`", self.name), e))
    }
}

/// The array's rank and sizes against the type's (`None`: any size).
fn check_shape(
    arg: &dyn Fn() -> String,
    shape: &[i64],
    want: &[Option<i64>],
) -> Result<(), Refusal> {
    if shape.len() != want.len() {
        return Err(Refusal::Value(format!(
            "{}: expected rank {} (shape {}), got rank {} (shape {})",
            arg(),
            want.len(),
            dims_text(want),
            shape.len(),
            tuple_text(shape)
        )));
    }
    let shape_ok = shape
        .iter()
        .zip(want)
        .all(|(&got, want)| got >= 0 && want.is_none_or(|w| w == got));
    if !shape_ok {
        return Err(Refusal::Value(format!(
            "{}: expected shape {}, got {}",
            arg(),
            dims_text(want),
            tuple_text(shape)
        )));
    }
    Ok(())
}

/// The strides the kernel receives (row-major when the array gives none), checked
/// against the type: row-major for an identity layout, else each static stride.
fn checked_strides(
    arg: &dyn Fn() -> String,
    shape: &[i64],
    strides: Option<Vec<i64>>,
    want: &MemrefArgType,
) -> Result<Vec<i64>, Refusal> {
    let dense = row_major(shape);
    let strides = strides.unwrap_or_else(|| dense.clone());
    // A dimension of size 1 has no stride to speak of: arrays libraries give it
    // any value. The kernel receives the one its type states (or row-major).
    let strides: Vec<i64> = strides
        .iter()
        .enumerate()
        .map(|(d, &s)| {
            if shape[d] == 1 {
                want.strides.get(d).copied().flatten().unwrap_or(dense[d])
            } else {
                s
            }
        })
        .collect();
    if want.contiguous && strides != dense {
        return Err(Refusal::Value(format!(
            "{}: expected a row-major contiguous array (strides {} in elements), got strides {}",
            arg(),
            tuple_text(&dense),
            tuple_text(&strides)
        )));
    }
    let strides_ok = strides
        .iter()
        .zip(&want.strides)
        .all(|(&got, want)| got >= 0 && want.is_none_or(|w| w == got));
    if !strides_ok {
        return Err(Refusal::Value(format!(
            "{}: expected strides {} in elements, got {}",
            arg(),
            dims_text(&want.strides),
            tuple_text(&strides)
        )));
    }
    Ok(strides)
}

fn scalar_kind(ty: &str) -> Option<&'static str> {
    match ty {
        "index" | "i64" => Some("i64"),
        "i32" => Some("i32"),
        "f32" => Some("f32"),
        "i1" => Some("i1"),
        _ => None,
    }
}

impl Kernel {
    /// Checks one array against the memref type `want`: its device, dtype, shape and
    /// strides; the memref's descriptor and the array's device id.
    pub(crate) fn check_memref(
        &self,
        i: usize,
        want: &MemrefArgType,
        facts: ArrayFacts,
    ) -> Result<(MemrefArg, i32), Refusal> {
        let (ptr, shape, strides, code, bits, dev_type, dev_id) = facts;
        let name = &self.names[i];
        // Formatted only for an error: this runs at every launch.
        let arg = || format!("argument '{name}' ({i}, {})", want.mlir_type);
        if dev_type != DL_CUDA && dev_type != DL_CUDA_MANAGED {
            return Err(Refusal::Value(format!(
                "{}: expected an array in CUDA device memory, got one on {}",
                arg(),
                device_name(dev_type, dev_id)
            )));
        }
        let accepted = accepted_dtypes(&want.element, want.element_bits);
        if !accepted.contains(&(code, bits)) {
            let names: Vec<String> = accepted.iter().map(|&(c, b)| dtype_name(c, b)).collect();
            return Err(Refusal::Type(format!(
                "{}: expected dtype {}, got {}",
                arg(),
                names.join(" or "),
                dtype_name(code, bits)
            )));
        }
        check_shape(&arg, &shape, &want.shape)?;
        let strides = checked_strides(&arg, &shape, strides, want)?;
        // The kernel indexes from aligned + offset; a static offset in the type is taken
        // out of the data pointer, so element [0, ...] is the array's first element.
        let offset = want.offset.unwrap_or(0).max(0) as u64;
        let elem = (want.element_bits.unwrap_or(8) as u64).div_ceil(8);
        let aligned = ptr.wrapping_sub(offset * elem);
        Ok((
            MemrefArg {
                allocated: aligned,
                aligned,
                offset,
                shape: shape.iter().map(|&s| s as u64).collect(),
                strides: strides.iter().map(|&s| s as u64).collect(),
            },
            dev_id,
        ))
    }

    pub(crate) fn scalar(&self, i: usize, ty: &str, value: &Bound<'_, PyAny>) -> PyResult<Arg> {
        let arg = || format!("argument '{}' ({i}, {ty})", self.names[i]);
        let type_name = || {
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        };
        let is_bool = value.is_instance_of::<PyBool>();
        let integer = |lo: i128, hi: i128| -> PyResult<i128> {
            if is_bool || value.is_instance_of::<PyFloat>() || !value.hasattr("__index__")? {
                return Err(PyTypeError::new_err(format!(
                    "{}: expected an int, got {}",
                    arg(),
                    type_name()
                )));
            }
            let v: i128 = value.call_method0("__index__")?.extract()?;
            if v < lo || v > hi {
                return Err(PyValueError::new_err(format!(
                    "{}: {v} is outside the range of {ty} ({lo}..={hi})",
                    arg()
                )));
            }
            Ok(v)
        };
        Ok(match scalar_kind(ty) {
            Some("i64") => {
                let v = if value.is_exact_instance_of::<PyInt>() {
                    value.extract::<i64>().map_err(|_| {
                        PyValueError::new_err(format!("{}: {value} does not fit in 64 bits", arg()))
                    })?
                } else {
                    integer(i64::MIN as i128, i64::MAX as i128)? as i64
                };
                Arg::I64(v)
            }
            Some("i32") => Arg::I32(integer(i32::MIN as i128, i32::MAX as i128)? as i32),
            Some("f32") => {
                if is_bool {
                    return Err(PyTypeError::new_err(format!(
                        "{}: expected a float, got bool",
                        arg()
                    )));
                }
                Arg::F32(value.extract::<f64>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{}: expected a float, got {}",
                        arg(),
                        type_name()
                    ))
                })? as f32)
            }
            Some("i1") => {
                if is_bool {
                    Arg::Pred(value.extract::<bool>()?)
                } else {
                    Arg::Pred(integer(0, 1)? == 1)
                }
            }
            _ => unreachable!("Kernel::new refused other scalar types"),
        })
    }

    pub(crate) fn config(
        &self,
        grid: [u32; 3],
        block: [u32; 3],
        shared_memory: Option<u32>,
    ) -> PyResult<LaunchConfig> {
        if let Some(known) = self.block {
            if known != block {
                return Err(PyValueError::new_err(format!(
                    "kernel `{}` was compiled for block {known:?} (known_block_size), got block {block:?}",
                    self.name
                )));
            }
        }
        let dynamic_smem = match (shared_memory, self.dynamic_smem) {
            // Never fewer bytes than the manifest records.
            (Some(bytes), recorded) => bytes.max(recorded.unwrap_or(0)),
            (None, Some(bytes)) => bytes,
            (None, None) => {
                return Err(PyValueError::new_err(format!(
                    "kernel `{}` uses gpu.dynamic_shared_memory in a way whose size acopy cannot bound; pass shared_memory=BYTES",
                    self.name
                )))
            }
        };
        let cluster = self.entry.cluster;
        let cfg = LaunchConfig {
            grid,
            block,
            cluster,
            dynamic_smem,
            programmatic: self.entry.programmatic_launch,
        };
        cfg.validate().map_err(|e| match e {
            RuntimeError::Launch(detail) if detail.contains("cluster") => {
                PyValueError::new_err(format!(
                    "kernel `{}` runs in clusters of {cluster:?} (nvvm.cluster_dim): {detail}",
                    self.name
                ))
            }
            other => PyValueError::new_err(other.to_string()),
        })?;
        Ok(cfg)
    }

    fn loaded(&self, device: i32) -> Result<Arc<LoadedKernel>, Failure> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = loaded.get(&device) {
            return Ok(k.clone());
        }
        let rt = runtime(device).map_err(|e| Failure::Driver(String::new(), e))?;
        let k = Arc::new(
            LoadedKernel::load(&rt, &self.ptx, &self.module, &self.name)
                .map_err(|e| Failure::Driver(format!("loading `{}`", self.name), e))?,
        );
        loaded.insert(device, k.clone());
        Ok(k)
    }
}
