//! The XLA FFI handler behind `acopy.jax`: XLA calls it, with the C ABI of
//! `xla/ffi/api/c_api.h` (the header jaxlib ships, API version 0.4), for every
//! `jax.ffi.ffi_call("acopy_launch", …)` that a jitted or eager JAX function runs.
//!
//! **Which kernel.** `acopy.jax.function(kernel, …)` registers a *call* here at wrap
//! time ([`register_call`]): the kernel (`acopy._native.Kernel`, which owns its PTX,
//! manifest entry, loaded modules and tensor-map cache), which kernel argument each
//! XLA operand and result is, the scalar arguments, and the launch configuration,
//! checked then. The call's registry id travels in the custom call's one attribute,
//! `acopy_call` (an i64). Calls live as long as the process, as XLA executables that
//! name them may.
//!
//! **A launch.** The handler reads the buffers XLA passes (inputs read in place,
//! outputs XLA allocated from the declared shapes and dtypes), checks each against
//! the kernel's argument type again (`Kernel::check_memref`, the checks of a Python
//! launch: a mismatch is refused with the argument named and nothing runs), then
//! launches with acopy-runtime on XLA's stream (`XLA_FFI_Stream_Get`) on XLA's
//! device (`XLA_FFI_DeviceOrdinal_Get`), with the tensor maps encoded from the
//! buffers (`Kernel::launch_checked`, cached by address and layout). No Python runs
//! in the handler. The handler registered for the CPU platform decodes and checks the
//! same way and then refuses: the buffers are host memory.
//!
//! The structs below mirror the header's; `layout()` hands their sizes and field
//! offsets to `python/tests/test_frontends.py`, which compares them with the header
//! compiled by a C compiler.

use std::ffi::{c_char, c_void, CString};
use std::mem::{offset_of, size_of};
use std::sync::{Arc, Mutex, OnceLock};

use acopy_runtime::{manifest::KernelArg, sys, Arg, LaunchConfig};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::launch::{ArrayFacts, Failure, Kernel, Ready, Refusal, DL_CUDA};

/// The FFI API version this handler was written against (c_api.h).
const API_MAJOR: i32 = 0;
const API_MINOR: i32 = 4;
const EXTENSION_METADATA: i32 = 1;
const STAGE_EXECUTE: i32 = 3;
const ARG_BUFFER: i32 = 1;
const ATTR_SCALAR: i32 = 3;
const DTYPE_S64: i32 = 5;
const ERROR_INVALID_ARGUMENT: i32 = 3;
const ERROR_INTERNAL: i32 = 13;
const DL_CPU: i32 = 1;

/// The name of the custom call's attribute holding the registry id.
pub const CALL_ATTRIBUTE: &str = "acopy_call";

#[repr(C)]
pub struct Extension {
    struct_size: usize,
    kind: i32,
    next: *mut Extension,
}

#[repr(C)]
pub struct ApiVersion {
    struct_size: usize,
    extension_start: *mut Extension,
    major: i32,
    minor: i32,
}

#[repr(C)]
pub struct ErrorCreateArgs {
    struct_size: usize,
    extension_start: *mut Extension,
    message: *const c_char,
    errc: i32,
}

#[repr(C)]
pub struct ErrorDestroyArgs {
    struct_size: usize,
    extension_start: *mut Extension,
    error: *mut XlaError,
}

#[repr(C)]
pub struct Buffer {
    struct_size: usize,
    extension_start: *mut Extension,
    dtype: i32,
    data: *mut c_void,
    rank: i64,
    dims: *const i64,
}

/// `XLA_FFI_Args` and `XLA_FFI_Rets` (the same layout).
#[repr(C)]
pub struct Buffers {
    struct_size: usize,
    extension_start: *mut Extension,
    size: i64,
    types: *const i32,
    items: *const *mut c_void,
}

#[repr(C)]
pub struct ByteSpan {
    ptr: *const c_char,
    len: usize,
}

#[repr(C)]
pub struct Scalar {
    dtype: i32,
    value: *const c_void,
}

#[repr(C)]
pub struct Attrs {
    struct_size: usize,
    extension_start: *mut Extension,
    size: i64,
    types: *const i32,
    names: *const *const ByteSpan,
    attrs: *const *const c_void,
}

#[repr(C)]
pub struct CallFrame {
    struct_size: usize,
    extension_start: *mut Extension,
    api: *const Api,
    ctx: *mut c_void,
    stage: i32,
    args: Buffers,
    rets: Buffers,
    attrs: Attrs,
    future: *mut c_void,
}

#[repr(C)]
pub struct StreamGetArgs {
    struct_size: usize,
    extension_start: *mut Extension,
    ctx: *mut c_void,
    stream: *mut c_void,
}

#[repr(C)]
pub struct DeviceOrdinalGetArgs {
    struct_size: usize,
    extension_start: *mut Extension,
    ctx: *mut c_void,
    device_ordinal: i32,
}

#[repr(C)]
pub struct Metadata {
    struct_size: usize,
    api_version: ApiVersion,
    traits: u32,
    state_type_id: i64,
}

#[repr(C)]
pub struct MetadataExtension {
    base: Extension,
    metadata: *mut Metadata,
}

/// An opaque `XLA_FFI_Error*`.
pub enum XlaError {}

type Fn<A> = Option<unsafe extern "C" fn(*mut A) -> *mut XlaError>;
type Unused = Option<unsafe extern "C" fn()>;

#[repr(C)]
pub struct Api {
    struct_size: usize,
    extension_start: *mut Extension,
    api_version: ApiVersion,
    internal_api: *const c_void,
    error_create: Fn<ErrorCreateArgs>,
    error_get_details: Unused,
    error_destroy: Option<unsafe extern "C" fn(*mut ErrorDestroyArgs)>,
    handler_register: Unused,
    stream_get: Fn<StreamGetArgs>,
    type_register: Unused,
    invoke_context_get: Unused,
    state_set: Unused,
    state_get: Unused,
    device_memory_allocate: Unused,
    device_memory_free: Unused,
    thread_pool_schedule: Unused,
    thread_pool_num_threads: Unused,
    future_create: Unused,
    future_set_available: Unused,
    future_set_error: Unused,
    run_id_get: Unused,
    device_ordinal_get: Fn<DeviceOrdinalGetArgs>,
    invoke_context_find_extension: Unused,
}

/// `XLA_FFI_STRUCT_SIZE`: the end of the last field the writer knows.
macro_rules! struct_size {
    ($t:ty, $field:ident, $ft:ty) => {
        offset_of!($t, $field) + size_of::<$ft>()
    };
}

/// What one registered call launches: the kernel, the source of each kernel
/// argument, and the checked launch configuration.
pub struct Call {
    kernel: Py<Kernel>,
    slots: Vec<Slot>,
    inputs: usize,
    outputs: usize,
    cfg: LaunchConfig,
}

/// Where a kernel argument comes from.
enum Slot {
    /// XLA operand j.
    Input(usize),
    /// XLA result j.
    Output(usize),
    Scalar(Arg),
}

fn calls() -> &'static Mutex<Vec<Arc<Call>>> {
    static CALLS: OnceLock<Mutex<Vec<Arc<Call>>>> = OnceLock::new();
    CALLS.get_or_init(Default::default)
}

/// `register_call(kernel, inputs, outputs, scalars, grid, block, shared_memory)` ->
/// the call's id. `inputs` and `outputs` are the kernel argument indices of XLA's
/// operands and results, in order; `scalars` maps each scalar argument's index to
/// its value. Every memref argument must be an input or an output, exactly once.
#[pyfunction]
#[pyo3(name = "xla_register_call", signature = (kernel, inputs, outputs, scalars, grid, block, shared_memory=None))]
pub fn register_call(
    kernel: Bound<'_, Kernel>,
    inputs: Vec<usize>,
    outputs: Vec<usize>,
    scalars: &Bound<'_, PyDict>,
    grid: [u32; 3],
    block: [u32; 3],
    shared_memory: Option<u32>,
) -> PyResult<u64> {
    let k = kernel.get();
    let mut slots: Vec<Option<Slot>> = (0..k.args.len()).map(|_| None).collect();
    let roles = inputs
        .iter()
        .enumerate()
        .map(|(j, &i)| (i, Slot::Input(j)))
        .chain(
            outputs
                .iter()
                .enumerate()
                .map(|(j, &i)| (i, Slot::Output(j))),
        );
    for (i, slot) in roles {
        match (k.args.get(i), slots.get(i)) {
            (Some(KernelArg::Memref(_)), Some(None)) => slots[i] = Some(slot),
            (Some(KernelArg::Memref(_)), _) => {
                return Err(PyValueError::new_err(format!(
                    "argument '{}' ({i}) of kernel `{}` is given twice",
                    k.names[i], k.name
                )))
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "kernel `{}` has no memref argument {i}",
                    k.name
                )))
            }
        }
    }
    for (i, arg) in k.args.iter().enumerate() {
        match arg {
            KernelArg::Scalar(s) => {
                let value = scalars.get_item(i)?.ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "argument '{}' ({i}, {}) of kernel `{}` is a scalar: give its value in scalars=",
                        k.names[i], s.mlir_type, k.name
                    ))
                })?;
                slots[i] = Some(Slot::Scalar(k.scalar(i, &s.mlir_type, &value)?));
            }
            KernelArg::Memref(m) if slots[i].is_none() => {
                return Err(PyValueError::new_err(format!(
                    "argument '{}' ({i}, {}) of kernel `{}` is neither an input nor an output",
                    k.names[i], m.mlir_type, k.name
                )))
            }
            KernelArg::Memref(_) => {}
        }
    }
    let cfg = k.config(grid, block, shared_memory)?;
    let call = Call {
        slots: slots.into_iter().flatten().collect(),
        inputs: inputs.len(),
        outputs: outputs.len(),
        cfg,
        kernel: kernel.unbind(),
    };
    let mut all = calls().lock().unwrap_or_else(|p| p.into_inner());
    all.push(Arc::new(call));
    Ok(all.len() as u64 - 1)
}

/// A handler, `"cuda"` or `"cpu"`, as the unnamed PyCapsule that
/// `jax.ffi.register_ffi_target` takes (what `jax.ffi.pycapsule` makes, without its
/// process-wide change to `ctypes.pythonapi.PyCapsule_New`'s argument types).
#[pyfunction]
#[pyo3(name = "xla_handler")]
pub fn handler<'py>(py: Python<'py>, platform: &str) -> PyResult<Bound<'py, PyAny>> {
    let address = match platform {
        "cuda" => acopy_xla_cuda as *const (),
        "cpu" => acopy_xla_cpu as *const (),
        other => {
            return Err(PyValueError::new_err(format!(
                "no acopy XLA handler for platform {other:?} (\"cuda\" or \"cpu\")"
            )))
        }
    };
    // SAFETY: a capsule of a static function's address, without name or destructor.
    unsafe {
        let raw = pyo3::ffi::PyCapsule_New(address as *mut c_void, std::ptr::null(), None);
        Bound::from_owned_ptr_or_err(py, raw)
    }
}

/// Sizes and field offsets of the mirrored structs, by the header's names, for the
/// layout test.
#[pyfunction]
#[pyo3(name = "xla_layout")]
pub fn layout() -> Vec<(&'static str, usize)> {
    vec![
        ("sizeof(XLA_FFI_Buffer)", size_of::<Buffer>()),
        ("XLA_FFI_Buffer.dtype", offset_of!(Buffer, dtype)),
        ("XLA_FFI_Buffer.data", offset_of!(Buffer, data)),
        ("XLA_FFI_Buffer.rank", offset_of!(Buffer, rank)),
        ("XLA_FFI_Buffer.dims", offset_of!(Buffer, dims)),
        ("XLA_FFI_Args.size", offset_of!(Buffers, size)),
        ("XLA_FFI_Args.types", offset_of!(Buffers, types)),
        ("XLA_FFI_Args.args", offset_of!(Buffers, items)),
        ("XLA_FFI_Attrs.names", offset_of!(Attrs, names)),
        ("XLA_FFI_Attrs.attrs", offset_of!(Attrs, attrs)),
        ("XLA_FFI_Scalar.value", offset_of!(Scalar, value)),
        ("XLA_FFI_CallFrame.api", offset_of!(CallFrame, api)),
        ("XLA_FFI_CallFrame.ctx", offset_of!(CallFrame, ctx)),
        ("XLA_FFI_CallFrame.stage", offset_of!(CallFrame, stage)),
        ("XLA_FFI_CallFrame.args", offset_of!(CallFrame, args)),
        ("XLA_FFI_CallFrame.rets", offset_of!(CallFrame, rets)),
        ("XLA_FFI_CallFrame.attrs", offset_of!(CallFrame, attrs)),
        (
            "XLA_FFI_CallFrame_STRUCT_SIZE",
            struct_size!(CallFrame, attrs, Attrs),
        ),
        (
            "XLA_FFI_Api.XLA_FFI_Error_Create",
            offset_of!(Api, error_create),
        ),
        (
            "XLA_FFI_Api.XLA_FFI_Stream_Get",
            offset_of!(Api, stream_get),
        ),
        (
            "XLA_FFI_Api.XLA_FFI_DeviceOrdinal_Get",
            offset_of!(Api, device_ordinal_get),
        ),
        (
            "XLA_FFI_Error_Create_Args_STRUCT_SIZE",
            struct_size!(ErrorCreateArgs, errc, i32),
        ),
        (
            "XLA_FFI_Stream_Get_Args_STRUCT_SIZE",
            struct_size!(StreamGetArgs, stream, *mut c_void),
        ),
        (
            "XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE",
            struct_size!(DeviceOrdinalGetArgs, device_ordinal, i32),
        ),
        ("XLA_FFI_Metadata.traits", offset_of!(Metadata, traits)),
        (
            "XLA_FFI_Metadata_STRUCT_SIZE",
            struct_size!(Metadata, traits, u32),
        ),
        (
            "XLA_FFI_Metadata_Extension.metadata",
            offset_of!(MetadataExtension, metadata),
        ),
    ]
}

/// The CUDA handler: check, then launch on XLA's stream.
///
/// # Safety
/// XLA calls it with a valid call frame (c_api.h's contract).
#[no_mangle]
pub unsafe extern "C" fn acopy_xla_cuda(frame: *mut CallFrame) -> *mut XlaError {
    entry(frame, true)
}

/// The CPU handler: decode and check as on CUDA, then refuse (host memory).
///
/// # Safety
/// As [`acopy_xla_cuda`].
#[no_mangle]
pub unsafe extern "C" fn acopy_xla_cpu(frame: *mut CallFrame) -> *mut XlaError {
    entry(frame, false)
}

/// A failed handler call: an FFI error code and the message.
struct Fault(i32, String);

impl From<Failure> for Fault {
    fn from(failure: Failure) -> Fault {
        let code = match failure {
            Failure::Refused(_) => ERROR_INVALID_ARGUMENT,
            Failure::Driver(..) => ERROR_INTERNAL,
        };
        Fault(code, failure.to_string())
    }
}

impl From<Refusal> for Fault {
    fn from(refusal: Refusal) -> Fault {
        Fault(ERROR_INVALID_ARGUMENT, refusal.to_string())
    }
}

unsafe fn entry(frame: *mut CallFrame, cuda: bool) -> *mut XlaError {
    let Some(frame) = frame.as_mut() else {
        return std::ptr::null_mut();
    };
    let Some(api) = frame.api.as_ref() else {
        return std::ptr::null_mut();
    };
    // A panic must not unwind into XLA: it becomes an error.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if frame.struct_size < struct_size!(CallFrame, attrs, Attrs) {
            return Err(Fault(
                ERROR_INVALID_ARGUMENT,
                format!(
                    "acopy: XLA passed a call frame of {} bytes, older than FFI API 0.4",
                    frame.struct_size
                ),
            ));
        }
        if let Some(ext) = frame.extension_start.as_ref() {
            if ext.kind == EXTENSION_METADATA {
                return metadata(frame.extension_start as *mut MetadataExtension);
            }
        }
        if frame.stage != STAGE_EXECUTE {
            return Err(Fault(
                ERROR_INVALID_ARGUMENT,
                format!(
                    "acopy: called at execution stage {}, not execute",
                    frame.stage
                ),
            ));
        }
        execute(api, frame, cuda)
    }));
    match outcome {
        Ok(Ok(())) => std::ptr::null_mut(),
        Ok(Err(Fault(code, text))) => error(api, code, &text),
        Err(_) => error(
            api,
            ERROR_INTERNAL,
            "acopy: internal error: the XLA handler panicked",
        ),
    }
}

unsafe fn error(api: &Api, code: i32, text: &str) -> *mut XlaError {
    let Some(create) = api.error_create else {
        return std::ptr::null_mut();
    };
    let message = CString::new(text.replace('\0', " ")).unwrap_or_default();
    let mut args = ErrorCreateArgs {
        struct_size: struct_size!(ErrorCreateArgs, errc, i32),
        extension_start: std::ptr::null_mut(),
        message: message.as_ptr(),
        errc: code,
    };
    create(&mut args)
}

/// The metadata query XLA makes at registration: the API version and no traits
/// (not command-buffer compatible: XLA launches the handler, it does not record it).
unsafe fn metadata(ext: *mut MetadataExtension) -> Result<(), Fault> {
    let bad = || {
        Fault(
            ERROR_INVALID_ARGUMENT,
            "acopy: malformed XLA metadata query".into(),
        )
    };
    let ext = ext.as_mut().ok_or_else(bad)?;
    let meta = ext.metadata.as_mut().ok_or_else(bad)?;
    if meta.struct_size < struct_size!(Metadata, traits, u32) {
        return Err(bad());
    }
    meta.api_version = ApiVersion {
        struct_size: struct_size!(ApiVersion, minor, i32),
        extension_start: std::ptr::null_mut(),
        major: API_MAJOR,
        minor: API_MINOR,
    };
    meta.traits = 0;
    if meta.struct_size >= struct_size!(Metadata, state_type_id, i64) {
        meta.state_type_id = 0;
    }
    Ok(())
}

/// The registered call named by the `acopy_call` attribute.
unsafe fn call_of(attrs: &Attrs) -> Result<Arc<Call>, Fault> {
    let missing = || {
        Fault(
            ERROR_INVALID_ARGUMENT,
            format!("acopy: the custom call has no i64 attribute `{CALL_ATTRIBUTE}` (use acopy.jax.function)"),
        )
    };
    for a in 0..attrs.size.max(0) as usize {
        let name = &**attrs.names.add(a);
        let bytes = std::slice::from_raw_parts(name.ptr as *const u8, name.len);
        if bytes != CALL_ATTRIBUTE.as_bytes() {
            continue;
        }
        if *attrs.types.add(a) != ATTR_SCALAR {
            return Err(missing());
        }
        let scalar = &*(*attrs.attrs.add(a) as *const Scalar);
        if scalar.dtype != DTYPE_S64 {
            return Err(missing());
        }
        let id = *(scalar.value as *const i64);
        let all = calls().lock().unwrap_or_else(|p| p.into_inner());
        return usize::try_from(id)
            .ok()
            .and_then(|i| all.get(i).cloned())
            .ok_or_else(|| {
                Fault(
                    ERROR_INVALID_ARGUMENT,
                    format!("acopy: no registered call {id}"),
                )
            });
    }
    Err(missing())
}

/// The DLPack (code, bits) of an XLA dtype; (255, 0) for one acopy takes nowhere.
fn dlpack_dtype(dtype: i32) -> (u8, u8) {
    match dtype {
        1 => (6, 8),
        2 => (0, 8),
        3 => (0, 16),
        4 => (0, 32),
        5 => (0, 64),
        6 => (1, 8),
        7 => (1, 16),
        8 => (1, 32),
        9 => (1, 64),
        10 => (2, 16),
        11 => (2, 32),
        12 => (2, 64),
        16 => (4, 16),
        19 => (12, 8),
        20 => (10, 8),
        _ => (255, 0),
    }
}

/// Buffer `j` of `list` as the facts a launch checks (row-major: XLA's default
/// layout, which `acopy.jax` asks for).
unsafe fn buffer_facts(list: &Buffers, j: usize, device: (i32, i32)) -> Result<ArrayFacts, Fault> {
    if *list.types.add(j) != ARG_BUFFER {
        return Err(Fault(
            ERROR_INVALID_ARGUMENT,
            format!("acopy: XLA operand {j} is not a buffer"),
        ));
    }
    let b = &*(*list.items.add(j) as *const Buffer);
    let rank = b.rank.max(0) as usize;
    let dims = if rank == 0 {
        Vec::new()
    } else {
        std::slice::from_raw_parts(b.dims, rank).to_vec()
    };
    let (code, bits) = dlpack_dtype(b.dtype);
    Ok((b.data as u64, dims, None, code, bits, device.0, device.1))
}

unsafe fn execute(api: &Api, frame: &CallFrame, cuda: bool) -> Result<(), Fault> {
    let call = call_of(&frame.attrs)?;
    let kernel = call.kernel.get();
    if frame.args.size != call.inputs as i64 || frame.rets.size != call.outputs as i64 {
        return Err(Fault(
            ERROR_INVALID_ARGUMENT,
            format!(
                "acopy: kernel `{}` was registered with {} inputs and {} outputs, XLA passed {} and {}",
                kernel.name, call.inputs, call.outputs, frame.args.size, frame.rets.size
            ),
        ));
    }
    let ordinal = if cuda { device_ordinal(api, frame) } else { 0 };
    let place = if cuda {
        (DL_CUDA, ordinal)
    } else {
        (DL_CPU, 0)
    };
    let mut ready = Vec::with_capacity(call.slots.len());
    for (i, slot) in call.slots.iter().enumerate() {
        let facts = match slot {
            Slot::Input(j) => buffer_facts(&frame.args, *j, place)?,
            Slot::Output(j) => buffer_facts(&frame.rets, *j, place)?,
            Slot::Scalar(arg) => {
                ready.push(Ready::Scalar(arg.clone()));
                continue;
            }
        };
        let KernelArg::Memref(want) = &kernel.args[i] else {
            return Err(Fault(
                ERROR_INTERNAL,
                "acopy: a buffer for a scalar argument".into(),
            ));
        };
        ready.push(Ready::Memref(kernel.check_memref(i, want, facts)?.0));
    }
    let maps = kernel.map_params(&ready, ordinal)?;
    let stream = stream(api, frame)?;
    kernel.launch_checked(&ready, maps, ordinal, &call.cfg, stream)?;
    Ok(())
}

unsafe fn device_ordinal(api: &Api, frame: &CallFrame) -> i32 {
    let known = api.struct_size >= offset_of!(Api, device_ordinal_get) + size_of::<usize>();
    let Some(get) = api.device_ordinal_get.filter(|_| known) else {
        return 0;
    };
    let mut args = DeviceOrdinalGetArgs {
        struct_size: struct_size!(DeviceOrdinalGetArgs, device_ordinal, i32),
        extension_start: std::ptr::null_mut(),
        ctx: frame.ctx,
        device_ordinal: 0,
    };
    let err = get(&mut args);
    if err.is_null() {
        return args.device_ordinal;
    }
    if let Some(destroy) = api.error_destroy {
        destroy(&mut ErrorDestroyArgs {
            struct_size: struct_size!(ErrorDestroyArgs, error, *mut XlaError),
            extension_start: std::ptr::null_mut(),
            error: err,
        });
    }
    0
}

unsafe fn stream(api: &Api, frame: &CallFrame) -> Result<sys::CUstream, Fault> {
    let get = api.stream_get.ok_or_else(|| {
        Fault(
            ERROR_INTERNAL,
            "acopy: XLA's API has no XLA_FFI_Stream_Get".into(),
        )
    })?;
    let mut args = StreamGetArgs {
        struct_size: struct_size!(StreamGetArgs, stream, *mut c_void),
        extension_start: std::ptr::null_mut(),
        ctx: frame.ctx,
        stream: std::ptr::null_mut(),
    };
    let err = get(&mut args);
    if !err.is_null() {
        if let Some(destroy) = api.error_destroy {
            destroy(&mut ErrorDestroyArgs {
                struct_size: struct_size!(ErrorDestroyArgs, error, *mut XlaError),
                extension_start: std::ptr::null_mut(),
                error: err,
            });
        }
        return Err(Fault(
            ERROR_INTERNAL,
            "acopy: XLA_FFI_Stream_Get failed".into(),
        ));
    }
    Ok(args.stream as sys::CUstream)
}
