//! The remark at each loop the pass rewrote: what it chose, as data
//! ([`PipelinedLoop`], reaching `acopy::compile` as `Diagnostic::detail`).

use acopy_target::CopyPath;

use crate::diagnostics::{PipelinedLoop, TileSlots, WaitScheme};
use crate::plan::loops::LoopPlan;

/// What the rewrite of `plan` does: its slots and how it waits.
pub fn report(plan: &LoopPlan) -> PipelinedLoop {
    let copies = plan.copies.len() as u32;
    let sync = match plan.path {
        // The counts the wait takes, C × min(S-2, T-1-k), from the first
        // iteration's down to the last one's 0 (S = 1 waits for 0 once). A
        // constant T is at least S after the clamp, so every count occurs.
        CopyPath::CpAsync => WaitScheme::WaitGroups {
            counts: (0..plan.stages.saturating_sub(1).max(1))
                .rev()
                .map(|groups| groups * copies)
                .collect(),
        },
        CopyPath::Tma => WaitScheme::Barriers {
            barriers: plan.stages,
            arrivals: copies,
            replaces_user_barrier: plan.native.is_some(),
        },
    };
    PipelinedLoop {
        chip: plan.chip,
        path: plan.path,
        stages: plan.stages,
        requested: plan.requested,
        trips: plan.static_trips,
        copies,
        tiles: plan
            .tiles
            .iter()
            .map(|tile| TileSlots {
                tile: tile.tile_type.to_string(),
                tile_bytes: tile.bytes,
                slot_bytes: tile.slot,
                align: tile.align,
            })
            .collect(),
        sync,
    }
}
