//! The analysis layer: what each acopy copy is, worked out once from the IR,
//! for `acopy-verify`, `acopy-lower` and the pipeliner alike. It reads IR and
//! builds nothing, and imports neither `verify` nor `lower`.
//!
//! **Needs**: a copy's typed view (`acopy_dialect`) and its resolved
//! [`Target`]. Nothing else: a plan can be asked for any copy, verified or
//! not.
//!
//! **Guarantees**: [`CopyPlan::of`] either returns the plan of a load (its
//! path, window, chunks or box, split and slice, alignment proofs, tensor-map
//! key and fallback decision), or a [`PlanError`] saying which fact has no
//! lowering. `acopy-verify` reports the documented error of each such copy
//! first, from the same facts ([`tma_facts`], [`shape`], [`chunk`]); so for IR
//! that verifies, every plan is `Ok`, and a lowering that meets a `PlanError`
//! has found a bug in the rules table. Nothing here changes the IR: raising an
//! allocation's alignment, which a plan's [`alignment::Root`] names, is the
//! lowering's.
//!
//! A pipelined slot's bytes and alignment (`plan::loops`) come from the same
//! facts: `crate::ir::memref_layout::memref_bytes` and `cp_async_load::tile_alignment` /
//! `shape::tma_smem_alignment`.
//!
//! **Layout**:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | [`CopyPlan`], the plan of a load on either path |
//! | `error.rs` | [`PlanError`]: which fact has no lowering |
//! | `cp_async_load.rs` | [`cp_async_load::CpAsyncPlan`]: window, rows, base-pointer proofs of a cp.async copy |
//! | `tma_load.rs` | [`tma_load::TmaLoadPlan`]: mode, box, split, slice, barrier bytes, tensor map, start path of a TMA load |
//! | `tma_store.rs` | [`tma_store::TmaStorePlan`]: window, reduction, destination and tensor map of a TMA store |
//! | `copy_facts.rs` | a copy's memrefs as plain data: shapes, strides, element width, constant indices |
//! | `tma_facts.rs` | what the TMA rules see: the kernel argument behind a global memref, the window start, the tile's alignment; which copies have a non-TMA path |
//! | `source.rs` | which kernel argument a global memref is (argument or subview of one), and whether a window may leave the subview |
//! | `alignment.rs` | the one walker up a buffer's view chain, and what alignment it guarantees |
//! | `divisor.rs` | the largest power of two proved to divide an `index` value |
//! | `shape.rs` | pure shape arithmetic: window, box, bounds, strides, reduction kinds, message spellings |
//! | `chunk.rs` | cp.async rows and chunk sizes (pure) |
//! | `collective.rs` | collective groups: sizes, multicast masks, CTA pairs |
//! | `wgmma_descriptor.rs` | the wgmma matrix descriptor of a tile, from the swizzle of the copies that write it |
//! | `swizzled_index.rs` | where a logical element of a tile is stored (`acopy.swizzled_index`), from the copies that write it |
//! | `pinned.rs` | an index's or descriptor's plan pinned on its op as an attribute, so it rides across the pipeliner |
//! | `wide_tile.rs` | wide tiles (fallback mode): column panels of a swizzled row of several spans, and the boxes of a window one TMA box cannot hold (rule A33) |
//! | `loops/` | the loop analysis: what a marked loop is (its plan) or which rule it breaks (P1–P18) |
//! | `tensor_map_key.rs` | the tensor-map key of a copy, the per-kernel limit, host launches (rule A26) |
//! | `launches.rs` | which kernels a `gpu.launch_func` launches, walked once per pass run |
//! | `tests.rs` | plans of copies parsed from text, and the view walker's answers |

pub(crate) mod alignment;
pub(crate) mod chunk;
pub(crate) mod collective;
pub(crate) mod copy_facts;
pub(crate) mod cp_async_load;
pub(crate) mod divisor;
mod error;
pub(crate) mod launches;
pub mod loops;
pub(crate) mod pinned;
pub mod shape;
pub(crate) mod source;
pub(crate) mod swizzled_index;
pub(crate) mod tensor_map_key;
pub(crate) mod tma_facts;
pub(crate) mod tma_load;
pub(crate) mod tma_store;
pub(crate) mod wgmma_descriptor;
pub(crate) mod wide_tile;

#[cfg(test)]
mod tests;

use acopy_dialect::CopyGmemToSmem;
use acopy_target::CopyPath;

use crate::{target::Target, PassOptions};
use cp_async_load::CpAsyncPlan;
pub use error::PlanError;
use tma_load::TmaLoadPlan;

/// The plan of a load (`copy_gmem_to_smem`) on its chip's path.
pub(crate) enum CopyPlan<'c, 'a> {
    /// Boxed, as the TMA plan is: the two differ in size.
    CpAsync(Box<CpAsyncPlan<'c, 'a>>),
    /// Boxed: it holds a cp.async plan for its non-TMA path.
    Tma(Box<TmaLoadPlan<'c, 'a>>),
}

impl<'c: 'a, 'a> CopyPlan<'c, 'a> {
    /// Plans `view` for `target` under `options` (fallback mode decides
    /// cp.async's zero fill).
    pub fn of(
        view: &CopyGmemToSmem<'c, 'a>,
        target: &Target,
        options: &PassOptions,
    ) -> Result<Self, PlanError> {
        match target.chip.copy_path() {
            CopyPath::CpAsync => CpAsyncPlan::of(view, options.fallback)
                .map(|plan| CopyPlan::CpAsync(Box::new(plan))),
            CopyPath::Tma => {
                TmaLoadPlan::of(view, target).map(|plan| CopyPlan::Tma(Box::new(plan)))
            }
        }
    }
}
