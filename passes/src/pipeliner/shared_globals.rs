//! The `memref.global`s of shared memory a rewritten loop keeps its mbarriers (and,
//! on the block schedule's TMA path, its tile count) in, and the view of one cell.

use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::OperationLike,
        r#type::{IntegerType, MemRefType},
        Attribute, RegionLike, Type, Value,
    },
    Context,
};

use crate::ir::build::{self, Builder as B, Ix};
use crate::plan::loops::loop_plan::LoopPlan;

type R<T> = Result<T, String>;
/// A shared `memref.global` of `r#type` named `symbol`, 8-byte aligned, at the
/// start of the loop's gpu.module.
pub(super) fn add_global<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
    symbol: &str,
    r#type: Type<'c>,
) -> R<()> {
    let module = crate::target::enclosing(plan.function, crate::ir::op_names::gpu::MODULE)
        .ok_or("internal error: a kernel outside a gpu.module")?;
    let module_body = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: gpu.module without a body")?;
    let global = build::shared_global(context, plan.loop_op.location(), symbol, r#type, 8)?;
    match module_body.first_operation() {
        Some(first) => module_body.insert_operation_before(first, global),
        None => module_body.append_operation(global),
    };
    Ok(())
}

/// The memory space `3` (shared), as the pass spells its own buffers.
pub(super) fn shared_space(context: &Context) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), 3).into()
}

/// `memref<1xi64, 3>`: one mbarrier, or the tile count.
pub(super) fn cell_type<'c>(context: &'c Context) -> Type<'c> {
    MemRefType::new(
        IntegerType::new(context, 64).into(),
        &[1],
        None,
        Some(shared_space(context)),
    )
    .into()
}

pub(super) fn barrier_view<'c, 'a>(
    b: &B<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
) -> R<Value<'c, 'a>> {
    let shift = b.mul(slot, Ix::Const(8))?;
    b.view(storage, shift, cell_type(b.context))
}
