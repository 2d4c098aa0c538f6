//! What both roles of a warp-specialized loop share (docs/pipelining.md, "Warp
//! specialization"): the two rings of S mbarriers, `full` and `empty`, in one
//! `memref.global`, initialised at the kernel's entry from the checked schedule
//! (`rings.rs`); a ring's cell and its pointer; the slot and phase a role carries to
//! its next tile; and where the roles split.

use acopy_dialect::builders;
use melior::{
    ir::{r#type::MemRefType, OperationRef, Type, Value},
    Context,
};

use super::rings::RingSchedule;
use super::{loop_body as common, shared_globals, slot_layout};
use crate::ir::{
    build::{Builder as B, Cmp, Ix},
    op_names::{arith, memref},
};
use crate::plan::loops::{warp::WarpPlan, LoopPlan};

type R<T> = Result<T, String>;
/// The two rings, in one `memref.global` of `2 S` mbarriers.
pub(super) struct Rings<'c> {
    pub(super) symbol: String,
    pub(super) r#type: Type<'c>,
}

/// What both roles' regions are built from: the block, the rings, this
/// thread, and where the roles split (before the marked loop, or before the
/// persistent `outer` loop around it).
#[derive(Clone, Copy)]
pub(super) struct Roles<'c, 'a> {
    pub(super) warp: WarpPlan,
    pub(super) storage: Value<'c, 'a>,
    pub(super) thread: Value<'c, 'a>,
    pub(super) anchor: OperationRef<'c, 'a>,
    pub(super) outer: Option<OperationRef<'c, 'a>>,
}

/// The rings' global and, at the kernel's entry, their inits.
pub(super) fn make_rings<'c>(
    context: &'c Context,
    plan: &LoopPlan<'c, '_>,
    schedule: &RingSchedule,
    serial: usize,
) -> R<Rings<'c>> {
    let stages = i64::from(plan.stages);
    let r#type: Type = MemRefType::new(
        melior::ir::r#type::IntegerType::new(context, 8).into(),
        &[stages * 16],
        None,
        Some(shared_globals::shared_space(context)),
    )
    .into();
    let symbol = format!("__acopy_pipeline_{serial}");
    shared_globals::add_global(context, plan, &symbol, r#type)?;
    let b = slot_layout::at_kernel_entry(context, plan)?;
    let storage = b.get_global(&symbol, r#type)?;
    for slot in 0..stages {
        for (ring, arrivals) in [(0, schedule.full_arrivals), (1, schedule.empty_arrivals)] {
            let cell = ring_cell(&b, storage, Ix::Const(slot), ring * stages)?;
            let init = builders::barrier_init(context, b.location, cell, arrivals);
            b.insert(init.map_err(common::internal)?);
        }
    }
    Ok(Rings { symbol, r#type })
}

/// The mbarrier `slot` of the ring that starts `first` cells into `storage`.
pub(super) fn ring_cell<'c, 'a>(
    b: &B<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
    first: i64,
) -> R<Value<'c, 'a>> {
    let cell = b.add(slot, Ix::Const(first))?;
    shared_globals::barrier_view(b, storage, cell)
}

/// The `!llvm.ptr<3>` of mbarrier `slot` of the ring `first` cells in.
pub(super) fn ring_pointer<'c, 'a>(
    b: &B<'c, 'a>,
    storage: Value<'c, 'a>,
    slot: Ix<'c, 'a>,
    first: i64,
) -> R<Value<'c, 'a>> {
    let base = b.value(
        memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
        &[storage],
        b.index_type(),
        &[],
    )?;
    let cell = b.add(slot, Ix::Const(first))?;
    let offset = b.mul(cell, Ix::Const(8))?;
    let address = b.add(Ix::Val(base), offset)?;
    b.int_to_ptr(b.ix(address)?, 3)
}

/// `slot + 1 (mod S)`, and the phase flipped when the slot wraps to 0.
pub(super) fn next_slot_and_phase<'c, 'a>(
    b: &B<'c, 'a>,
    slot: Value<'c, 'a>,
    phase: Value<'c, 'a>,
    stages: i64,
) -> R<[Value<'c, 'a>; 2]> {
    let next = b.ix(b.wrapping_add(Ix::Val(slot), 1, stages as u64)?)?;
    let wrapped = b.cmpi(Cmp::Eq, next, b.index(0)?)?;
    Ok([next, b.binary(arith::XORI, phase, wrapped)?])
}
