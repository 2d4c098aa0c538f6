//! Where each tile's S slots live: a workgroup attribution multiplied by S, or
//! `gpu.dynamic_shared_memory` rounded up to the slots' alignment when they pass 48 KiB
//! of static shared memory (docs/pipelining.md, "Shared memory"), and the view of slot
//! s. Both schedules (`rewrite`, `warp_specialized`) build their slots here.

use melior::{
    ir::{
        attribute::{ArrayAttribute, IntegerAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{IntegerType, MemRefType},
        Attribute, AttributeLike, RegionLike, Type, Value,
    },
    Context,
};

use crate::ir::{
    build::{Builder as B, Ix},
    op_names::{gpu, memref},
    spelled,
};
use crate::plan::loops::{
    loop_plan::{DynamicSlots, LoopPlan, Tile, TileRoot},
    slots,
};
use crate::{ir, manifest::DYNAMIC_SHARED_MEMORY};

type R<T> = Result<T, String>;
/// Where each tile's slots start: its own multiplied attribution, or its
/// offset in dynamic shared memory.
pub(super) fn slot_bases<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    stages: i64,
) -> R<Vec<Base<'c, 'a>>> {
    match plan.dynamic {
        None => {
            for tile in &plan.tiles {
                multiply(context, tile, stages)?;
            }
            Ok(plan
                .tiles
                .iter()
                .map(|tile| (tile.value, Ix::Const(0)))
                .collect())
        }
        Some(dynamic) => dynamic_bases(context, plan, dynamic),
    }
}

/// With slots in dynamic shared memory: the attributions go and the kernel
/// records the bytes it needs.
pub(super) fn record_dynamic(context: &Context, plan: &LoopPlan, stages: i64) -> R<()> {
    if let Some(dynamic) = plan.dynamic {
        remove_attributions(context, plan)?;
        let bytes = dynamic.bytes(&plan.tiles, stages as u64);
        let record = IntegerAttribute::new(IntegerType::new(context, 64).into(), bytes as i64);
        ir::set_discardable(plan.function, DYNAMIC_SHARED_MEMORY, record.into());
    }
    Ok(())
}

/// A builder at the start of the kernel, with the loop's location.
pub(super) fn at_kernel_entry<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
) -> R<B<'c, 'a>> {
    let entry = plan
        .function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .and_then(|block| block.first_operation())
        .ok_or("internal error: empty kernel")?;
    Ok(B::in_place(context, entry)?.at(plan.loop_op.location()))
}

/// Where a tile's slots start: a byte buffer and the offset of slot 0 in it.
pub(super) type Base<'c, 'a> = (Value<'c, 'a>, Ix<'c, 'a>);

/// The view of `tile`'s slot `slot`, `slot * P` bytes after its base.
pub(super) fn slot_view<'c, 'a>(
    b: &B<'c, 'a>,
    base: &Base<'c, 'a>,
    tile: &Tile<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<Value<'c, 'a>> {
    let shift = b.mul(slot, Ix::Const(tile.slot as i64))?;
    let shift = b.add(base.1, shift)?;
    b.view(base.0, shift, tile.tile_type.into())
}

/// The tiles' bases in `gpu.dynamic_shared_memory`, made at the kernel's
/// entry: the dynamic base (16-byte aligned) rounded up to `dynamic.align`
/// at run time, then each tile at its offset (`DynamicSlots::offsets`).
pub(super) fn dynamic_bases<'c, 'a>(
    context: &'c Context,
    plan: &LoopPlan<'c, 'a>,
    dynamic: DynamicSlots,
) -> R<Vec<Base<'c, 'a>>> {
    let b = at_kernel_entry(context, plan)?;
    let bytes = |space: Option<Attribute<'c>>| -> Type<'c> {
        MemRefType::new(b.int_type(8), &[ir::DYNAMIC], None, space).into()
    };
    let workgroup = bytes(Some(spelled::workgroup_space(context)?));
    let raw = b.value(gpu::DYNAMIC_SHARED_MEMORY, &[], workgroup, &[])?;
    // One buffer per memory space of the tiles (3 or the gpu attribute).
    let mut buffers: Vec<(Type, Value)> = vec![(workgroup, raw)];
    let mut buffer_of = |space: Option<Attribute<'c>>| -> R<Value<'c, 'a>> {
        let r#type = bytes(space);
        if let Some((_, buffer)) = buffers.iter().find(|(known, _)| *known == r#type) {
            return Ok(*buffer);
        }
        let cast = b.value(memref::MEMORY_SPACE_CAST, &[raw], r#type, &[])?;
        buffers.push((r#type, cast));
        Ok(cast)
    };
    let buffers: Vec<Value> = plan
        .tiles
        .iter()
        .map(|tile| buffer_of(tile.tile_type.memory_space()))
        .collect::<R<_>>()?;
    let pad = if dynamic.align > slots::DYNAMIC_BASE_ALIGN {
        let address = b.value(
            memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
            &[raw],
            b.index_type(),
            &[],
        )?;
        let up = b.sub(Ix::Const(0), Ix::Val(address))?;
        b.rem_masked(up, dynamic.align)?
    } else {
        Ix::Const(0)
    };
    let offsets = DynamicSlots::offsets(&plan.tiles, u64::from(plan.stages));
    buffers
        .into_iter()
        .zip(offsets)
        .map(|(buffer, offset)| Ok((buffer, b.add(pad, Ix::Const(offset as i64))?)))
        .collect()
}

/// Removes the workgroup attributions of tiles whose slots moved to dynamic
/// shared memory (unused now), last first so earlier indices stay valid.
pub(super) fn remove_attributions(context: &Context, plan: &LoopPlan) -> R<()> {
    let mut indices: Vec<usize> = plan
        .tiles
        .iter()
        .map(|tile| match tile.root {
            TileRoot::Workgroup { index, .. } => index,
        })
        .collect();
    indices.sort_unstable_by(|a, b| b.cmp(a));
    let function = plan.function;
    let inputs = ir::function_inputs(function)?;
    let entry = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: kernel without a body")?;
    for index in indices {
        let count = function
            .attribute("workgroup_attributions")
            .ok()
            .and_then(|value| IntegerAttribute::try_from(value).ok())
            .map_or(0, |value| value.value());
        let attrs = function
            .attribute("workgroup_attrib_attrs")
            .ok()
            .and_then(|value| ArrayAttribute::try_from(value).ok());
        // SAFETY: the argument has no uses left (the copies are erased and the
        // consumers read the dynamic slots); the block is the kernel's entry.
        unsafe { mlir_sys::mlirBlockEraseArgument(entry.to_raw(), (inputs + index) as u32) };
        let i64_type = IntegerType::new(context, 64);
        let count: Attribute = IntegerAttribute::new(i64_type.into(), count - 1).into();
        let name = melior::StringRef::new("workgroup_attributions");
        // SAFETY: a live op and attribute; MLIR copies the name. The count is
        // a plain attribute of gpu.func, not a property.
        unsafe {
            mlir_sys::mlirOperationSetAttributeByName(
                function.to_raw(),
                name.to_raw(),
                count.to_raw(),
            )
        };
        if let Some(attrs) = attrs {
            let kept: Vec<Attribute> = (0..attrs.len())
                .filter(|position| *position != index)
                .filter_map(|position| attrs.element(position).ok())
                .collect();
            ir::set_inherent(
                function,
                "workgroup_attrib_attrs",
                ArrayAttribute::new(context, &kept).into(),
            );
        }
    }
    Ok(())
}

/// Gives the tile's memory S padded slots: the attribution becomes
/// `memref<S*slot x i8>`, aligned to the slot alignment.
pub(super) fn multiply(context: &Context, tile: &Tile, stages: i64) -> R<()> {
    let total = stages * tile.slot as i64;
    let bytes: Type = MemRefType::new(
        IntegerType::new(context, 8).into(),
        &[total],
        None,
        tile.tile_type.memory_space(),
    )
    .into();
    match tile.root {
        TileRoot::Workgroup { function, index } => {
            let argument = ir::as_argument(tile.value)
                .ok_or("internal error: a workgroup attribution that is not an argument")?;
            argument.set_type(bytes);
            if !crate::raise_alignment::raise_workgroup_alignment(function, index, tile.align) {
                return Err("internal error: cannot align the pipelined tile".into());
            }
            Ok(())
        }
    }
}
