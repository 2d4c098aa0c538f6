//! The remark at each loop the pass rewrote: what it chose, as data
//! ([`PipelinedLoop`], reaching `acopy::compile` as `Diagnostic::detail`),
//! read from the schedule the rewrite built its IR from.

use super::rewrite::{Chosen, Schedule};
use crate::diagnostics::{MulticastSlots, PipelinedLoop, TileSlots, WaitScheme};
use crate::plan::loops::LoopPlan;

/// What the rewrite of `plan` did: its slots (the plan's, which the rewrite
/// laid out) and how it waits (the schedule it built, `chosen`).
pub fn report(plan: &LoopPlan, chosen: &Chosen) -> PipelinedLoop {
    let copies = plan.copies.len() as u32;
    // The native form's own barrier is the one the rings replace.
    let replaces_user_barrier = plan.native.is_some();
    let sync = match &chosen.schedule {
        Schedule::Block(schedule) => match schedule.barriers {
            Some(ring) => WaitScheme::Barriers {
                barriers: ring.count,
                arrivals: ring.arrivals,
                replaces_user_barrier,
            },
            None => WaitScheme::WaitGroups {
                counts: schedule.pending.into_iter().collect(),
            },
        },
        Schedule::ProducerWarp(schedule) => WaitScheme::Barriers {
            barriers: schedule.stages,
            arrivals: schedule.full_arrivals,
            replaces_user_barrier,
        },
    };
    PipelinedLoop {
        chip: plan.chip,
        path: plan.path,
        stages: plan.stages,
        requested: plan.requested,
        auto: plan.auto.clone(),
        trips: plan.static_trips,
        copies,
        wgmma_in_flight: plan.async_consumers.map(|consumers| consumers.in_flight),
        released_at_wait: plan
            .early_release
            .filter(|_| chosen.producer.is_some())
            .and_then(|wait| crate::plan::loops::async_consumers::group(&wait)),
        producer_block: chosen.producer.map(|warp| warp.block()),
        // The remark's detail names a warpgroup only (a warp is its default).
        producer_threads: chosen
            .producer
            .map(|warp| warp.producers)
            .filter(|&threads| threads != crate::plan::loops::warp::PRODUCER_THREADS),
        registers: chosen
            .producer
            .and_then(|warp| warp.registers)
            .map(|split| [split.launch, split.producer, split.consumers]),
        warp_release: chosen.producer.is_some_and(|warp| warp.warp_release),
        multicast: plan.multicast.as_ref().map(|slots| MulticastSlots {
            cluster: slots.cluster,
            senders: slots
                .landings
                .iter()
                .map(|landing| landing.senders)
                .collect(),
        }),
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
