//! The outputs, read after the emit passes ran: the PTX of each `gpu.binary`
//! object, or LLVM IR translated from a copy of each `gpu.module`'s body
//! (`mlirTranslateModuleToLLVMIR`), or each `gpu.module` printed.

use melior::ir::{
    attribute::{ArrayAttribute, StringAttribute},
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    Module, OperationRef, RegionLike,
};

use super::kind::Emit;
use crate::ir::op_names::{attributes, builtin, gpu};
use crate::{ir, target};

/// The output of one `gpu.module`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The `gpu.module`'s symbol name.
    pub name: String,
    /// The chip the text is for: a PTX object's target, or the chip the
    /// `gpu.module`'s targets name (`None` when they name several, or none
    /// acopy knows).
    pub chip: Option<String>,
    /// MLIR, LLVM IR or PTX text.
    pub text: String,
}

/// The one chip a gpu.module's targets name, by name.
fn module_chip_name(gpu_module: OperationRef) -> Option<String> {
    target::module_chip(gpu_module)
        .and_then(Result::ok)
        .map(|chip| chip.name().to_string())
}

/// Why [`collect`] produced nothing; diagnostics were emitted when `Diagnosed`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    #[error("errors were reported")]
    Diagnosed,
    #[error("{0}")]
    Internal(String),
}

/// The text of each `gpu.module` (for MLIR and LLVM) or `gpu.binary` (for
/// PTX) in `module`, in order, after the passes of [`super::add_passes`] ran.
/// For MLIR, every `gpu.module` printed (outside ones nested in another);
/// for LLVM IR and PTX, those in `module` and in its nested `builtin.module`s.
pub fn collect(module: &Module, emit: Emit) -> Result<Vec<Emitted>, OutputError> {
    collect_on(module, emit, 1)
}

/// [`collect`], translating up to `threads` `gpu.module`s to LLVM IR at once
/// (each on a thread of its own, in its own LLVM context): the same outputs
/// in the same order. The caller holds the diagnostics back, as a failed
/// translation's would come in the order the threads reach them.
pub(crate) fn collect_on(
    module: &Module,
    emit: Emit,
    threads: usize,
) -> Result<Vec<Emitted>, OutputError> {
    if emit == Emit::Mlir {
        return Ok(printed_modules(module.as_operation()));
    }
    let mut found = Vec::new();
    collect_in(module.body(), emit, &mut found)?;
    let gpu_modules: Vec<OperationRef> = found
        .iter()
        .filter_map(|item| match item {
            Found::GpuModule(op) => Some(*op),
            Found::Ptx(_) => None,
        })
        .collect();
    let mut translated = translate_all(&gpu_modules, threads).into_iter();
    found
        .into_iter()
        .map(|item| match item {
            Found::Ptx(emitted) => Ok(emitted),
            Found::GpuModule(op) => Ok(Emitted {
                name: ir::symbol_name(op).unwrap_or_default(),
                chip: module_chip_name(op),
                text: translated.next().ok_or_else(|| {
                    OutputError::Internal("a gpu.module was not translated".into())
                })??,
            }),
        })
        .collect()
}

/// What [`collect_in`] finds, in order: a PTX text, or a gpu.module to
/// translate to LLVM IR.
enum Found<'c, 'a> {
    Ptx(Emitted),
    GpuModule(OperationRef<'c, 'a>),
}

/// [`translate`] of each of `gpu_modules`, in order, on up to `threads`
/// threads.
fn translate_all(gpu_modules: &[OperationRef], threads: usize) -> Vec<Result<String, OutputError>> {
    let workers = threads.min(gpu_modules.len());
    if workers < 2 {
        return gpu_modules.iter().map(|op| translate(*op)).collect();
    }
    // Raw addresses cross the threads; the ops stay alive and unchanged
    // while they run (the caller borrows the module), and each thread reads
    // only its own gpu.module and builds in its own module and LLVM context.
    let addresses: Vec<usize> = gpu_modules
        .iter()
        .map(|op| op.to_raw().ptr as usize)
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<String, OutputError>>>> = addresses
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(address) = addresses.get(index) else {
                    break;
                };
                // SAFETY: see above; the address is of a live gpu.module.
                let op = unsafe {
                    OperationRef::from_raw(mlir_sys::MlirOperation {
                        ptr: *address as *mut std::ffi::c_void,
                    })
                };
                let text = translate(op);
                if let Ok(mut slot) = results[index].lock() {
                    *slot = Some(text);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner().ok().flatten().unwrap_or_else(|| {
                Err(OutputError::Internal(
                    "a translation thread did not finish".into(),
                ))
            })
        })
        .collect()
}

fn printed_modules(top: OperationRef) -> Vec<Emitted> {
    let mut outputs = Vec::new();
    top.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::MODULE) {
            outputs.push(Emitted {
                name: ir::symbol_name(op).unwrap_or_default(),
                chip: module_chip_name(op),
                text: op.to_string(),
            });
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    outputs
}

/// What [`collect`] reads in one block, going into nested `builtin.module`s.
fn collect_in<'c, 'a>(
    body: melior::ir::BlockRef<'c, 'a>,
    emit: Emit,
    outputs: &mut Vec<Found<'c, 'a>>,
) -> Result<(), OutputError> {
    let mut current = body.first_operation();
    while let Some(op) = current {
        match (emit, ir::table_op(&op)) {
            (Emit::Ptx, Some(gpu::BINARY)) => {
                outputs.extend(binary_texts(op)?.into_iter().map(Found::Ptx))
            }
            (Emit::Llvm, Some(gpu::MODULE)) => outputs.push(Found::GpuModule(op)),
            (_, Some(builtin::MODULE)) => {
                if let Some(block) = op.region(0).ok().and_then(|region| region.first_block()) {
                    collect_in(block, emit, outputs)?;
                }
            }
            _ => {}
        }
        current = op.next_in_block();
    }
    Ok(())
}

fn binary_texts(binary: OperationRef) -> Result<Vec<Emitted>, OutputError> {
    let name = ir::symbol_name(binary).unwrap_or_default();
    let objects = binary
        .attribute("objects")
        .ok()
        .and_then(|objects| ArrayAttribute::try_from(objects).ok())
        .ok_or_else(|| OutputError::Internal(format!("gpu.binary @{name} has no objects")))?;
    let mut texts = Vec::new();
    for index in 0..objects.len() {
        let object = objects
            .element(index)
            .map_err(|error| OutputError::Internal(error.to_string()))?;
        let raw = melior::ir::attribute::AttributeLike::to_raw(&object);
        // SAFETY: `raw` is a live attribute; the string and the target it
        // returns are owned by the attribute, which outlives these copies.
        let (text, target) = unsafe {
            if !mlir_sys::mlirAttributeIsAGPUObjectAttr(raw) {
                return Err(OutputError::Internal(format!(
                    "gpu.binary @{name} holds {object}, not a #gpu.object"
                )));
            }
            let string = mlir_sys::mlirGPUObjectAttrGetObject(raw);
            let bytes = std::slice::from_raw_parts(string.data as *const u8, string.length);
            (
                String::from_utf8_lossy(bytes).into_owned(),
                melior::ir::Attribute::from_raw(mlir_sys::mlirGPUObjectAttrGetTarget(raw)),
            )
        };
        texts.push(Emitted {
            name: name.clone(),
            chip: target::target_chip(target)
                .and_then(Result::ok)
                .map(|chip| chip.name().to_string()),
            text,
        });
    }
    Ok(texts)
}

/// Translates a lowered `gpu.module` to LLVM IR through a `builtin.module`
/// holding copies of its ops.
fn translate(gpu_module: OperationRef) -> Result<String, OutputError> {
    let module = Module::new(gpu_module.location());
    let body = gpu_module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| OutputError::Internal("gpu.module without a body".into()))?;
    let mut current = body.first_operation();
    while let Some(op) = current {
        // SAFETY: cloning a live op gives a new, unowned op, which the module's
        // block then owns.
        let clone =
            unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
        module.body().append_operation(clone);
        current = op.next_in_block();
    }
    ir::with_context(&gpu_module, |context| {
        ir::set_discardable(
            module.as_operation(),
            attributes::LLVM_TARGET_TRIPLE,
            StringAttribute::new(context, "nvptx64-nvidia-cuda").into(),
        )
    });
    // SAFETY: the LLVM context and module are created, used and disposed here;
    // the printed string is copied before it is freed.
    unsafe {
        let llvm_context = mlir_sys::LLVMContextCreate();
        let llvm_module =
            mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llvm_context);
        if llvm_module.is_null() {
            mlir_sys::LLVMContextDispose(llvm_context);
            return Err(OutputError::Diagnosed);
        }
        let printed = mlir_sys::LLVMPrintModuleToString(llvm_module);
        let text = std::ffi::CStr::from_ptr(printed)
            .to_string_lossy()
            .into_owned();
        mlir_sys::LLVMDisposeMessage(printed);
        mlir_sys::LLVMDisposeModule(llvm_module);
        mlir_sys::LLVMContextDispose(llvm_context);
        Ok(text)
    }
}
