//! The move itself: views of `gpu.dynamic_shared_memory` in place of the
//! workgroup attributions, made at the kernel's entry.

use melior::{
    ir::{
        attribute::{ArrayAttribute, AttributeLike, IntegerAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::{IntegerType, MemRefType},
        Attribute, BlockRef, Location, OperationRef, Type, Value, ValueLike,
    },
    Context,
};

use super::{placement::Layout, size::entry};
use crate::{ir, manifest::DYNAMIC_SHARED_MEMORY, plan::loops::slots::DYNAMIC_BASE_ALIGN};

/// Inserts ops before the first op of the kernel's entry block.
struct AtEntry<'c, 'a> {
    context: &'c Context,
    location: Location<'c>,
    block: BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
}

impl<'c, 'a> AtEntry<'c, 'a> {
    fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[result])
            .build()
            .map_err(|error| format!("internal error: cannot build {name}: {error}"))?;
        self.block
            .insert_operation_before(self.anchor, op)
            .result(0)
            .map(Into::into)
            .map_err(|_| format!("internal error: {name} without a result"))
    }

    fn index(&self, value: u64) -> Result<Value<'c, 'a>, String> {
        let value =
            i64::try_from(value).map_err(|_| "internal error: offset too large".to_string())?;
        let index = Type::index(self.context);
        let op = OperationBuilder::new("arith.constant", self.location)
            .add_attributes(&[(
                melior::ir::Identifier::new(self.context, "value"),
                IntegerAttribute::new(index, value).into(),
            )])
            .add_results(&[index])
            .build()
            .map_err(|error| format!("internal error: cannot build arith.constant: {error}"))?;
        self.block
            .insert_operation_before(self.anchor, op)
            .result(0)
            .map(Into::into)
            .map_err(|_| "internal error: arith.constant without a result".to_string())
    }
}

/// Replaces `function`'s workgroup attributions by views at `layout`'s
/// offsets, erases them, and records the dynamic bytes.
pub(super) fn apply(function: OperationRef, layout: &Layout) -> Result<(), String> {
    let context_ref = function.context();
    // SAFETY: the context owns the function being rewritten and outlives this call.
    let context = unsafe { context_ref.to_ref() };
    let block = entry(function).ok_or("internal error: kernel without a body")?;
    let anchor = block
        .first_operation()
        .ok_or("internal error: kernel without a terminator")?;
    let at = AtEntry {
        context,
        location: function.location(),
        block,
        anchor,
    };
    let inputs = ir::function_inputs(function)?;
    let workgroup = Attribute::parse(context, "#gpu.address_space<workgroup>")
        .ok_or("internal error: #gpu.address_space<workgroup>")?;
    let i8_type: Type = IntegerType::new(context, 8).into();
    let bytes = |space| MemRefType::new(i8_type, &[ir::DYNAMIC], None, Some(space));
    let raw = at.op("gpu.dynamic_shared_memory", &[], bytes(workgroup).into())?;
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
            at.op("memref.memory_space_cast", &[raw], bytes(space).into())?
        };
        let shift = at.index(*offset)?;
        let at_offset = at.op("arith.addi", &[base, shift], Type::index(context))?;
        let view = at.op("memref.view", &[buffer, at_offset], memref.into())?;
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
    at: &AtEntry<'c, 'a>,
    raw: Value<'c, 'a>,
    layout: &Layout,
) -> Result<Value<'c, 'a>, String> {
    let start = at.index(layout.start)?;
    if layout.align <= DYNAMIC_BASE_ALIGN {
        return Ok(start);
    }
    let index = Type::index(at.context);
    let address = at.op("memref.extract_aligned_pointer_as_index", &[raw], index)?;
    let first = at.op("arith.addi", &[address, start], index)?;
    let zero = at.index(0)?;
    let up = at.op("arith.subi", &[zero, first], index)?;
    let mask = at.index(layout.align - 1)?;
    let pad = at.op("arith.andi", &[up, mask], index)?;
    at.op("arith.addi", &[start, pad], index)
}

/// Sets `workgroup_attributions` of `function` to 0 and drops its
/// `workgroup_attrib_attrs`, once the attributions are erased.
fn clear_attribution_attributes(function: OperationRef) {
    let context_ref = function.context();
    // SAFETY: the context owns the function and outlives this call.
    let context = unsafe { context_ref.to_ref() };
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
