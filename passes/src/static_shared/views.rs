//! The move itself: views of `gpu.dynamic_shared_memory` in place of the
//! workgroup attributions, made at the kernel's entry.

use melior::ir::{
    attribute::{ArrayAttribute, AttributeLike, IntegerAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::{IntegerType, MemRefType},
    OperationRef, Type, Value, ValueLike,
};

use super::{placement::Layout, size::entry};
use crate::{
    ir::{
        self,
        build::Builder,
        op_names::{arith, gpu, memref},
        spelled,
    },
    manifest::DYNAMIC_SHARED_MEMORY,
    plan::loops::slots::DYNAMIC_BASE_ALIGN,
};

/// `arith.constant value : index`, for an offset.
fn offset_constant<'c, 'a>(b: &Builder<'c, 'a>, value: u64) -> Result<Value<'c, 'a>, String> {
    let value = i64::try_from(value).map_err(|_| "internal error: offset too large".to_string())?;
    b.index(value)
}

/// Replaces `function`'s workgroup attributions by views at `layout`'s
/// offsets, erases them, and records the dynamic bytes.
pub(super) fn apply(function: OperationRef, layout: &Layout) -> Result<(), String> {
    ir::with_context(&function, |context| apply_in(context, function, layout))
}

fn apply_in(
    context: &melior::Context,
    function: OperationRef,
    layout: &Layout,
) -> Result<(), String> {
    let block = entry(function).ok_or("internal error: kernel without a body")?;
    let anchor = block
        .first_operation()
        .ok_or("internal error: kernel without a terminator")?;
    let at = Builder::in_place(context, anchor)?.at(function.location());
    let inputs = ir::function_inputs(function)?;
    let workgroup = spelled::workgroup_space(context)?;
    let i8_type: Type = IntegerType::new(context, 8).into();
    let bytes = |space| MemRefType::new(i8_type, &[ir::DYNAMIC], None, Some(space));
    let raw = at.value(
        gpu::DYNAMIC_SHARED_MEMORY,
        &[],
        bytes(workgroup).into(),
        &[],
    )?;
    let base = aligned_base(&at, raw, layout)?;
    for (index, offset) in layout.offsets.iter().enumerate() {
        let argument = block
            .argument(inputs + index)
            .map_err(|_| "internal error: a workgroup attribution is missing".to_string())?;
        let memref = MemRefType::try_from(argument.r#type())
            .map_err(|_| "internal error: a workgroup attribution is no memref".to_string())?;
        let space = memref.memory_space().unwrap_or(workgroup);
        let buffer = if space == workgroup {
            raw
        } else {
            at.value(memref::MEMORY_SPACE_CAST, &[raw], bytes(space).into(), &[])?
        };
        let shift = offset_constant(&at, *offset)?;
        let at_offset = at.binary(arith::ADDI, base, shift)?;
        let view = at.value(memref::VIEW, &[buffer, at_offset], memref.into(), &[])?;
        // SAFETY: both values are live in the kernel; the view dominates every
        // use of the argument (it is made at the top of the entry block).
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(argument.to_raw(), view.to_raw()) };
    }
    for index in (0..layout.offsets.len()).rev() {
        // SAFETY: the argument has no uses left; the block is the kernel's entry.
        unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), (inputs + index) as u32) };
    }
    clear_attribution_attributes(function);
    let i64_type = IntegerType::new(context, 64);
    let total = i64::try_from(layout.dynamic_total)
        .map_err(|_| "internal error: too many bytes".to_string())?;
    ir::set_discardable(
        function,
        DYNAMIC_SHARED_MEMORY,
        IntegerAttribute::new(i64_type.into(), total).into(),
    );
    Ok(())
}

/// The offset of the moved bytes in dynamic shared memory: `layout.start`,
/// rounded up at run time to `layout.align` when that is more than the
/// base's 16 bytes (the reserve in `dynamic_total` pays for it).
fn aligned_base<'c, 'a>(
    at: &Builder<'c, 'a>,
    raw: Value<'c, 'a>,
    layout: &Layout,
) -> Result<Value<'c, 'a>, String> {
    let start = offset_constant(at, layout.start)?;
    if layout.align <= DYNAMIC_BASE_ALIGN {
        return Ok(start);
    }
    let address = at.value(
        memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
        &[raw],
        at.index_type(),
        &[],
    )?;
    let first = at.binary(arith::ADDI, address, start)?;
    let zero = offset_constant(at, 0)?;
    let up = at.binary(arith::SUBI, zero, first)?;
    let mask = offset_constant(at, layout.align - 1)?;
    let pad = at.binary(arith::ANDI, up, mask)?;
    at.binary(arith::ADDI, start, pad)
}

/// Sets `workgroup_attributions` of `function` to 0 and drops its
/// `workgroup_attrib_attrs`, once the attributions are erased.
fn clear_attribution_attributes(function: OperationRef) {
    ir::with_context(&function, |context| clear_attributes_in(context, function))
}

fn clear_attributes_in(context: &melior::Context, function: OperationRef) {
    let i64_type = IntegerType::new(context, 64);
    let count: melior::ir::Attribute = IntegerAttribute::new(i64_type.into(), 0).into();
    let name = melior::StringRef::new("workgroup_attributions");
    // SAFETY: a live op and attribute; MLIR copies the name. The count is a
    // plain attribute of gpu.func, not a property, so `ir::set_inherent`
    // would not reach it.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(function.to_raw(), name.to_raw(), count.to_raw())
    };
    if function.has_attribute("workgroup_attrib_attrs") {
        ir::set_inherent(
            function,
            "workgroup_attrib_attrs",
            ArrayAttribute::new(context, &[]).into(),
        );
    }
}
