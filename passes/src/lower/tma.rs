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
//! | `tma.rs` | the entry points |
//! | `tma/issue.rs` | who issues and where: thread 0, predicates, window starts and TMA coordinates |
//! | `tma/load.rs` | `copy_gmem_to_smem` from its `TmaLoadPlan`: single, multicast, partitioned and replicated loads |
//! | `tma/store.rs` | `copy_smem_to_gmem` (plain and reduction) from its `TmaStorePlan`, and `wait_smem_to_gmem` |
//! | `tma/element_store.rs` | a store's non-TMA path: element-wise stores or atomics |
//! | `tma/start.rs` | the innermost start's run-time check and the branch between the paths |
//! | `tma/map_params.rs` | the trailing tensor-map parameters and the `acopy.tensor_maps` attribute |
//! | `tma/cluster.rs` | a CTA's position in its collective group, as built values |
//!
//! What a copy is (its kernel argument, mode, box, slices, tensor-map key,
//! start path) comes from `crate::plan`. Stores on pre-Hopper chips are
//! refused by `acopy-verify` (rule A5), and `lower/mod.rs` never sends one
//! here, so no TMA instruction ever reaches LLVM for a chip without it (llc
//! would abort with "Cannot select").

mod cluster;
mod element_store;
mod issue;
mod load;
mod map_params;
mod start;
mod store;

use acopy_dialect::{CopyGmemToSmem, CopySmemToGmem, WaitSmemToGmem};

use crate::ir::build::Builder;
use crate::{
    plan::{tma_load::TmaLoadPlan, tma_store::TmaStorePlan},
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
