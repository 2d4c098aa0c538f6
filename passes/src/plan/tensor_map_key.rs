//! The tensor map a TMA copy uses, as the lowering keys it, and the two
//! limits on adding one to a kernel: at most [`MAX_TENSOR_MAPS`] per kernel
//! (rule A27), and none for a kernel that a `gpu.launch_func` in the same
//! module launches (rule A26: only host code can encode them).
//!
//! The lowering (`lower/tma/map_params.rs`) adds the parameter a key names.

use melior::ir::{operation::OperationLike, Attribute, OperationRef};

use super::PlanError;
use crate::manifest::box_from_i64;
use acopy_manifest::{ElementType, Swizzle, TensorMap};

/// The largest number of tensor maps one kernel may take. Kernel parameters
/// are limited to 4 KiB on sm_90 (32 KiB with CUDA 12.1+ on Volta and newer),
/// and each map takes 128 bytes; 16 keeps well inside the portable limit.
pub const MAX_TENSOR_MAPS: usize = 16;

/// The tensor map of a copy (zero fill): kernel argument `arg_index`,
/// `element_type`, `box_shape` as the IR holds it, and the load's `swizzle`
/// (none for a store). The plans and rule A27's count key maps with it.
pub(crate) fn tensor_map(
    arg_index: usize,
    element_type: ElementType,
    box_shape: &[i64],
    swizzle: Swizzle,
) -> Result<TensorMap, PlanError> {
    let arg = u32::try_from(arg_index).map_err(|_| PlanError::TensorMap)?;
    let box_shape = box_from_i64(box_shape).map_err(|_| PlanError::TensorMap)?;
    let mut map = TensorMap::new(arg, element_type, box_shape);
    map.swizzle = swizzle;
    Ok(map)
}

/// The `@module::@kernel` symbol reference a `gpu.launch_func` of `kernel`
/// holds. Built from the `sym_name`s, not from their spelling: a name such as
/// `@"a b"` prints quoted, and comparing text missed its launches.
fn launch_symbol<'c>(
    module: OperationRef<'c, '_>,
    kernel: OperationRef<'c, '_>,
) -> Option<Attribute<'c>> {
    use melior::ir::attribute::{AttributeLike, StringAttribute};
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
    let mut root = module;
    while let Some(parent) = root.parent_operation() {
        root = parent;
    }
    // IR without host launches (a device-only module) needs no symbol built
    // per copy to look up.
    if super::launches::none_launched(root) {
        return None;
    }
    let expected = launch_symbol(module, kernel)?;
    super::launches::is_launched(root, expected).then(|| expected.to_string())
}
