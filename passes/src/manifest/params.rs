//! `acopy-tensor-map-params`: makes the tensor-map parameters of TMA kernels
//! `__grid_constant__` once the kernels are `llvm.func`s.
//!
//! **Needs**: IR after `convert-gpu-to-nvvm`, where each TMA kernel is an
//! `llvm.func` carrying the `acopy.tensor_maps` attribute that `acopy-lower`
//! put on its gpu.func (the conversion copies function attributes). Its last
//! `K` arguments are the `K` tensor maps, as `!llvm.ptr`.
//!
//! **Guarantees**: each of those arguments gets `llvm.byval =
//! !llvm.array<128 x i8>`, `nvvm.grid_constant` and `llvm.align = 64`, so
//! the PTX parameter is `.param .align 64 .b8 name[128]` and TMA reads it
//! through `cvta.param`. Other functions are left alone; running it twice
//! changes nothing.
//!
//! Why a separate pass: the NVVM dialect only accepts `nvvm.grid_constant` on
//! an `llvm.func` kernel, and `convert-gpu-to-nvvm` drops `llvm.byval` and
//! every `nvvm.*` argument attribute of a gpu.func (docs/lowering-tma.md
//! §1.1). Without `nvvm.grid_constant` the backend copies the map to local
//! memory, where TMA cannot read it.

use acopy_dialect::diagnostics::emit_error;
use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute},
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    Attribute, Identifier, OperationRef, RegionLike, ValueLike,
};

use super::TENSOR_MAPS_ATTR;
use crate::ir::op_names;
use crate::{
    external::{external_pass, PassId, PassResult},
    ir, PassOptions,
};

/// The pass's `--help` line.
pub const SUMMARY: &str =
    "Mark the tensor-map parameters of converted TMA kernels as __grid_constant__ byval CUtensorMaps";

static ID: PassId = PassId;

/// Creates the `acopy-tensor-map-params` pass.
pub fn create_pass(options: PassOptions) -> melior::pass::Pass {
    external_pass(&ID, "acopy-tensor-map-params", SUMMARY, options, &[], run)
}

fn run(operation: OperationRef, _options: &PassOptions) -> PassResult {
    let mut functions = Vec::new();
    operation.walk(WalkOrder::PreOrder, |op| {
        if crate::ir::is(&op, op_names::llvm::FUNC) && op.has_attribute(TENSOR_MAPS_ATTR) {
            functions.push(op.to_raw());
        }
        // A function's body holds no function (`ir::is_function`).
        if crate::ir::is_function(&op) {
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    let mut failed = false;
    for raw in functions {
        // SAFETY: the walk found these ops under `operation`, which the pass holds.
        let function = unsafe { OperationRef::from_raw(raw) };
        if let Err(message) = mark(function) {
            emit_error(function.location(), &message);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// Marks the trailing tensor-map arguments of one `llvm.func`.
pub(crate) fn mark(function: OperationRef) -> Result<(), String> {
    ir::with_context(&function, |context| mark_in(context, function))
}

fn mark_in(context: &melior::Context, function: OperationRef) -> Result<(), String> {
    let maps = function
        .attribute(TENSOR_MAPS_ATTR)
        .ok()
        .and_then(|attribute| ArrayAttribute::try_from(attribute).ok())
        .map_or(0, |array| array.len());
    let entry = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| "a kernel with TMA tensor maps has no body".to_string())?;
    let arguments = entry.argument_count();
    if !function.has_attribute(op_names::attributes::NVVM_KERNEL) {
        return Err(format!(
            "{TENSOR_MAPS_ATTR} is only meaningful on a kernel (nvvm.kernel); tensor maps must be kernel parameters"
        ));
    }
    if maps > arguments {
        return Err(format!(
            "the kernel lists {maps} tensor maps in {TENSOR_MAPS_ATTR} but has only {arguments} arguments"
        ));
    }
    for index in arguments - maps..arguments {
        let is_ptr = entry
            .argument(index)
            .map(|argument| argument.r#type().to_string() == "!llvm.ptr")
            .unwrap_or(false);
        if !is_ptr {
            return Err(format!(
                "argument {index} of the kernel should be a tensor map (!llvm.ptr) but is not; was the signature changed after acopy-lower?"
            ));
        }
    }
    let mut dictionaries = ir::arg_attrs(context, function, arguments);
    let i8_type = melior::ir::r#type::IntegerType::new(context, 8).into();
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let byval = melior::ir::attribute::TypeAttribute::new(melior::dialect::llvm::r#type::array(
        i8_type, 128,
    ))
    .into();
    let added = [
        (op_names::attributes::LLVM_BYVAL, byval),
        (
            op_names::attributes::NVVM_GRID_CONSTANT,
            Attribute::unit(context),
        ),
        (
            op_names::attributes::LLVM_ALIGN,
            melior::ir::attribute::IntegerAttribute::new(i64_type, 64).into(),
        ),
    ];
    for dictionary in &mut dictionaries[arguments - maps..] {
        let mut entries: Vec<(Identifier, Attribute)> = DictionaryAttribute::try_from(*dictionary)
            .map(|existing| {
                (0..existing.len())
                    .filter_map(|position| existing.element(position).ok())
                    .collect()
            })
            .unwrap_or_default();
        entries.retain(|(name, _)| {
            !added
                .iter()
                .any(|(added, _)| name.as_string_ref().as_str() == Ok(*added))
        });
        entries.extend(
            added
                .iter()
                .map(|(name, value)| (Identifier::new(context, name), *value)),
        );
        *dictionary = DictionaryAttribute::new(context, &entries).into();
    }
    ir::set_inherent(
        function,
        "arg_attrs",
        ArrayAttribute::new(context, &dictionaries).into(),
    );
    Ok(())
}
