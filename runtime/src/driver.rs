//! The CUDA driver, loaded at run time: device, context, PTX modules, memory, launches
//! and events.
//!
//! Everything here runs on the calling thread with the device's primary context made
//! current by [`Runtime::new`]; work goes to the legacy default stream.

use crate::args::{self, Arg, KernelArgs};
use crate::cuda::init_driver;
use crate::error::{check, driver_error, RuntimeError};
use crate::ptx::{self, PtxParam};
use crate::shared_memory::{self, DEFAULT_MAX_SMEM};
use crate::tensor_map::{encode, encode_params, CuTensorMap};
use acopy_manifest::{KernelEntry, TensorMapEntry};
use cudarc::driver::sys;
use std::ffi::{c_void, CString};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the device and driver are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: i32,
    pub name: String,
    /// (major, minor), e.g. (9, 0) for an H100/H200.
    pub compute_capability: (i32, i32),
    pub sm_count: i32,
    /// The CUDA version the driver supports, (major, minor), e.g. (13, 0).
    pub driver_version: (i32, i32),
    pub total_memory: usize,
    /// Shared memory per block, static plus dynamic, after opting in
    /// (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN`; 232448 on an H200).
    pub max_shared_per_block_optin: u32,
}

impl DeviceInfo {
    /// `sm_XX` of the device.
    pub fn chip(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }

    /// The driver's CUDA version as text, e.g. `13.0`.
    pub fn driver(&self) -> String {
        format!("{}.{}", self.driver_version.0, self.driver_version.1)
    }
}

struct Ctx {
    device: sys::CUdevice,
    ctx: sys::CUcontext,
    info: DeviceInfo,
}

// SAFETY: a CUDA context handle may be used from any thread (after making it current
// there); the driver synchronises access to it. The other fields are plain data.
unsafe impl Send for Ctx {}
unsafe impl Sync for Ctx {}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: retained in Runtime::with_device.
        unsafe {
            let _ = sys::cuDevicePrimaryCtxRelease_v2(self.device);
        }
    }
}

/// A device with its primary context, current on the thread that created it.
#[derive(Clone)]
pub struct Runtime {
    ctx: Arc<Ctx>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("device", &self.ctx.info)
            .finish()
    }
}

fn device_attr(dev: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, RuntimeError> {
    let mut v = 0;
    // SAFETY: valid out pointer and device.
    check("cuDeviceGetAttribute", unsafe {
        sys::cuDeviceGetAttribute(&mut v, a, dev)
    })?;
    Ok(v)
}

impl Runtime {
    /// Device 0. Errors with [`RuntimeError::LibraryMissing`] or
    /// [`RuntimeError::NoDevice`] (see [`RuntimeError::is_no_gpu`]) when there is no GPU.
    pub fn new() -> Result<Runtime, RuntimeError> {
        Self::with_device(0)
    }

    /// Look at a device without creating a context.
    pub fn probe(ordinal: i32) -> Result<DeviceInfo, RuntimeError> {
        init_driver()?;
        let mut count = 0;
        // SAFETY: valid out pointer.
        check("cuDeviceGetCount", unsafe {
            sys::cuDeviceGetCount(&mut count)
        })?;
        if count == 0 {
            return Err(RuntimeError::NoDevice(
                "the driver reports 0 devices".into(),
            ));
        }
        if ordinal < 0 || ordinal >= count {
            return Err(RuntimeError::NoDevice(format!(
                "device {ordinal} requested, the driver reports {count}"
            )));
        }
        let mut dev = 0;
        // SAFETY: ordinal is in range.
        check("cuDeviceGet", unsafe {
            sys::cuDeviceGet(&mut dev, ordinal)
        })?;
        let mut name = [0 as std::ffi::c_char; 256];
        // SAFETY: buffer of the given length.
        check("cuDeviceGetName", unsafe {
            sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev)
        })?;
        // SAFETY: the driver NUL-terminates the name.
        let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let mut version = 0;
        // SAFETY: valid out pointer.
        check("cuDriverGetVersion", unsafe {
            sys::cuDriverGetVersion(&mut version)
        })?;
        let mut total = 0usize;
        // SAFETY: valid out pointer.
        check("cuDeviceTotalMem", unsafe {
            sys::cuDeviceTotalMem_v2(&mut total, dev)
        })?;
        use sys::CUdevice_attribute::*;
        Ok(DeviceInfo {
            ordinal,
            name,
            compute_capability: (
                device_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                device_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            sm_count: device_attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            driver_version: (version / 1000, (version % 1000) / 10),
            total_memory: total,
            max_shared_per_block_optin: u32::try_from(device_attr(
                dev,
                CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?)
            .unwrap_or(DEFAULT_MAX_SMEM),
        })
    }

    /// A device by ordinal, with its primary context made current on this thread.
    pub fn with_device(ordinal: i32) -> Result<Runtime, RuntimeError> {
        let info = Self::probe(ordinal)?;
        let mut dev = 0;
        let mut ctx = std::ptr::null_mut();
        // SAFETY: the driver is initialised and the ordinal checked by probe.
        unsafe {
            check("cuDeviceGet", sys::cuDeviceGet(&mut dev, ordinal))?;
            check(
                "cuDevicePrimaryCtxRetain",
                sys::cuDevicePrimaryCtxRetain(&mut ctx, dev),
            )?;
        }
        let rt = Runtime {
            ctx: Arc::new(Ctx {
                device: dev,
                ctx,
                info,
            }),
        };
        rt.make_current()?;
        Ok(rt)
    }

    /// Make this runtime's context current on the calling thread.
    pub fn make_current(&self) -> Result<(), RuntimeError> {
        // SAFETY: the context is retained for the life of `self.ctx`.
        check("cuCtxSetCurrent", unsafe {
            sys::cuCtxSetCurrent(self.ctx.ctx)
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.ctx.info
    }

    /// JIT-compile PTX text (`cuModuleLoadDataEx`). A JIT failure carries the JIT log.
    pub fn load_ptx(&self, ptx_text: &str, name: &str) -> Result<Module, RuntimeError> {
        let image = CString::new(ptx_text).map_err(|_| RuntimeError::ModuleLoad {
            name: name.into(),
            log: "the PTX text contains a NUL byte".into(),
        })?;
        let mut log = vec![0u8; 16 * 1024];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values = [log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
        let mut module = std::ptr::null_mut();
        // SAFETY: NUL-terminated image; option arrays of equal length; the log buffer
        // outlives the call.
        let r = unsafe {
            sys::cuModuleLoadDataEx(
                &mut module,
                image.as_ptr() as *const c_void,
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let jit = String::from_utf8_lossy(&log[..end]).trim().to_string();
            let err = driver_error("cuModuleLoadDataEx", r);
            return Err(RuntimeError::ModuleLoad {
                name: name.into(),
                log: if jit.is_empty() {
                    err.to_string()
                } else {
                    format!("{err}\n{jit}")
                },
            });
        }
        Ok(Module {
            module,
            ptx: ptx_text.to_string(),
            _ctx: self.ctx.clone(),
        })
    }

    /// Allocate device memory (`cuMemAlloc`); contents undefined.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, RuntimeError> {
        let mut ptr = 0;
        // SAFETY: valid out pointer; a zero-byte request is made one byte.
        check("cuMemAlloc", unsafe {
            sys::cuMemAlloc_v2(&mut ptr, bytes.max(1))
        })?;
        Ok(DeviceBuffer {
            ptr,
            bytes,
            _ctx: self.ctx.clone(),
        })
    }

    /// Allocate and upload.
    pub fn upload(&self, data: &[u8]) -> Result<DeviceBuffer, RuntimeError> {
        let b = self.alloc(data.len())?;
        b.write(data)?;
        Ok(b)
    }

    /// Device-to-device copy on the default stream (`cuMemcpyDtoDAsync`, stream 0).
    pub fn copy_dtod(
        &self,
        dst: &DeviceBuffer,
        src: &DeviceBuffer,
        bytes: usize,
    ) -> Result<(), RuntimeError> {
        if bytes > dst.bytes || bytes > src.bytes {
            return Err(RuntimeError::Launch(format!(
                "copy of {bytes} bytes between buffers of {} and {} bytes",
                src.bytes, dst.bytes
            )));
        }
        // SAFETY: both ranges are inside live allocations.
        check("cuMemcpyDtoDAsync", unsafe {
            sys::cuMemcpyDtoDAsync_v2(dst.ptr, src.ptr, bytes, std::ptr::null_mut())
        })
    }

    /// Wait for all work on the device.
    pub fn synchronize(&self) -> Result<(), RuntimeError> {
        // SAFETY: plain call.
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
    }

    /// Wait for the default stream, giving up after `timeout` (a hung kernel then
    /// leaves the context unusable; end the process).
    pub fn synchronize_timeout(&self, timeout: Duration) -> Result<(), RuntimeError> {
        let start = Instant::now();
        loop {
            // SAFETY: the null stream is always valid.
            let r = unsafe { sys::cuStreamQuery(std::ptr::null_mut()) };
            match r {
                sys::CUresult::CUDA_SUCCESS => return self.synchronize(),
                sys::CUresult::CUDA_ERROR_NOT_READY => {}
                e => return Err(driver_error("cuStreamQuery", e)),
            }
            if start.elapsed() > timeout {
                return Err(RuntimeError::Timeout(timeout));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// A timing event.
    pub fn event(&self) -> Result<Event, RuntimeError> {
        let mut ev = std::ptr::null_mut();
        // SAFETY: valid out pointer.
        check("cuEventCreate", unsafe {
            sys::cuEventCreate(&mut ev, sys::CUevent_flags::CU_EVENT_DEFAULT as u32)
        })?;
        Ok(Event {
            ev,
            _ctx: self.ctx.clone(),
        })
    }

    /// Encode the tensor map of one manifest entry for a memref.
    pub fn tensor_map(
        &self,
        entry: &TensorMapEntry,
        base: u64,
        shape: &[u64],
        strides: &[u64],
    ) -> Result<CuTensorMap, RuntimeError> {
        encode(&encode_params(entry, base, shape, strides)?)
    }

    /// Pack the kernel arguments `args` (gpu.func arguments 0..args.len()), then, when
    /// `kernel` is given, the tensor maps its manifest entry lists, encoded for the
    /// memrefs they describe. Tensor maps must be the trailing parameters: their `param`
    /// indices must be `args.len()`, `args.len() + 1`, ... in some order.
    pub fn bind(
        &self,
        args: &[Arg],
        kernel: Option<&KernelEntry>,
    ) -> Result<KernelArgs, RuntimeError> {
        args::bind_with(args, kernel, |e, base, shape, strides| {
            self.tensor_map(e, base, shape, strides)
        })
    }
}

/// A device allocation, freed on drop.
pub struct DeviceBuffer {
    ptr: sys::CUdeviceptr,
    bytes: usize,
    _ctx: Arc<Ctx>,
}

impl std::fmt::Debug for DeviceBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBuffer({:#x}, {} bytes)", self.ptr, self.bytes)
    }
}

impl DeviceBuffer {
    /// The device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Upload `data` to the start of the buffer (synchronous).
    pub fn write(&self, data: &[u8]) -> Result<(), RuntimeError> {
        if data.len() > self.bytes {
            return Err(RuntimeError::Launch(format!(
                "writing {} bytes into a buffer of {}",
                data.len(),
                self.bytes
            )));
        }
        // SAFETY: the range is inside the allocation and `data` is readable.
        check("cuMemcpyHtoD", unsafe {
            sys::cuMemcpyHtoD_v2(self.ptr, data.as_ptr() as *const c_void, data.len())
        })
    }

    /// Download the start of the buffer into `out` (synchronous; waits for prior work on
    /// the default stream).
    pub fn read(&self, out: &mut [u8]) -> Result<(), RuntimeError> {
        if out.len() > self.bytes {
            return Err(RuntimeError::Launch(format!(
                "reading {} bytes from a buffer of {}",
                out.len(),
                self.bytes
            )));
        }
        // SAFETY: the range is inside the allocation and `out` is writable.
        check("cuMemcpyDtoH", unsafe {
            sys::cuMemcpyDtoH_v2(out.as_mut_ptr() as *mut c_void, self.ptr, out.len())
        })
    }

    /// The whole buffer as a host vector.
    pub fn to_vec(&self) -> Result<Vec<u8>, RuntimeError> {
        let mut v = vec![0u8; self.bytes];
        self.read(&mut v)?;
        Ok(v)
    }

    /// Fill every byte with `value` (synchronous `cuMemsetD8`).
    pub fn fill(&self, value: u8) -> Result<(), RuntimeError> {
        // SAFETY: the range is the allocation.
        check("cuMemsetD8", unsafe {
            sys::cuMemsetD8_v2(self.ptr, value, self.bytes)
        })
    }

    /// A memref argument for this buffer: contiguous (row-major) `shape`, offset 0.
    pub fn memref(&self, shape: &[u64]) -> Arg {
        Arg::Memref(args::MemrefArg::contiguous(self.ptr, shape))
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc; errors (e.g. after a kernel fault) are ignored.
        unsafe {
            let _ = sys::cuMemFree_v2(self.ptr);
        }
    }
}

/// A CUDA event on the default stream, for timing.
pub struct Event {
    ev: sys::CUevent,
    _ctx: Arc<Ctx>,
}

impl Event {
    /// Record on the default stream.
    pub fn record(&self) -> Result<(), RuntimeError> {
        // SAFETY: live event, null stream.
        check("cuEventRecord", unsafe {
            sys::cuEventRecord(self.ev, std::ptr::null_mut())
        })
    }

    /// Wait until the event has happened.
    pub fn synchronize(&self) -> Result<(), RuntimeError> {
        // SAFETY: live event.
        check("cuEventSynchronize", unsafe {
            sys::cuEventSynchronize(self.ev)
        })
    }

    /// Milliseconds from `start` to `self` (both recorded and completed).
    pub fn elapsed_ms_since(&self, start: &Event) -> Result<f32, RuntimeError> {
        let mut ms = 0f32;
        // SAFETY: two live events of this context.
        check("cuEventElapsedTime", unsafe {
            sys::cuEventElapsedTime(&mut ms, start.ev, self.ev)
        })?;
        Ok(ms)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by cuEventCreate.
        unsafe {
            let _ = sys::cuEventDestroy_v2(self.ev);
        }
    }
}

/// A loaded PTX module.
pub struct Module {
    module: sys::CUmodule,
    ptx: String,
    _ctx: Arc<Ctx>,
}

impl Module {
    /// Look up a kernel (`.entry`) by name. Its PTX parameter list is parsed so that
    /// launches can check the packed arguments against it.
    pub fn function(&self, name: &str) -> Result<Function<'_>, RuntimeError> {
        let cname = CString::new(name).map_err(|_| RuntimeError::KernelNotFound(name.into()))?;
        let mut f = std::ptr::null_mut();
        // SAFETY: live module, NUL-terminated name.
        let r = unsafe { sys::cuModuleGetFunction(&mut f, self.module, cname.as_ptr()) };
        if r == sys::CUresult::CUDA_ERROR_NOT_FOUND {
            return Err(RuntimeError::KernelNotFound(format!(
                "{name} (entries in the PTX: {})",
                ptx::entries(&self.ptx).join(", ")
            )));
        }
        check("cuModuleGetFunction", r)?;
        Ok(Function {
            func: f,
            name: name.to_string(),
            params: ptx::entry_params(&self.ptx, name),
            static_smem: shared_memory::static_bytes(f)?,
            _module: self,
        })
    }

    /// The PTX text the module was loaded from.
    pub fn ptx(&self) -> &str {
        &self.ptx
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: loaded by cuModuleLoadDataEx.
        unsafe {
            let _ = sys::cuModuleUnload(self.module);
        }
    }
}

/// Grid, block and cluster shape, and dynamic shared memory in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// `[1, 1, 1]` for no cluster. Each grid dimension must be a multiple of it.
    pub cluster: [u32; 3],
    pub dynamic_smem: u32,
    /// Launch with programmatic stream serialization: the kernel may start
    /// before the kernel before it on the stream has finished, and waits for it
    /// itself (`griddepcontrol.wait`; the manifest's `programmatic_launch`).
    pub programmatic: bool,
}

impl LaunchConfig {
    /// A 1-D launch with no cluster and no dynamic shared memory.
    pub fn linear(grid: u32, block: u32) -> Self {
        LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            cluster: [1, 1, 1],
            dynamic_smem: 0,
            programmatic: false,
        }
    }

    /// A launch of the kernel `entry` describes: its cluster shape, whether it
    /// waits for the kernel before it (programmatic launch), and at
    /// least the dynamic shared memory it records (pipelined slots moved
    /// there; `dynamic_smem` already asked for more stays).
    pub fn for_kernel(mut self, entry: &KernelEntry) -> Self {
        self.cluster = entry.cluster;
        self.programmatic = entry.programmatic_launch;
        self.dynamic_smem = self
            .dynamic_smem
            .max(entry.dynamic_shared_memory.unwrap_or(0));
        self
    }

    /// A one-block launch of the kernel `entry` describes, with the block it
    /// was compiled for (its declared block, which the manifest records) and
    /// `for_kernel`'s cluster and dynamic shared memory; the caller sets the
    /// grid. An entry without a declared block (version 1) is an error.
    pub fn declared(entry: &KernelEntry) -> Result<Self, RuntimeError> {
        let block = entry
            .launch
            .as_ref()
            .and_then(|facts| facts.block)
            .ok_or_else(|| {
                RuntimeError::Launch(format!(
                    "kernel `{}` declares no block (give it gpu.known_block_size)",
                    entry.kernel
                ))
            })?;
        let mut launch = LaunchConfig::linear(1, 1).for_kernel(entry);
        launch.block = block;
        Ok(launch)
    }

    /// Check the launch against what the kernel's manifest entry records: the
    /// block it was compiled for (when it has one), its cluster, and at least
    /// the dynamic shared memory it needs (when known). Version 1 entries have
    /// no block to check.
    pub fn check_kernel(&self, entry: &KernelEntry) -> Result<(), RuntimeError> {
        let kernel = &entry.kernel;
        if let Some(known) = entry.launch.as_ref().and_then(|facts| facts.block) {
            if known != self.block {
                return Err(RuntimeError::Launch(format!(
                    "kernel `{kernel}` was compiled for block {known:?}, the launch has {:?}",
                    self.block
                )));
            }
        }
        if entry.cluster != self.cluster {
            return Err(RuntimeError::Launch(format!(
                "kernel `{kernel}` runs in clusters of {:?}, the launch has {:?}",
                entry.cluster, self.cluster
            )));
        }
        let needs = entry.dynamic_shared_memory.unwrap_or(0);
        if self.dynamic_smem < needs {
            return Err(RuntimeError::Launch(format!(
                "kernel `{kernel}` needs {needs} bytes of dynamic shared memory, the launch has {}",
                self.dynamic_smem
            )));
        }
        Ok(())
    }

    /// Check the shape before handing it to the driver.
    pub fn validate(&self) -> Result<(), RuntimeError> {
        for (what, d) in [
            ("grid", self.grid),
            ("block", self.block),
            ("cluster", self.cluster),
        ] {
            if d.contains(&0) {
                return Err(RuntimeError::Launch(format!(
                    "{what} {d:?} has a zero dimension"
                )));
            }
        }
        for i in 0..3 {
            if !self.grid[i].is_multiple_of(self.cluster[i]) {
                return Err(RuntimeError::Launch(format!(
                    "grid {:?} is not a multiple of cluster {:?}",
                    self.grid, self.cluster
                )));
            }
        }
        Ok(())
    }
}

/// A kernel of a loaded module.
pub struct Function<'m> {
    func: sys::CUfunction,
    name: String,
    params: Option<Vec<PtxParam>>,
    /// `CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`, read once at lookup.
    static_smem: u32,
    _module: &'m Module,
}

impl Function<'_> {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kernel's `.param` list as read from the PTX, if it could be parsed.
    pub fn params(&self) -> Option<&[PtxParam]> {
        self.params.as_deref()
    }

    /// The kernel's static shared memory in bytes.
    pub fn static_smem(&self) -> u32 {
        self.static_smem
    }

    /// Allow up to `bytes` of dynamic shared memory
    /// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`). `launch` does this by itself
    /// when static plus dynamic shared memory exceed 48 KiB.
    pub fn set_max_dynamic_smem(&self, bytes: u32) -> Result<(), RuntimeError> {
        shared_memory::set_max_dynamic(self.func, bytes)
    }

    /// How many blocks of `block` threads, each with `dynamic_smem` bytes of dynamic
    /// shared memory, one SM holds at once (`cuOccupancyMaxActiveBlocksPerMultiprocessor`:
    /// shared memory, registers and threads together), after the opt-in `launch` would
    /// make. A persistent grid of more blocks per SM than this does not run them side
    /// by side. An error ([`RuntimeError::SharedMemory`]) when static plus dynamic
    /// shared memory exceed the device's limit per block.
    pub fn max_blocks_per_sm(&self, block: u32, dynamic_smem: u32) -> Result<u32, RuntimeError> {
        let max = self._module._ctx.info.max_shared_per_block_optin;
        if let Some(bytes) = shared_memory::opt_in(&self.name, self.static_smem, dynamic_smem, max)?
        {
            self.set_max_dynamic_smem(bytes)?;
        }
        let threads = i32::try_from(block)
            .map_err(|_| RuntimeError::Launch(format!("{block} threads per block")))?;
        let mut blocks = 0;
        // SAFETY: a live function of a loaded module and a valid out pointer.
        check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut blocks,
                self.func,
                threads,
                dynamic_smem as usize,
            )
        })?;
        Ok(u32::try_from(blocks).unwrap_or(0))
    }

    /// Launch on the default stream with `cuLaunchKernelEx`; when the cluster is not
    /// 1x1x1 it carries `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`. The arguments are first
    /// checked against the PTX parameter list (count and byte size of each).
    pub fn launch(&self, cfg: &LaunchConfig, args: &mut KernelArgs) -> Result<(), RuntimeError> {
        let max = self._module._ctx.info.max_shared_per_block_optin;
        if let Some(bytes) =
            shared_memory::opt_in(&self.name, self.static_smem, cfg.dynamic_smem, max)?
        {
            self.set_max_dynamic_smem(bytes)?;
        }
        launch_raw(
            self.func,
            &self.name,
            self.params.as_deref(),
            cfg,
            args,
            std::ptr::null_mut(),
        )
    }
}

/// One kernel of a PTX module, owning the module: what a host that keeps kernels for a
/// long time (the Python package) holds, where [`Function`] borrows its [`Module`].
/// Launches go to any stream; shared memory above 48 KiB (static plus dynamic) is opted
/// in once per size increase, not at every launch.
pub struct LoadedKernel {
    func: sys::CUfunction,
    name: String,
    params: Option<Vec<PtxParam>>,
    /// `CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`, read once at load.
    static_smem: u32,
    /// The largest dynamic shared memory opted in so far (0: none).
    smem_opt_in: std::sync::atomic::AtomicU32,
    module: Module,
}

// SAFETY: CUDA module and function handles may be used from any thread once the
// context is current there (the driver synchronises them); `launch_on` makes it current.
unsafe impl Send for LoadedKernel {}
unsafe impl Sync for LoadedKernel {}

impl std::fmt::Debug for LoadedKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedKernel")
            .field("name", &self.name)
            .finish()
    }
}

impl LoadedKernel {
    /// Load `ptx_text` (named `module_name` in JIT errors) and look up `kernel` in it.
    pub fn load(
        rt: &Runtime,
        ptx_text: &str,
        module_name: &str,
        kernel: &str,
    ) -> Result<LoadedKernel, RuntimeError> {
        let module = rt.load_ptx(ptx_text, module_name)?;
        let (func, params, static_smem) = {
            let f = module.function(kernel)?;
            (f.func, f.params, f.static_smem)
        };
        Ok(LoadedKernel {
            func,
            name: kernel.to_string(),
            params,
            static_smem,
            smem_opt_in: std::sync::atomic::AtomicU32::new(0),
            module,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kernel's `.param` list as read from the PTX, if it could be parsed.
    pub fn params(&self) -> Option<&[PtxParam]> {
        self.params.as_deref()
    }

    /// The module's PTX text.
    pub fn ptx(&self) -> &str {
        self.module.ptx()
    }

    /// The kernel's static shared memory in bytes.
    pub fn static_smem(&self) -> u32 {
        self.static_smem
    }

    /// Launch on `stream` (null: the legacy default stream), asynchronously, as
    /// [`Function::launch`] does.
    pub fn launch_on(
        &self,
        cfg: &LaunchConfig,
        args: &mut KernelArgs,
        stream: sys::CUstream,
    ) -> Result<(), RuntimeError> {
        use std::sync::atomic::Ordering;
        // SAFETY: the module's context is retained for the life of `self.module`.
        check("cuCtxSetCurrent", unsafe {
            sys::cuCtxSetCurrent(self.module._ctx.ctx)
        })?;
        let max = self.module._ctx.info.max_shared_per_block_optin;
        let opt_in = shared_memory::opt_in(&self.name, self.static_smem, cfg.dynamic_smem, max)?;
        if let Some(bytes) = opt_in.filter(|&b| b > self.smem_opt_in.load(Ordering::Relaxed)) {
            shared_memory::set_max_dynamic(self.func, bytes)?;
            self.smem_opt_in.fetch_max(bytes, Ordering::Relaxed);
        }
        launch_raw(
            self.func,
            &self.name,
            self.params.as_deref(),
            cfg,
            args,
            stream,
        )
    }
}

/// The launch attributes of `cfg`: the cluster shape when it is not 1x1x1, and
/// programmatic stream serialization when the kernel waits for the one before it.
fn launch_attributes(cfg: &LaunchConfig) -> Vec<sys::CUlaunchAttribute> {
    let mut attrs = Vec::new();
    if cfg.cluster != [1, 1, 1] {
        // SAFETY: an all-zero union is a valid value; we then set the member we use.
        let mut value: sys::CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
        value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 {
            x: cfg.cluster[0],
            y: cfg.cluster[1],
            z: cfg.cluster[2],
        };
        attrs.push(sys::CUlaunchAttribute {
            id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
            pad: [0; 4],
            value,
        });
    }
    if cfg.programmatic {
        // SAFETY: as above.
        let mut value: sys::CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
        value.programmaticStreamSerializationAllowed = 1;
        attrs.push(sys::CUlaunchAttribute {
            id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
            pad: [0; 4],
            value,
        });
    }
    attrs
}

/// `cuLaunchKernelEx` of `func` on `stream`, with `launch_attributes`, after
/// checking `cfg` and the packed arguments against the PTX `params`.
fn launch_raw(
    func: sys::CUfunction,
    name: &str,
    params: Option<&[PtxParam]>,
    cfg: &LaunchConfig,
    args: &mut KernelArgs,
    stream: sys::CUstream,
) -> Result<(), RuntimeError> {
    cfg.validate()?;
    if let Some(params) = params {
        args::check_against_ptx(name, params, args)?;
    }
    let mut attrs = launch_attributes(cfg);
    let config = sys::CUlaunchConfig {
        gridDimX: cfg.grid[0],
        gridDimY: cfg.grid[1],
        gridDimZ: cfg.grid[2],
        blockDimX: cfg.block[0],
        blockDimY: cfg.block[1],
        blockDimZ: cfg.block[2],
        sharedMemBytes: cfg.dynamic_smem,
        hStream: stream,
        attrs: if attrs.is_empty() {
            std::ptr::null_mut()
        } else {
            attrs.as_mut_ptr()
        },
        numAttrs: attrs.len() as u32,
    };
    // SAFETY: `config` and `attrs` live through the call; `args` owns every value its
    // pointer array points at.
    check("cuLaunchKernelEx", unsafe {
        sys::cuLaunchKernelEx(&config, func, args.as_kernel_params(), std::ptr::null_mut())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_config_checks() {
        assert!(LaunchConfig::linear(4, 128).validate().is_ok());
        let mut c = LaunchConfig::linear(3, 128);
        c.cluster = [2, 1, 1];
        assert!(matches!(c.validate(), Err(RuntimeError::Launch(_))));
        c.grid = [4, 1, 1];
        assert!(c.validate().is_ok());
        c.block = [0, 1, 1];
        assert!(c.validate().is_err());
    }

    #[test]
    fn launch_for_a_kernel_takes_its_cluster_and_dynamic_shared_memory() {
        let mut entry = KernelEntry {
            module: "m".into(),
            kernel: "k".into(),
            chip: "sm_90".into(),
            cluster: [2, 1, 1],
            tensor_maps: Vec::new(),
            dynamic_shared_memory: Some(98416),
            programmatic_launch: true,
            launch: None,
        };
        let c = LaunchConfig::linear(4, 128).for_kernel(&entry);
        assert_eq!(
            (c.cluster, c.dynamic_smem, c.programmatic),
            ([2, 1, 1], 98416, true)
        );
        // Its attributes: the cluster, then programmatic serialization.
        let attrs = launch_attributes(&c);
        assert_eq!(attrs.len(), 2);
        assert_eq!(
            attrs[1].id,
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        );
        // SAFETY: the member launch_attributes set.
        assert_eq!(
            unsafe { attrs[1].value.programmaticStreamSerializationAllowed },
            1
        );
        assert!(launch_attributes(&LaunchConfig::linear(4, 128)).is_empty());
        // More asked for stays; none recorded keeps what was asked.
        let mut more = LaunchConfig::linear(4, 128);
        more.dynamic_smem = 100_000;
        assert_eq!(more.for_kernel(&entry).dynamic_smem, 100_000);
        entry.dynamic_shared_memory = None;
        assert_eq!(
            LaunchConfig::linear(4, 128).for_kernel(&entry).dynamic_smem,
            0
        );
    }

    #[test]
    fn a_launch_is_checked_against_the_kernels_entry() {
        let mut entry = KernelEntry {
            module: "m".into(),
            kernel: "k".into(),
            chip: "sm_80".into(),
            cluster: [1, 1, 1],
            tensor_maps: Vec::new(),
            dynamic_shared_memory: Some(47712),
            programmatic_launch: false,
            launch: Some(acopy_manifest::LaunchFacts {
                static_shared_memory: 14880,
                block: Some([128, 1, 1]),
                args: Vec::new(),
            }),
        };
        let fits = LaunchConfig::linear(1, 128).for_kernel(&entry);
        assert!(fits.check_kernel(&entry).is_ok());
        // The declared launch takes the entry's block, cluster and dynamic bytes.
        let declared = LaunchConfig::declared(&entry).expect("a declared block");
        assert_eq!(declared, fits);
        let text = |cfg: LaunchConfig, entry: &KernelEntry| match cfg.check_kernel(entry) {
            Err(RuntimeError::Launch(text)) => text,
            other => panic!("{other:?}"),
        };
        let wide = LaunchConfig::linear(1, 256).for_kernel(&entry);
        assert!(text(wide, &entry).contains("compiled for block [128, 1, 1]"));
        let mut small = fits;
        small.dynamic_smem = 47711;
        assert!(text(small, &entry).contains("needs 47712 bytes"));
        let mut clustered = fits;
        clustered.cluster = [2, 1, 1];
        assert!(text(clustered, &entry).contains("clusters of [1, 1, 1]"));
        // No known block (or a version 1 entry): any block.
        entry.launch = None;
        assert!(wide.check_kernel(&entry).is_ok());
        assert!(matches!(
            LaunchConfig::declared(&entry),
            Err(RuntimeError::Launch(text)) if text.contains("declares no block")
        ));
    }

    #[test]
    fn runtime_new_is_an_error_not_a_panic_without_a_gpu() {
        match Runtime::new() {
            Ok(rt) => assert!(!rt.info().name.is_empty()),
            Err(e) => {
                // Here (no driver) this is the skip path callers print.
                let text = e.to_string();
                assert!(!text.is_empty());
                if !e.is_no_gpu() {
                    assert!(matches!(e, RuntimeError::Driver { .. }), "{e}");
                }
            }
        }
    }

    #[test]
    fn device_info_text() {
        let i = DeviceInfo {
            ordinal: 0,
            name: "NVIDIA H200".into(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_version: (13, 0),
            total_memory: 0,
            max_shared_per_block_optin: 232_448,
        };
        assert_eq!(i.chip(), "sm_90");
        assert_eq!(i.driver(), "13.0");
    }
}
