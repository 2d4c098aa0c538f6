//! From lowered IR to LLVM IR or PTX, in process (no mlir-opt, no llc).
//!
//! [`add_passes`] appends to a pass manager, after the acopy passes:
//! 1. `acopy-prepare-emit` (ours): every `gpu.module` gets
//!    `targets = [#nvvm.target<O = …, chip = "sm_XX", features = "+ptxNN">]`
//!    with the resolved chip (the override first, docs/dialect.md, "Target") and the PTX ISA the
//!    chip model asks for ([`Chip::ptx_features`]), because the NVPTX backend
//!    aborts the whole process on a PTX version too old for the chip. It also
//!    refuses, with an error at the op, acopy ops left unlowered and any NVVM op
//!    the chip cannot run (for example TMA on sm_80), because llc aborts with
//!    "Cannot select" instead of reporting them.
//! 2. upstream, on each `gpu.module`: `expand-strided-metadata` and
//!    `lower-affine` (views such as `memref.subview` become plain address
//!    arithmetic), `convert-scf-to-cf`,
//!    `convert-gpu-to-nvvm` (which also lowers memref, arith, cf and index
//!    through their LLVM conversion interfaces, so `finalize-memref-to-llvm` and
//!    `convert-cf-to-llvm`, which only anchor on `builtin.module`, are not
//!    needed), `convert-nvvm-to-llvm`, `convert-arith-to-llvm`,
//!    `convert-index-to-llvm`, `reconcile-unrealized-casts`;
//! 3. for PTX, `gpu-module-to-binary{format=isa}`.
//!
//! After the run, [`collect`] returns one text per `gpu.module`, in order: the
//! PTX from each `gpu.binary` object, or the LLVM IR translated from a copy of
//! the `gpu.module`'s body (`mlirTranslateModuleToLLVMIR`).
//!
//! The kernel ABI is upstream's default memref lowering: docs/kernel-abi.md.

use acopy_target::{Capability, Chip, PtxVersion, LLVM_MAX_PTX};
use melior::{
    ir::{
        attribute::{ArrayAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Attribute, Module, OperationRef, RegionLike,
    },
    pass::OperationPassManager,
};

use crate::{
    external::{external_pass, PassId, PassResult},
    ir,
    pipeline::{self, PipelineError},
    target, PassOptions,
};
use acopy_dialect::diagnostics::emit_error;

/// What to produce from each `gpu.module`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// LLVM IR text.
    Llvm,
    /// PTX assembly.
    Ptx,
}

/// The output of one `gpu.module`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The `gpu.module`'s symbol name.
    pub name: String,
    /// LLVM IR or PTX text.
    pub text: String,
}

/// The passes run on each `gpu.module`: upstream's, plus
/// `acopy-tensor-map-params` right after `convert-gpu-to-nvvm`, which makes the
/// TMA tensor-map parameters `__grid_constant__` (docs/lowering-tma.md §1.1).
pub const UPSTREAM: &str = "expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm,acopy-tensor-map-params,convert-nvvm-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts";

static PREPARE_ID: PassId = PassId;
static PREPARE_PTX_ID: PassId = PassId;

/// Appends the passes that take lowered IR to `format` (see the module comment).
/// `chip` overrides every `gpu.module`'s chip.
pub fn add_passes(
    manager: OperationPassManager,
    format: Format,
    chip: Option<Chip>,
) -> Result<(), PipelineError> {
    let options = PassOptions {
        chip,
        ..PassOptions::default()
    };
    let (id, body): (_, fn(OperationRef, &PassOptions) -> PassResult) = match format {
        Format::Llvm => (&PREPARE_ID, prepare),
        Format::Ptx => (&PREPARE_PTX_ID, prepare_ptx),
    };
    manager.add_pass(external_pass(
        id,
        "acopy-prepare-emit",
        "Set each gpu.module's NVVM target to its chip and refuse IR the chip cannot compile",
        options,
        &[],
        body,
    ));
    let mut steps = vec![format!("gpu.module({UPSTREAM})")];
    if format == Format::Ptx {
        steps.push("gpu-module-to-binary{format=isa}".to_string());
    }
    // The same passes for gpu.modules inside nested builtin.modules, down to
    // MAX_NESTING levels (prepare refuses deeper ones with a located error).
    let mut parts = Vec::new();
    for step in &steps {
        for depth in 0..=MAX_NESTING {
            parts.push(format!(
                "{}{step}{}",
                "builtin.module(".repeat(depth),
                ")".repeat(depth)
            ));
        }
    }
    pipeline::add_pipeline(manager, &parts.join(","))
}

/// How many `builtin.module`s deep (below the top one) `--emit` compiles a
/// `gpu.module`.
pub const MAX_NESTING: usize = 3;

/// NVVM ops that need a capability, by name prefix; the first match decides.
/// An op on this list never reaches LLVM for a chip without the capability.
const GATED_OPS: &[(&str, Capability)] = &[
    ("nvvm.cp.async.bulk.tensor", Capability::Tma),
    ("nvvm.cp.reduce.async.bulk", Capability::BulkReduce),
    ("nvvm.cp.async.bulk", Capability::Tma),
    ("nvvm.mbarrier.try_wait", Capability::MbarrierTryWait),
    ("nvvm.mbarrier.arrive.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.arrive_drop.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.complete_tx", Capability::Tma),
    ("nvvm.fence.proxy", Capability::FenceProxyAsync),
    ("nvvm.fence.mbarrier.init", Capability::Clusters),
    ("nvvm.cluster", Capability::Clusters),
    ("nvvm.read.ptx.sreg.cluster", Capability::Clusters),
    ("nvvm.mapa", Capability::Clusters),
    ("nvvm.elect.sync", Capability::Clusters),
];

/// The capability `name` needs, if it is on [`GATED_OPS`].
pub fn required_capability(name: &str) -> Option<Capability> {
    GATED_OPS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|(_, capability)| *capability)
}

fn gpu_modules<'c, 'a>(top: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut raw = Vec::new();
    top.walk(WalkOrder::PreOrder, |op| {
        // Nested gpu.modules too: check_nesting refuses them with an error,
        // where skipping them would drop their kernels silently.
        if ir::op_name(&op) == "gpu.module" {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    raw.into_iter()
        // SAFETY: the walk found these ops under `top`, which is alive.
        .map(|raw| unsafe { OperationRef::from_raw(raw) })
        .collect()
}

fn prepare(top: OperationRef, options: &PassOptions) -> PassResult {
    let modules = gpu_modules(top);
    if modules.is_empty() {
        emit_error(
            top.location(),
            "LLVM IR and PTX are compiled from gpu.modules, and this input has none: put the kernels in a gpu.module",
        );
        return Err(());
    }
    let mut failed = false;
    for module in modules {
        if let Err(message) = check_nesting(module, top) {
            emit_error(module.location(), &message);
            failed = true;
        } else if check_module(module, options).is_err() {
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// A gpu.module `--emit` can reach: under `top` through at most
/// [`MAX_NESTING`] `builtin.module`s and nothing else.
fn check_nesting(module: OperationRef, top: OperationRef) -> Result<(), String> {
    let mut depth = 0usize;
    let mut current = module.parent_operation();
    while let Some(parent) = current {
        if parent == top {
            break;
        }
        let name = ir::op_name(&parent);
        if name != "builtin.module" {
            return Err(format!(
                "this gpu.module is inside '{name}'; LLVM IR and PTX are compiled from gpu.modules in builtin.modules only"
            ));
        }
        depth += 1;
        current = parent.parent_operation();
    }
    if depth > MAX_NESTING {
        return Err(format!(
            "this gpu.module is {depth} builtin.modules deep; LLVM IR and PTX are compiled from gpu.modules at most {MAX_NESTING} nested builtin.modules deep: move it up"
        ));
    }
    Ok(())
}

/// [`prepare`], and every symbol that becomes a PTX name must be a PTX
/// identifier: the NVPTX backend aborts the process ("Symbol name with
/// unsupported characters") on a kernel named `@"a b"`.
fn prepare_ptx(top: OperationRef, options: &PassOptions) -> PassResult {
    let symbols = gpu_modules(top)
        .into_iter()
        .map(check_ptx_symbols)
        .fold(Ok(()), PassResult::and);
    let prepared = prepare(top, options);
    symbols.and(prepared)
}

/// The ops in a `gpu.module` whose symbol names end up in the PTX.
const PTX_SYMBOL_OPS: [&str; 5] = [
    "gpu.func",
    "func.func",
    "llvm.func",
    "memref.global",
    "llvm.mlir.global",
];

/// Whether `name` is a PTX identifier: `[a-zA-Z][a-zA-Z0-9_$]*` or
/// `[_$][a-zA-Z0-9_$]+` (PTX ISA §4.4; PTX also allows a leading `%`, which
/// the NVPTX backend does not).
pub fn is_ptx_identifier(name: &str) -> bool {
    let follows = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut chars = name.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphabetic() => chars.all(follows),
        Some('_' | '$') => name.len() > 1 && chars.all(follows),
        _ => false,
    }
}

fn check_ptx_symbols(module: OperationRef) -> PassResult {
    let mut failed = false;
    module.walk(WalkOrder::PreOrder, |op| {
        if !PTX_SYMBOL_OPS.contains(&ir::op_name(&op).as_str()) {
            return WalkResult::Advance;
        }
        let Some(name) = op
            .attribute("sym_name")
            .ok()
            .and_then(|name| StringAttribute::try_from(name).ok())
        else {
            return WalkResult::Advance;
        };
        // A name that is not UTF-8 reads as "", which is no identifier either.
        if !is_ptx_identifier(acopy_dialect::string_value(name)) {
            emit_error(
                op.location(),
                &format!(
                    "the symbol name {name} cannot be written in PTX: a PTX name is [a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+; rename it, or emit LLVM IR instead"
                ),
            );
            failed = true;
        }
        WalkResult::Skip
    });
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

fn check_module(module: OperationRef, options: &PassOptions) -> PassResult {
    let chips = match target::resolve_chip(module, options) {
        Ok(chip) => vec![chip],
        // A gpu.module for several chips holds no acopy op (acopy-verify
        // refuses one there, and acopy-lower retargets the modules it
        // lowers to their one chip): compile it once per chip, as
        // gpu-module-to-binary does for several targets.
        Err(target::TargetProblem::SeveralChips(_)) => {
            match target::module_chips(module)
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(chips) => chips,
                Err(problem) => {
                    emit_error(module.location(), &problem.to_string());
                    return Err(());
                }
            }
        }
        Err(problem) => {
            emit_error(module.location(), &problem.to_string());
            return Err(());
        }
    };
    let mut failed = false;
    module.walk(WalkOrder::PreOrder, |op| {
        let name = ir::op_name(&op);
        if name == "gpu.module" && op != module {
            // Refused by check_nesting on its own.
            return WalkResult::Skip;
        }
        if name.starts_with("acopy.") {
            emit_error(
                op.location(),
                &format!("'{name}' must be lowered before LLVM IR or PTX is emitted: run acopy-lower first"),
            );
            failed = true;
        } else if name == "gpu.func" {
            if let Err(message) = check_attributions(op) {
                emit_error(op.location(), &message);
                failed = true;
            }
        } else if name == "memref.global" {
            if let Err(message) = check_global(op) {
                emit_error(op.location(), &message);
                failed = true;
            }
        } else if let Some(capability) = required_capability(&name) {
            if let Some(chip) = chips.iter().find(|chip| !chip.has(capability)) {
                emit_error(
                    op.location(),
                    &format!("'{name}' cannot be compiled for {chip}: it needs {capability:?}, which {chip} does not have"),
                );
                failed = true;
            }
        }
        WalkResult::Advance
    });
    if failed {
        return Err(());
    }
    set_targets(module, &chips)
}

/// `convert-gpu-to-nvvm` assumes workgroup attributions in shared memory and
/// private ones in the default space; with any other memory space it makes
/// IR that does not verify (an `llvm.insertvalue` of a mismatched pointer).
fn check_attributions(function: OperationRef) -> Result<(), String> {
    use melior::ir::{attribute::IntegerAttribute, r#type::MemRefType, ValueLike};
    let Some(block) = function.region(0).ok().and_then(|body| body.first_block()) else {
        return Ok(());
    };
    let inputs = ir::function_inputs(function)?;
    let workgroup = function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|count| IntegerAttribute::try_from(count).ok())
        .and_then(|count| usize::try_from(count.value()).ok())
        .unwrap_or(0);
    for index in inputs..block.argument_count() {
        let Some(memref) = block
            .argument(index)
            .ok()
            .and_then(|argument| MemRefType::try_from(argument.r#type()).ok())
        else {
            continue;
        };
        let space = memref.memory_space().map(|space| space.to_string());
        let (kind, allowed, fits) = if index < inputs + workgroup {
            (
                "workgroup",
                "shared memory (3 or #gpu.address_space<workgroup>)",
                acopy_dialect::MemorySpace::of(memref) == acopy_dialect::MemorySpace::Shared,
            )
        } else {
            (
                "private",
                "the default memory space (none, 0 or #gpu.address_space<private>)",
                matches!(
                    space.as_deref(),
                    None | Some("0 : i64") | Some("#gpu.address_space<private>")
                ),
            )
        };
        if !fits {
            return Err(format!(
                "the {kind} attribution {memref} cannot be compiled: convert-gpu-to-nvvm needs {kind} attributions in {allowed}"
            ));
        }
        if kind == "workgroup" && has_scalable_elements(memref) {
            return Err(format!(
                "the workgroup attribution {memref} cannot be compiled: {SCALABLE}"
            ));
        }
        if holds_tf32(memref) {
            return Err(format!(
                "the {kind} attribution {memref} cannot be compiled: tf32 has no LLVM type, and convert-gpu-to-nvvm crashes on an attribution that holds it"
            ));
        }
    }
    Ok(())
}

/// Whether a memref's elements are tf32, or vectors or complex numbers of it.
/// `convert-gpu-to-nvvm` segfaults on such a workgroup or private attribution
/// (MLIR 22; found by scripts/fuzz.sh); every other element type a memref
/// can hold either converts or is reported with a location.
fn holds_tf32(memref: melior::ir::r#type::MemRefType) -> bool {
    use melior::ir::r#type::{ShapedTypeLike, TypeLike};
    let mut element = memref.element().to_raw();
    // SAFETY: `element` is a live type of the module's context at each call;
    // only type queries are made.
    unsafe {
        loop {
            if mlir_sys::mlirTypeIsAComplex(element) {
                element = mlir_sys::mlirComplexTypeGetElementType(element);
            } else if mlir_sys::mlirTypeIsAVector(element) {
                element = mlir_sys::mlirShapedTypeGetElementType(element);
            } else {
                return mlir_sys::mlirTypeIsATF32(element);
            }
        }
    }
}

/// Why a global of scalable vectors is refused. LLVM's verifier rejects it
/// with a bare "Globals cannot contain scalable types" (no `error:`, no
/// location), and workgroup attributions and `memref.global`s become globals.
const SCALABLE: &str = "a global (shared memory or memref.global) cannot hold scalable vectors, whose size is unknown when compiling";

fn has_scalable_elements(memref: melior::ir::r#type::MemRefType) -> bool {
    use melior::ir::r#type::{ShapedTypeLike, TypeLike};
    let element = memref.element();
    // SAFETY: `element` is a live vector type when the call is made.
    element.is_vector() && unsafe { mlir_sys::mlirVectorTypeIsScalable(element.to_raw()) }
}

/// A `memref.global` of scalable vectors: see [`SCALABLE`].
fn check_global(global: OperationRef) -> Result<(), String> {
    use melior::ir::{attribute::TypeAttribute, r#type::MemRefType};
    let memref = global
        .attribute("type")
        .ok()
        .and_then(|attribute| TypeAttribute::try_from(attribute).ok())
        .and_then(|attribute| MemRefType::try_from(attribute.value()).ok());
    match memref {
        Some(memref) if has_scalable_elements(memref) => Err(format!(
            "the global {memref} cannot be compiled: {SCALABLE}"
        )),
        _ => Ok(()),
    }
}

/// Replaces the module's `#nvvm.target`s with one for each of `chips` (see
/// [`retarget_all`]).
fn set_targets(module: OperationRef, chips: &[Chip]) -> PassResult {
    retarget_all(module, chips).map_err(|message| emit_error(module.location(), &message))
}

/// [`retarget_all`] for one chip, for the lowering too: after `acopy-lower`,
/// a `gpu.module` names the chip it was lowered for, so no upstream pass can
/// hand its instructions to the NVPTX backend for another chip or an older
/// PTX ISA.
pub(crate) fn retarget(module: OperationRef, chip: Chip) -> Result<(), String> {
    retarget_all(module, &[chip])
}

/// Replaces the module's targets with one `#nvvm.target` per chip, each
/// keeping the optimisation level its old target gave, with the chip's PTX
/// ISA or a newer one the old target asked for. Old targets are matched to
/// chips in order (one chip takes the first `#nvvm.target`).
fn retarget_all(module: OperationRef, chips: &[Chip]) -> Result<(), String> {
    let old: Vec<String> = ir::array_elements(module, "targets")
        .into_iter()
        .map(|target| target.to_string())
        .filter(|text| text.starts_with("#nvvm.target"))
        .collect();
    let context_ref = module.context();
    // SAFETY: `context_ref` outlives every use of `context` here.
    let context = unsafe { context_ref.to_ref() };
    let mut targets = Vec::with_capacity(chips.len());
    for (index, chip) in chips.iter().enumerate() {
        let old = old.get(index).map(String::as_str);
        let level = old.and_then(optimisation_level);
        let ptx = old
            .and_then(ptx_feature)
            .filter(|version| *version > chip.ptx_version() && *version <= LLVM_MAX_PTX)
            .unwrap_or(chip.ptx_version());
        let text = format!(
            "#nvvm.target<O = {}, chip = \"{}\", features = \"{}\">",
            level.unwrap_or(2),
            chip.llvm_cpu(),
            ptx.feature()
        );
        targets.push(
            Attribute::parse(context, &text)
                .ok_or_else(|| format!("internal error: cannot build {text}"))?,
        );
    }
    ir::set_inherent(
        module,
        "targets",
        ArrayAttribute::new(context, &targets).into(),
    );
    Ok(())
}

/// The PTX ISA of a `+ptxNN` feature in an `#nvvm.target` spelling.
fn ptx_feature(text: &str) -> Option<PtxVersion> {
    let rest = &text[text.find("+ptx")? + 4..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let number: u32 = digits.parse().ok()?;
    (digits.len() >= 2).then(|| PtxVersion::new(number / 10, number % 10))
}

/// `O = N` in an `#nvvm.target` spelling.
fn optimisation_level(text: &str) -> Option<u32> {
    let rest = &text[text.find("O = ")? + 4..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Why [`collect`] produced nothing; diagnostics were emitted when `Diagnosed`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CollectError {
    #[error("errors were reported")]
    Diagnosed,
    #[error("{0}")]
    Internal(String),
}

/// The text of each `gpu.module` (for LLVM) or `gpu.binary` (for PTX) in
/// `module`, in order, after the passes of [`add_passes`] ran.
pub fn collect(module: &Module, format: Format) -> Result<Vec<Emitted>, CollectError> {
    let mut outputs = Vec::new();
    collect_in(module.body(), format, &mut outputs)?;
    Ok(outputs)
}

/// [`collect`] for one block, going into nested `builtin.module`s.
fn collect_in(
    body: melior::ir::BlockRef,
    format: Format,
    outputs: &mut Vec<Emitted>,
) -> Result<(), CollectError> {
    let mut current = body.first_operation();
    while let Some(op) = current {
        match (format, ir::op_name(&op).as_str()) {
            (Format::Ptx, "gpu.binary") => outputs.extend(binary_texts(op)?),
            (Format::Llvm, "gpu.module") => outputs.push(Emitted {
                name: ir::symbol_name(op).unwrap_or_default(),
                text: translate(op)?,
            }),
            (_, "builtin.module") => {
                if let Some(block) = op.region(0).ok().and_then(|region| region.first_block()) {
                    collect_in(block, format, outputs)?;
                }
            }
            _ => {}
        }
        current = op.next_in_block();
    }
    Ok(())
}

fn binary_texts(binary: OperationRef) -> Result<Vec<Emitted>, CollectError> {
    let name = ir::symbol_name(binary).unwrap_or_default();
    let objects = binary
        .attribute("objects")
        .ok()
        .and_then(|objects| ArrayAttribute::try_from(objects).ok())
        .ok_or_else(|| CollectError::Internal(format!("gpu.binary @{name} has no objects")))?;
    let mut texts = Vec::new();
    for index in 0..objects.len() {
        let object = objects
            .element(index)
            .map_err(|error| CollectError::Internal(error.to_string()))?;
        let raw = melior::ir::attribute::AttributeLike::to_raw(&object);
        // SAFETY: `raw` is a live attribute; the string it returns is owned by
        // the attribute, which outlives this copy of it.
        let text = unsafe {
            if !mlir_sys::mlirAttributeIsAGPUObjectAttr(raw) {
                return Err(CollectError::Internal(format!(
                    "gpu.binary @{name} holds {object}, not a #gpu.object"
                )));
            }
            let string = mlir_sys::mlirGPUObjectAttrGetObject(raw);
            let bytes = std::slice::from_raw_parts(string.data as *const u8, string.length);
            String::from_utf8_lossy(bytes).into_owned()
        };
        texts.push(Emitted {
            name: name.clone(),
            text,
        });
    }
    Ok(texts)
}

/// Translates a lowered `gpu.module` to LLVM IR through a `builtin.module`
/// holding copies of its ops.
fn translate(gpu_module: OperationRef) -> Result<String, CollectError> {
    let module = Module::new(gpu_module.location());
    let body = gpu_module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| CollectError::Internal("gpu.module without a body".into()))?;
    let mut current = body.first_operation();
    while let Some(op) = current {
        // SAFETY: cloning a live op gives a new, unowned op, which the module's
        // block then owns.
        let clone =
            unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
        module.body().append_operation(clone);
        current = op.next_in_block();
    }
    let context_ref = gpu_module.context();
    // SAFETY: `context_ref` outlives every use of `context` here.
    let context = unsafe { context_ref.to_ref() };
    ir::set_discardable(
        module.as_operation(),
        "llvm.target_triple",
        StringAttribute::new(context, "nvptx64-nvidia-cuda").into(),
    );
    // SAFETY: the LLVM context and module are created, used and disposed here;
    // the printed string is copied before it is freed.
    unsafe {
        let llvm_context = mlir_sys::LLVMContextCreate();
        let llvm_module =
            mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llvm_context);
        if llvm_module.is_null() {
            mlir_sys::LLVMContextDispose(llvm_context);
            return Err(CollectError::Diagnosed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gated_ops_by_prefix() {
        assert_eq!(
            required_capability("nvvm.cp.async.bulk.tensor.shared.cluster.global"),
            Some(Capability::Tma)
        );
        assert_eq!(
            required_capability("nvvm.mbarrier.try_wait.parity"),
            Some(Capability::MbarrierTryWait)
        );
        assert_eq!(required_capability("nvvm.cp.async.shared.global"), None);
        assert_eq!(required_capability("nvvm.mbarrier.test.wait"), None);
        assert_eq!(required_capability("nvvm.mbarrier.init"), None);
    }

    #[test]
    fn reads_ptx_feature() {
        let text = "#nvvm.target<chip = \"sm_80\", features = \"+ptx83\">";
        assert_eq!(ptx_feature(text), Some(PtxVersion::new(8, 3)));
        assert_eq!(ptx_feature("#nvvm.target<chip = \"sm_80\">"), None);
        assert_eq!(ptx_feature("features = \"+ptx\""), None);
    }

    #[test]
    fn reads_optimisation_level() {
        assert_eq!(
            optimisation_level("#nvvm.target<O = 3, chip = \"sm_80\">"),
            Some(3)
        );
        assert_eq!(optimisation_level("#nvvm.target<chip = \"sm_80\">"), None);
    }
}
