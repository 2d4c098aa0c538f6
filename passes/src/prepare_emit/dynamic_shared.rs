//! `gpu.dynamic_shared_memory` as real dynamic shared memory.
//!
//! `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` to a zero-sized
//! `llvm.mlir.global` in shared memory, and makes it `internal` unless the
//! `gpu.module` already has a zero-sized, 16-byte aligned shared global, which
//! it then reuses. An internal one becomes a 1-byte static `.shared` variable
//! in the PTX, which ptxas places among the kernel's other static shared
//! variables: the "dynamic" bytes then overlap them (a kernel with an
//! attribution or a pipelined loop's barriers next to dynamic slots). An
//! `external` one becomes `.extern .shared .align 16 .b8 NAME[]`, which ptxas
//! places after all static shared memory: the dynamic bytes a launch passes.
//! So each `gpu.module` that uses `gpu.dynamic_shared_memory` gets that
//! external global before the lowering, for the lowering to reuse.

use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::IntegerType,
    Attribute, OperationRef, Region, RegionLike,
};

use crate::ir::{
    self, build,
    op_names::{gpu, llvm},
    spelled,
};

/// The alignment upstream's lowering gives (and looks for in) the global.
const ALIGN: i64 = 16;

/// Adds the external zero-sized shared global to `module` when a kernel of
/// it uses `gpu.dynamic_shared_memory` and no such global is there yet.
pub(super) fn declare_extern(module: OperationRef) -> Result<(), String> {
    let mut uses = false;
    module.walk(WalkOrder::PreOrder, |op| {
        if ir::op_name(&op) == gpu::DYNAMIC_SHARED_MEMORY.name {
            uses = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if !uses {
        return Ok(());
    }
    let Some(body) = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
    else {
        return Ok(());
    };
    let mut names = Vec::new();
    let mut current = body.first_operation();
    while let Some(op) = current {
        if let Some(name) = ir::symbol_name(op) {
            names.push(name);
        }
        current = op.next_in_block();
    }
    let symbol = (0..)
        .map(|index| format!("__dynamic_shmem__{index}"))
        .find(|candidate| !names.contains(candidate))
        .unwrap_or_default();
    ir::with_context(&module, |context| insert_global(context, module, &symbol))
}

/// Inserts the external global `symbol` first in `module`'s body.
fn insert_global(
    context: &melior::Context,
    module: OperationRef,
    symbol: &str,
) -> Result<(), String> {
    let body = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: a module without a body")?;
    let array = melior::dialect::llvm::r#type::array(IntegerType::new(context, 8).into(), 0);
    let i32_type = IntegerType::new(context, 32).into();
    let i64_type = IntegerType::new(context, 64).into();
    let attributes: [(&str, Attribute); 5] = [
        ("sym_name", StringAttribute::new(context, symbol).into()),
        ("global_type", TypeAttribute::new(array).into()),
        ("linkage", spelled::linkage_external(context)?),
        ("addr_space", IntegerAttribute::new(i32_type, 3).into()),
        ("alignment", IntegerAttribute::new(i64_type, ALIGN).into()),
    ];
    let global = build::detached(
        context,
        module.location(),
        llvm::GLOBAL,
        &[],
        &[],
        &attributes,
        vec![Region::new()],
    )?;
    match body.first_operation() {
        Some(first) => body.insert_operation_before(first, global),
        None => body.append_operation(global),
    };
    Ok(())
}
