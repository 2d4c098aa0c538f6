//! The tensor-map manifest, from the IR's side.
//!
//! `acopy-lower` records every tensor map a TMA kernel takes in the kernel's
//! discardable attribute `acopy.tensor_maps` (written by the TMA lowering):
//!
//! ```mlir
//! gpu.func @k(%src: memref<256x512xf32>, %dst: memref<256x512xf32>, %tmap0: !llvm.ptr {llvm.align = 64 : i64}) kernel
//!     attributes {acopy.tensor_maps = [{param = 2 : i64, arg = 0 : i64, element_type = f32,
//!                 box = array<i64: 64, 128>, swizzle = 0 : i64, oob_fill = "none"}]}
//! ```
//!
//! Entries are in parameter order, and their `param`s are the trailing
//! gpu.func arguments. `param` and `arg` are gpu.func argument indices, `box`
//! is outermost first, `swizzle` is in bytes, `oob_fill` is `"none"` (TMA
//! fills out-of-bounds elements with zeros; acopy never asks for NaN).
//!
//! This module reads that attribute: [`collect`] turns it into an
//! [`acopy_manifest::Manifest`] (what `acopy-opt --tma-manifest=FILE` writes),
//! and [`params`] is the pass that makes the parameters `__grid_constant__`
//! once the kernels are `llvm.func`s.

mod launch_facts;
pub mod params;

use std::rc::Rc;

use acopy_manifest::{
    ElementType, KernelEntry, LaunchFacts, Manifest, OobFill, Swizzle, TensorMap, TensorMapEntry,
};
use acopy_target::Chip;
use melior::ir::{
    attribute::{
        ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute,
        IntegerAttribute, StringAttribute, TypeAttribute,
    },
    operation::{OperationLike, WalkOrder, WalkResult},
    Attribute, Location, OperationRef,
};
use melior::Context;

use crate::ir::op_names;
use crate::{
    diagnostics::{location_at, position_of, Position},
    ir,
    target::{self, TargetProblem},
    PassOptions,
};

/// The name of the manifest attribute on a kernel.
pub const TENSOR_MAPS_ATTR: &str = op_names::attributes::TENSOR_MAPS;

/// The kernel attribute recording the dynamic shared bytes its pipelined
/// slots need, which the pipeliner writes (docs/dialect.md, "Pipelined loops").
pub const DYNAMIC_SHARED_MEMORY: &str = op_names::attributes::DYNAMIC_SHARED_MEMORY;

/// Reads a kernel's `acopy.tensor_maps` (empty when absent; a malformed entry
/// is skipped: the lowering is the only writer, and [`collect`] reports it),
/// parsed once per run for each value of the attribute (`crate::run_cache`).
pub(crate) fn read_entries(function: OperationRef) -> Rc<[TensorMapEntry]> {
    let Ok(attribute) = function.attribute(TENSOR_MAPS_ATTR) else {
        return Rc::new([]);
    };
    crate::run_cache::tensor_map_entries(attribute, || {
        let Ok(array) = ArrayAttribute::try_from(attribute) else {
            return Vec::new();
        };
        (0..array.len())
            .filter_map(|index| array.element(index).ok())
            .filter_map(|element| parse_entry(element).ok())
            .collect()
    })
}

/// Parses one element of `acopy.tensor_maps` into the manifest's entry type
/// (its `l2_promotion` and `interleave` are `none`: the attribute has no
/// field for them because acopy never asks for anything else).
pub(crate) fn parse_entry(element: Attribute) -> Result<TensorMapEntry, String> {
    let dictionary =
        DictionaryAttribute::try_from(element).map_err(|_| "an entry is not a dictionary")?;
    let int = |name: &str| -> Result<i64, String> {
        dictionary
            .element_by_name(name)
            .and_then(|value| IntegerAttribute::try_from(value).ok())
            .map(|value| value.value())
            .ok_or_else(|| format!("entry field `{name}` is missing or not an integer"))
    };
    let element_type = dictionary
        .element_by_name("element_type")
        .and_then(|value| TypeAttribute::try_from(value).ok())
        // The lowering reads a kernel's entries once per copy; the spelling
        // is printed once per run (`crate::run_cache`).
        .map(|value| crate::run_cache::type_string(value.value()))
        .ok_or("entry field `element_type` is missing or not a type")?;
    let box_shape = dictionary
        .element_by_name("box")
        .and_then(|value| DenseI64ArrayAttribute::try_from(value).ok())
        .and_then(|array| {
            (0..array.len())
                .map(|i| array.element(i).ok())
                .collect::<Option<Vec<i64>>>()
        })
        .ok_or("entry field `box` is missing or not an array<i64>")?;
    let oob_fill = dictionary
        .element_by_name("oob_fill")
        .and_then(|value| StringAttribute::try_from(value).ok())
        .map(acopy_dialect::string_value)
        .ok_or("entry field `oob_fill` is missing or not a string")?;
    let oob_fill =
        OobFill::from_name(oob_fill).ok_or_else(|| format!("unknown oob_fill `{oob_fill}`"))?;
    let element_type = ElementType::from_mlir_name(&element_type)
        .ok_or_else(|| format!("element type {element_type} has no manifest spelling"))?;
    let swizzle = Swizzle::try_from(int("swizzle")?)?;
    let index = |name: &str| -> Result<u32, String> {
        let value = int(name)?;
        u32::try_from(value).map_err(|_| format!("`{name}` {value} out of range"))
    };
    let param = index("param")?;
    let mut map = TensorMap::new(index("arg")?, element_type, box_from_i64(&box_shape)?);
    map.swizzle = swizzle;
    map.oob_fill = oob_fill;
    Ok(TensorMapEntry { param, map })
}

/// A box shape as the IR holds it (`array<i64>`) in the manifest's `u32`s.
pub(crate) fn box_from_i64(box_shape: &[i64]) -> Result<Vec<u32>, String> {
    box_shape
        .iter()
        .map(|&size| u32::try_from(size).map_err(|_| format!("box size {size} out of range")))
        .collect()
}

/// Why a manifest cannot be made from the IR. It holds no MLIR handle, so it
/// can cross threads; [`CollectError::location`] rebuilds the location.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CollectError {
    /// A kernel whose `acopy.tensor_maps` is malformed (hand-written, say) or
    /// whose chip cannot be resolved.
    #[error("kernel `{kernel}`: {reason}")]
    Kernel {
        kernel: String,
        reason: String,
        position: Option<Position>,
    },
    /// An acopy op is still there: `acopy-lower` writes the manifest
    /// attributes, so reading them earlier would miss kernels.
    #[error("'{op}' is not lowered yet: the manifest can only be read after acopy-lower, which records the tensor maps")]
    NotLowered {
        op: String,
        position: Option<Position>,
    },
    /// A `gpu.module` was already compiled to a `gpu.binary`, which keeps no
    /// kernel attributes, so its tensor maps are gone.
    #[error("gpu.binary @{binary} is already compiled: the manifest must be read after acopy-lower and before gpu-module-to-binary, which drops the kernels' tensor-map records")]
    AlreadyCompiled {
        binary: String,
        position: Option<Position>,
    },
    /// A kernel with acopy records is an `llvm.func` already: its memref
    /// arguments are expanded and its attributions are globals, so the
    /// launch facts can no longer be read.
    #[error("kernel `{kernel}` is already an llvm.func: the manifest must be read after acopy-lower and before convert-gpu-to-nvvm, which expands its arguments and shared memory")]
    Converted {
        kernel: String,
        position: Option<Position>,
    },
}

impl CollectError {
    /// Where the problem is, when the IR had a file position there.
    pub fn position(&self) -> Option<&Position> {
        match self {
            CollectError::Kernel { position, .. }
            | CollectError::NotLowered { position, .. }
            | CollectError::AlreadyCompiled { position, .. }
            | CollectError::Converted { position, .. } => position.as_ref(),
        }
    }

    /// [`CollectError::position`] as a location in `context` (unknown when
    /// there was none), for a diagnostic.
    pub fn location<'c>(&self, context: &'c Context) -> Location<'c> {
        match self.position() {
            Some(position) => location_at(position, context),
            None => Location::unknown(context),
        }
    }
}

/// The manifest of every kernel under `top` (a `builtin.module`, after
/// `acopy-lower` and before the upstream lowering): one entry per kernel
/// `gpu.func` (per chip, for a `gpu.module` whose targets name several), with
/// its tensor maps and its launch facts ([`launch_facts`]). `chip` overrides the
/// gpu.modules' chips, as the passes' `chip` option does.
///
/// Kernels are listed in IR order. A kernel without acopy records whose
/// gpu.module names no chip acopy supports (no target, or an older chip) was
/// not lowered for one and is left out.
/// IR that is not at that point is an error, never an empty manifest: an
/// acopy op left (not lowered yet, [`CollectError::NotLowered`]), a
/// `gpu.binary` (already compiled, [`CollectError::AlreadyCompiled`]) or a
/// kernel already converted to an `llvm.func` ([`CollectError::Converted`]).
pub fn collect(top: OperationRef, chip: Option<Chip>) -> Result<Manifest, CollectError> {
    let kernels = find_kernels(top)?;
    let options = PassOptions {
        chip,
        ..PassOptions::default()
    };
    let chips = target::ModuleChips::resolve(top, &options);
    let mut manifest = Manifest::new();
    for raw in kernels {
        // SAFETY: the walk found these ops under `top`, which the caller holds.
        let function = unsafe { OperationRef::from_raw(raw) };
        manifest.kernels.extend(kernel_entries(function, &chips)?);
    }
    Ok(manifest)
}

/// The kernel `gpu.func`s under `top`, or why the IR is not at the point
/// where the manifest can be read.
fn find_kernels(top: OperationRef) -> Result<Vec<mlir_sys::MlirOperation>, CollectError> {
    let mut kernels = Vec::new();
    let mut misplaced = None;
    top.walk(WalkOrder::PreOrder, |op| {
        let name = ir::op_name(&op);
        let position = || position_of(op.location());
        misplaced = if name.starts_with("acopy.") {
            Some(CollectError::NotLowered {
                op: name.clone(),
                position: position(),
            })
        } else if ir::is(&op, op_names::gpu::BINARY) {
            Some(CollectError::AlreadyCompiled {
                binary: ir::symbol_name(op).unwrap_or_default(),
                position: position(),
            })
        } else if ir::is(&op, op_names::llvm::FUNC) && has_records(op) {
            Some(CollectError::Converted {
                kernel: ir::symbol_name(op).unwrap_or_default(),
                position: position(),
            })
        } else {
            None
        };
        if misplaced.is_some() {
            return WalkResult::Interrupt;
        }
        if ir::is(&op, op_names::gpu::FUNC)
            && (op.has_attribute(op_names::attributes::GPU_KERNEL) || has_records(op))
        {
            kernels.push(op.to_raw());
        }
        WalkResult::Advance
    });
    match misplaced {
        Some(error) => Err(error),
        None => Ok(kernels),
    }
}

/// Whether acopy left records on the function (tensor maps, pipelined slots).
fn has_records(function: OperationRef) -> bool {
    function.has_attribute(TENSOR_MAPS_ATTR) || function.has_attribute(DYNAMIC_SHARED_MEMORY)
}

/// The targets a kernel is compiled for: one, or one per chip of a
/// gpu.module with several (only a module without acopy ops may have them);
/// none for a kernel without records whose module names no usable chip.
fn kernel_targets(
    function: OperationRef,
    chips: &target::ModuleChips,
) -> Result<Vec<target::Target>, TargetProblem> {
    let problem = match chips.target(function) {
        Ok(resolved) => return Ok(vec![resolved]),
        Err(problem) => problem,
    };
    if has_records(function) {
        return Err(problem);
    }
    match problem {
        TargetProblem::SeveralChips(_) => {
            let module = target::enclosing(function, op_names::gpu::MODULE);
            let mut targets: Vec<target::Target> = Vec::new();
            for chip in module.map(target::module_chips).unwrap_or_default() {
                let Ok(chip) = chip else { continue };
                let options = PassOptions {
                    chip: Some(chip),
                    ..PassOptions::default()
                };
                let resolved = target::resolve(function, &options)?;
                if !targets.iter().any(|known| known.chip == chip) {
                    targets.push(resolved);
                }
            }
            Ok(targets)
        }
        TargetProblem::Dims { .. } => Err(problem),
        _ => Ok(Vec::new()),
    }
}

fn kernel_entries(
    function: OperationRef,
    chips: &target::ModuleChips,
) -> Result<Vec<KernelEntry>, CollectError> {
    let kernel = ir::symbol_name(function).unwrap_or_default();
    let module = target::enclosing(function, op_names::gpu::MODULE)
        .and_then(ir::symbol_name)
        .unwrap_or_default();
    let error = |reason: String| CollectError::Kernel {
        kernel: kernel.clone(),
        reason,
        position: position_of(function.location()),
    };
    let targets = kernel_targets(function, chips).map_err(|problem| error(problem.to_string()))?;
    if targets.is_empty() {
        return Ok(Vec::new());
    }
    let malformed = |reason: String| error(format!("malformed {TENSOR_MAPS_ATTR}: {reason}"));
    let tensor_maps = tensor_maps(function).map_err(malformed)?;
    let dynamic_shared_memory = dynamic_shared_memory(function).map_err(&error)?;
    let inputs = ir::function_inputs(function).map_err(&error)?;
    // The tensor-map parameters are the trailing ones.
    let user_args = tensor_maps
        .iter()
        .map(|entry| entry.param as usize)
        .fold(inputs, usize::min);
    let args = launch_facts::arguments(function, user_args).map_err(&error)?;
    let static_shared_memory = launch_facts::static_shared_memory(function).map_err(&error)?;
    let programmatic_launch = waits_on_earlier_grids(function);
    let mut entries = Vec::new();
    for resolved in targets {
        let entry = KernelEntry {
            module: module.clone(),
            kernel: kernel.clone(),
            chip: resolved.chip.name().to_string(),
            cluster: cluster_dims(function).unwrap_or(resolved.cluster),
            tensor_maps: tensor_maps.clone(),
            dynamic_shared_memory,
            programmatic_launch,
            launch: Some(LaunchFacts {
                static_shared_memory,
                block: resolved.block,
                args: args.clone(),
            }),
        };
        entry
            .validate()
            .map_err(|error| malformed(error.to_string()))?;
        entries.push(entry);
    }
    Ok(entries)
}

/// Whether the kernel runs `nvvm.griddepcontrol wait` (programmatic
/// dependent launch): only then may a launcher let it start before the kernel
/// before it has finished.
fn waits_on_earlier_grids(function: OperationRef) -> bool {
    !ir::query::ops_where(function, |op| {
        ir::op_name(&op) == op_names::nvvm::GRIDDEPCONTROL.name
            && op
                .attribute("kind")
                .is_ok_and(|kind| kind.to_string().contains("wait"))
    })
    .is_empty()
}

/// The kernel's `acopy.tensor_maps`, every entry read (empty without it).
fn tensor_maps(function: OperationRef) -> Result<Vec<TensorMapEntry>, String> {
    let mut tensor_maps = Vec::new();
    if let Ok(value) = function.attribute(TENSOR_MAPS_ATTR) {
        let array = ArrayAttribute::try_from(value).map_err(|_| "not an array".to_string())?;
        for index in 0..array.len() {
            let element = array.element(index).map_err(|error| error.to_string())?;
            tensor_maps.push(parse_entry(element)?);
        }
    }
    Ok(tensor_maps)
}

/// The pipeliner's `acopy.dynamic_shared_memory` when the kernel has it, else
/// what its own `gpu.dynamic_shared_memory` uses (`None`: no bound).
fn dynamic_shared_memory(function: OperationRef) -> Result<Option<u32>, String> {
    match function.attribute(DYNAMIC_SHARED_MEMORY) {
        Err(_) => Ok(launch_facts::own_dynamic_shared_memory(function)),
        Ok(value) => IntegerAttribute::try_from(value)
            .ok()
            .and_then(|value| u32::try_from(value.value()).ok())
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "malformed {DYNAMIC_SHARED_MEMORY}: not a byte count of at most {}",
                    u32::MAX
                )
            }),
    }
}

fn cluster_dims(function: OperationRef) -> Option<[u32; 3]> {
    let dims = DenseI32ArrayAttribute::try_from(
        function
            .attribute(op_names::attributes::NVVM_CLUSTER_DIM)
            .ok()?,
    )
    .ok()?;
    let mut out = [1u32; 3];
    for (index, slot) in out.iter_mut().enumerate().take(dims.len().min(3)) {
        *slot = u32::try_from(dims.element(index).ok()?).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::waits_on_earlier_grids;
    use crate::{context::create_context, ir};
    use melior::ir::Module;

    /// Whether the kernel whose body is `body` waits for earlier grids.
    fn waits(body: &str) -> bool {
        let text = format!(
            "gpu.module @m [#nvvm.target<chip = \"sm_90a\">] {{\n  gpu.func @k() kernel {{\n{body}    gpu.return\n  }}\n}}"
        );
        let context = create_context().expect("the acopy dialect loads");
        let module = Module::parse(&context, &text).expect("the test input parses");
        let kernel =
            ir::query::ops_where(module.as_operation(), |op| ir::op_name(&op) == "gpu.func")[0];
        waits_on_earlier_grids(kernel)
    }

    #[test]
    fn the_chip_given_takes_a_module_without_a_target() {
        // A kernel in a module that names no chip is left out, unless the
        // caller says which chip it was lowered for.
        let context = create_context().expect("the acopy dialect loads");
        let module = Module::parse(
            &context,
            "gpu.module @m {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}",
        )
        .expect("the test input parses");
        let none = super::collect(module.as_operation(), None).expect("collects");
        assert!(none.kernels.is_empty());
        let chip = acopy_target::Chip::parse("sm_90a").expect("a chip");
        let given = super::collect(module.as_operation(), Some(chip)).expect("collects");
        assert_eq!(given.kernels.len(), 1);
        assert_eq!(given.kernels[0].chip, "sm_90a");
    }

    #[test]
    fn only_a_grid_dependency_wait_makes_a_launch_programmatic() {
        assert!(!waits(""));
        // Letting the next grid start is not waiting for the one before.
        assert!(!waits("    nvvm.griddepcontrol launch_dependents\n"));
        assert!(waits(
            "    nvvm.griddepcontrol launch_dependents\n    nvvm.griddepcontrol wait\n"
        ));
        // In a nested region too.
        assert!(waits(
            "    %p = arith.constant true\n    scf.if %p {\n      nvvm.griddepcontrol wait\n    }\n"
        ));
    }
}
