//! Tensor-map kernel parameters and the `acopy.tensor_maps` manifest attribute.
//!
//! Each distinct (kernel argument, element type, box, swizzle, OOB fill) gets
//! one trailing `!llvm.ptr` parameter of the kernel gpu.func. The gpu.func
//! records them, in parameter order, in its discardable attribute
//! `acopy.tensor_maps`, an array of dictionaries:
//!
//! ```mlir
//! acopy.tensor_maps = [{param = 3 : i64, arg = 0 : i64, element_type = f32,
//!                       box = array<i64: 64, 32>, swizzle = 128 : i64, oob_fill = "none"}]
//! ```
//!
//! `param` and `arg` are gpu.func argument indices; `box` is outermost first.
//! The attribute survives `convert-gpu-to-nvvm` onto the `llvm.func`, where
//! `acopy-tensor-map-params` turns the trailing parameters into
//! `__grid_constant__` byval parameters, and [`crate::manifest`] reads it.

use melior::{
    ir::{
        attribute::{
            ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute, IntegerAttribute,
            StringAttribute, TypeAttribute,
        },
        block::BlockLike,
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
        Attribute, Identifier, OperationRef, RegionLike, Type, Value,
    },
    Context,
};

use crate::{
    ir,
    manifest::{read_entries, TENSOR_MAPS_ATTR},
    plan::tensor_map_key::MAX_TENSOR_MAPS,
};
use acopy_manifest::{Interleave, L2Promotion, TensorMap, TensorMapEntry};

/// The tensor-map parameter for `map` in `kernel`, added to the signature if
/// the kernel does not have it yet (maps are keyed by the whole [`TensorMap`]).
pub(crate) fn parameter<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    map: &TensorMap,
) -> Result<Value<'c, 'a>, String> {
    let entry_block = kernel
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| "internal error: kernel gpu.func without a body".to_string())?;
    let entries = read_entries(kernel);
    if let Some(entry) = entries.iter().find(|entry| entry.map == *map) {
        return entry_block
            .argument(entry.param as usize)
            .map(Into::into)
            .map_err(|_| {
                "internal error: tensor-map parameter missing from the kernel".to_string()
            });
    }
    // Verification counted the maps (`crate::plan::tensor_map_key`); a parameter
    // beyond the limit would be a bug there.
    if entries.len() >= MAX_TENSOR_MAPS {
        return Err("internal error: a tensor-map parameter beyond the kernel's limit".to_string());
    }
    let inputs = ir::function_inputs(kernel)?;
    let param = u32::try_from(inputs)
        .map_err(|_| format!("internal error: a kernel with {inputs} arguments"))?;
    let ptr = melior::dialect::llvm::r#type::pointer(context, 0);
    // Function arguments come before workgroup and private attributions in the
    // entry block, so the new argument goes right after the last input.
    let argument = entry_block.insert_argument(inputs, ptr, kernel.location());
    append_input(context, kernel, inputs, ptr)?;
    let mut entries = entries.to_vec();
    entries.push(TensorMapEntry {
        param,
        map: map.clone(),
    });
    write_entries(context, kernel, &entries)?;
    Ok(argument)
}

fn write_entries(
    context: &Context,
    kernel: OperationRef,
    entries: &[TensorMapEntry],
) -> Result<(), String> {
    let i64_type: Type = IntegerType::new(context, 64).into();
    let int = |value: i64| -> Attribute { IntegerAttribute::new(i64_type, value).into() };
    let mut elements: Vec<Attribute> = Vec::with_capacity(entries.len());
    for TensorMapEntry { param, map } in entries {
        // The attribute has fields for what acopy's lowering varies only.
        if map.l2_promotion != L2Promotion::None || map.interleave != Interleave::None {
            return Err(
                "internal error: a tensor map with L2 promotion or interleave, which acopy.tensor_maps cannot record"
                    .to_string(),
            );
        }
        let element_type = crate::ir::spelled::element_type(context, map.element_type)?;
        let box_shape: Vec<i64> = map.box_shape.iter().map(|&size| size.into()).collect();
        elements.push(
            DictionaryAttribute::new(
                context,
                &[
                    (Identifier::new(context, "param"), int((*param).into())),
                    (Identifier::new(context, "arg"), int(map.arg.into())),
                    (
                        Identifier::new(context, "element_type"),
                        TypeAttribute::new(element_type).into(),
                    ),
                    (
                        Identifier::new(context, "box"),
                        DenseI64ArrayAttribute::new(context, &box_shape).into(),
                    ),
                    (
                        Identifier::new(context, "swizzle"),
                        int(map.swizzle.bytes().into()),
                    ),
                    (
                        Identifier::new(context, "oob_fill"),
                        StringAttribute::new(context, map.oob_fill.name()).into(),
                    ),
                ],
            )
            .into(),
        );
    }
    ir::set_discardable(
        kernel,
        TENSOR_MAPS_ATTR,
        ArrayAttribute::new(context, &elements).into(),
    );
    Ok(())
}

/// Appends an input of type `ptr` to the gpu.func's `function_type` and
/// `arg_attrs` (with `llvm.align = 64`, which convert-gpu-to-nvvm keeps).
fn append_input<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    inputs: usize,
    ptr: Type<'c>,
) -> Result<(), String> {
    let function_type = ir::function_type(kernel)?;
    let mut input_types: Vec<Type> = (0..inputs)
        .filter_map(|index| function_type.input(index).ok())
        .collect();
    input_types.push(ptr);
    let results: Vec<Type> = (0..function_type.result_count())
        .filter_map(|index| function_type.result(index).ok())
        .collect();
    ir::set_inherent(
        kernel,
        "function_type",
        TypeAttribute::new(FunctionType::new(context, &input_types, &results).into()).into(),
    );
    let mut arg_attrs = ir::arg_attrs(context, kernel, inputs);
    let align: Attribute = IntegerAttribute::new(IntegerType::new(context, 64).into(), 64).into();
    arg_attrs.push(
        DictionaryAttribute::new(
            context,
            &[(
                Identifier::new(context, crate::ir::op_names::attributes::LLVM_ALIGN),
                align,
            )],
        )
        .into(),
    );
    ir::set_inherent(
        kernel,
        "arg_attrs",
        ArrayAttribute::new(context, &arg_attrs).into(),
    );
    Ok(())
}
