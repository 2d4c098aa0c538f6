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

use super::super::build::LowerResult;
use crate::{
    ir,
    manifest::{read_entries, Entry, MapKey, TENSOR_MAPS_ATTR},
};

/// The largest number of tensor maps one kernel may take. Kernel parameters
/// are limited to 4 KiB on sm_90 (32 KiB with CUDA 12.1+ on Volta and newer),
/// and each map takes 128 bytes; 16 keeps well inside the portable limit.
pub const MAX_TENSOR_MAPS: usize = 16;

/// The tensor-map parameter for `key` in `kernel`, added to the signature if
/// the kernel does not have it yet.
pub(crate) fn parameter<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    key: &MapKey,
) -> LowerResult<Value<'c, 'a>> {
    let entry_block = kernel
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| "internal error: kernel gpu.func without a body".to_string())?;
    let mut entries = read_entries(kernel);
    if let Some(entry) = entries.iter().find(|entry| entry.key == *key) {
        return entry_block
            .argument(entry.param)
            .map(Into::into)
            .map_err(|_| {
                "internal error: tensor-map parameter missing from the kernel".to_string()
            });
    }
    // acopy-verify refuses both first (rules A27 and A26).
    if entries.len() >= MAX_TENSOR_MAPS {
        return Err(format!(
            "internal error: this kernel would need more than {MAX_TENSOR_MAPS} TMA tensor maps"
        ));
    }
    if let Some(launch) = host_launch(kernel) {
        return Err(format!(
            "internal error: kernel {launch} has TMA copies and is launched with gpu.launch_func in this module"
        ));
    }
    let inputs = ir::function_inputs(kernel)?;
    let ptr = melior::dialect::llvm::r#type::pointer(context, 0);
    // Function arguments come before workgroup and private attributions in the
    // entry block, so the new argument goes right after the last input.
    let argument = entry_block.insert_argument(inputs, ptr, kernel.location());
    append_input(context, kernel, inputs, ptr)?;
    entries.push(Entry {
        param: inputs,
        key: key.clone(),
    });
    write_entries(context, kernel, &entries);
    Ok(argument)
}

fn write_entries(context: &Context, kernel: OperationRef, entries: &[Entry]) {
    let i64_type: Type = IntegerType::new(context, 64).into();
    let int = |value: i64| -> Attribute { IntegerAttribute::new(i64_type, value).into() };
    let elements: Vec<Attribute> = entries
        .iter()
        .map(|entry| {
            let element_type = Type::parse(context, &entry.key.element_type)
                .unwrap_or_else(|| IntegerType::new(context, 8).into());
            DictionaryAttribute::new(
                context,
                &[
                    (Identifier::new(context, "param"), int(entry.param as i64)),
                    (Identifier::new(context, "arg"), int(entry.key.arg as i64)),
                    (
                        Identifier::new(context, "element_type"),
                        TypeAttribute::new(element_type).into(),
                    ),
                    (
                        Identifier::new(context, "box"),
                        DenseI64ArrayAttribute::new(context, &entry.key.box_shape).into(),
                    ),
                    (
                        Identifier::new(context, "swizzle"),
                        int(i64::from(entry.key.swizzle)),
                    ),
                    (
                        Identifier::new(context, "oob_fill"),
                        StringAttribute::new(context, entry.key.oob_fill).into(),
                    ),
                ],
            )
            .into()
        })
        .collect();
    ir::set_discardable(
        kernel,
        TENSOR_MAPS_ATTR,
        ArrayAttribute::new(context, &elements).into(),
    );
}

/// Appends an input of type `ptr` to the gpu.func's `function_type` and
/// `arg_attrs` (with `llvm.align = 64`, which convert-gpu-to-nvvm keeps).
fn append_input<'c>(
    context: &'c Context,
    kernel: OperationRef<'c, '_>,
    inputs: usize,
    ptr: Type<'c>,
) -> LowerResult<()> {
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
        DictionaryAttribute::new(context, &[(Identifier::new(context, "llvm.align"), align)])
            .into(),
    );
    ir::set_inherent(
        kernel,
        "arg_attrs",
        ArrayAttribute::new(context, &arg_attrs).into(),
    );
    Ok(())
}

/// The `@module::@kernel` symbol reference a `gpu.launch_func` of `kernel`
/// holds. Built from the `sym_name`s, not from their spelling: a name such as
/// `@"a b"` prints quoted, and comparing text missed its launches.
fn launch_symbol<'c>(
    module: OperationRef<'c, '_>,
    kernel: OperationRef<'c, '_>,
) -> Option<Attribute<'c>> {
    use melior::ir::attribute::AttributeLike;
    let module_name = StringAttribute::try_from(module.attribute("sym_name").ok()?).ok()?;
    let kernel_name = StringAttribute::try_from(kernel.attribute("sym_name").ok()?).ok()?;
    // SAFETY: both names are live string attributes of one context; the new
    // symbol references belong to it too.
    unsafe {
        let context = mlir_sys::mlirAttributeGetContext(module_name.to_raw());
        let module_name = mlir_sys::mlirStringAttrGetValue(module_name.to_raw());
        let kernel_name = mlir_sys::mlirStringAttrGetValue(kernel_name.to_raw());
        let leaf = mlir_sys::mlirFlatSymbolRefAttrGet(context, kernel_name);
        let symbol = mlir_sys::mlirSymbolRefAttrGet(context, module_name, 1, &leaf);
        Some(Attribute::from_raw(symbol))
    }
}

/// `@module::@kernel` if some `gpu.launch_func` in the IR launches `kernel`
/// (the launched set is walked once per pass run: [`super::launches`]).
pub(crate) fn host_launch(kernel: OperationRef) -> Option<String> {
    let module = kernel.parent_operation()?;
    let expected = launch_symbol(module, kernel)?;
    let mut root = module;
    while let Some(parent) = root.parent_operation() {
        root = parent;
    }
    super::launches::is_launched(root, expected).then(|| expected.to_string())
}
