//! The TMA path (sm_90 and newer): loads, stores and store waits.
//!
//! Each entry point gets the op's typed view, the resolved [`Target`] (chip,
//! cluster shape, known block size), the pass options, and a [`Builder`]
//! that inserts right before the op. It emits the replacement ops with the
//! builder and returns `Ok(())`; the pass then erases the acopy op. An
//! `Err(message)` is reported as an error at the op and fails the pass.
//! Barrier ops are lowered by `super::barrier` on both paths.
//!
//! docs/lowering-tma.md describes the lowering; the files below hold it:
//!
//! | file | what |
//! |---|---|
//! | `tma.rs` | the entry points; thread 0, predicates, window starts and coordinates |
//! | `tma/load.rs` | `copy_gmem_to_smem` from its `TmaLoadPlan`: single, multicast, partitioned and replicated loads |
//! | `tma/store.rs` | `copy_smem_to_gmem` (plain and reduction) from its `TmaStorePlan`, and `wait_smem_to_gmem` |
//! | `tma/element_store.rs` | a store's non-TMA path: element-wise stores or atomics |
//! | `tma/start.rs` | the innermost start's run-time check and the branch between the paths |
//! | `tma/maps.rs` | the trailing tensor-map parameters and the `acopy.tensor_maps` attribute |
//! | `tma/smem.rs` | shared tile addresses, after raising the tile's allocation |
//! | `tma/cluster.rs` | a CTA's position in its collective group, as built values |
//!
//! What a copy is (its kernel argument, mode, box, slices, tensor-map key,
//! start path) comes from `crate::plan`. Stores on pre-Hopper chips are
//! refused by `acopy-verify` (rule A5), and `lower/mod.rs` never sends one
//! here, so no TMA instruction ever reaches LLVM for a chip without it (llc
//! would abort with "Cannot select").

use super::emitted::arith;

mod cluster;
mod element_store;
mod load;
mod maps;
mod smem;
mod start;
mod store;

use acopy_dialect::{CopyGmemToSmem, CopySmemToGmem, WaitSmemToGmem};
use melior::ir::Value;

use super::build::{Builder, Cmp, Ix};
use crate::{
    ir,
    plan::{source::Offset, tma_load::TmaLoadPlan, tma_store::TmaStorePlan},
    target::Target,
};

/// Lowers `acopy.copy_gmem_to_smem` on sm_90 and newer, as `plan` says.
pub(super) fn lower_copy<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    plan: &TmaLoadPlan<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    load::lower(view, plan, target, b)
}

/// Lowers `acopy.copy_smem_to_gmem` on sm_90 and newer (verification rejects
/// stores on older chips: rule A5).
pub(super) fn lower_store<'c, 'a>(
    view: &CopySmemToGmem<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let plan = TmaStorePlan::of(view).map_err(|error| {
        format!("internal error: acopy-verify accepted a store that has no plan: {error}")
    })?;
    store::lower(view, &plan, target, b)
}

/// Lowers `acopy.wait_smem_to_gmem` on sm_90 and newer (rule A6 elsewhere).
pub(super) fn lower_store_wait<'c, 'a>(
    view: &WaitSmemToGmem<'c, 'a>,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    store::lower_wait(view, b)
}

/// Whether this thread is the block's first, the one that issues TMA
/// instructions (correct for any block size).
fn first_thread<'c, 'a>(b: &Builder<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let mut all: Option<Value<'c, 'a>> = None;
    let zero = b.index(0)?;
    for dim in super::build::DIMS {
        let id = b.thread_id(dim)?;
        let is_zero = b.cmpi(Cmp::Eq, id, zero)?;
        all = Some(match all {
            None => is_zero,
            Some(previous) => b.binary(arith::ANDI, previous, is_zero)?,
        });
    }
    all.ok_or_else(|| "internal error: no thread dimensions".to_string())
}

/// Runs `body` under `scf.if %predicate` when there is a predicate.
fn guarded<'c, 'a>(
    b: &Builder<'c, 'a>,
    predicate: Option<Value<'c, 'a>>,
    body: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
) -> Result<(), String> {
    match predicate {
        Some(predicate) => b.if_then(predicate, body),
        None => body(b),
    }
}

/// An `index` value as an [`Ix`], a constant when it is one.
fn index_ix<'c, 'a>(value: Value<'c, 'a>) -> Ix<'c, 'a> {
    match ir::constant_int(value) {
        Some(constant) => Ix::Const(constant),
        None => Ix::Val(value),
    }
}

/// The window's start in the kernel argument, outermost first: the copy's
/// `indices` plus the view's offsets.
fn window_start<'c, 'a>(
    b: &Builder<'c, 'a>,
    offsets: &[Offset<'c, 'a>],
    indices: &[Value<'c, 'a>],
) -> Result<Vec<Ix<'c, 'a>>, String> {
    let mut start = Vec::with_capacity(offsets.len());
    for (dim, offset) in offsets.iter().enumerate() {
        let index = indices
            .get(dim)
            .copied()
            .ok_or_else(|| "internal error: fewer indices than dimensions".to_string())?;
        let offset = match offset {
            Offset::Static(offset) => Ix::Const(*offset),
            Offset::Dynamic(value) => Ix::Val(*value),
        };
        start.push(b.add(index_ix(index), offset)?);
    }
    Ok(start)
}

/// TMA coordinates: `i32`, innermost first, from window starts outermost first.
fn window_coordinates<'c, 'a>(
    b: &Builder<'c, 'a>,
    starts: &[Ix<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, String> {
    starts
        .iter()
        .rev()
        .map(|start| {
            let start = b.ix(*start)?;
            b.index_cast(start, b.int_type(32))
        })
        .collect()
}
