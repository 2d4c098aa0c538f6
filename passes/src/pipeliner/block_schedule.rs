//! The block schedule as data: for a loop whose whole block copies and
//! consumes (no producer warp), which tile each trip issues into which slot,
//! what the waits count and the barriers expect (docs/pipelining.md, "The
//! steady state"). `rewrite` builds its IR from a [`BlockSchedule`] and the
//! remark reports the one it built (`super::report`); with `ACOPY_LOG` at
//! debug for this module, `acopy-opt` prints it (tests/pipeline/schedule-block.mlir).
//!
//! With S slots, T trips, C copies per trip and D tiles ahead: the prologue
//! issues tiles 0..D into slots (base + j) mod S; trip k refills tile k + D
//! into the slot D after its own (mod S) when k < T - D (always when D = 0),
//! and the slot advances by one (mod S) per trip.

use std::fmt;

use acopy_target::CopyPath;

use crate::plan::loops::LoopPlan;

/// What the block rewrite builds, as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSchedule {
    /// S: slots per tile.
    pub stages: u32,
    pub path: CopyPath,
    /// C: copies per trip.
    pub copies: u32,
    /// D: tiles issued ahead of the one awaited: S - 1, or S - N with N
    /// wgmma groups left in flight.
    pub ahead: u32,
    /// Where trip k refills: before its wait, or after its (asynchronous)
    /// consumers.
    pub refill: Refill,
    /// N: the wgmma groups the consumers leave in flight (their body's
    /// `wgmma.wait_group N`); 0 without asynchronous consumers.
    pub in_flight: u32,
    /// Whether the trip, the slot (and on TMA the phase parity) are carried
    /// counters: not for S = 1 on cp.async without asynchronous consumers,
    /// which copies, waits and consumes in each trip.
    pub counters: bool,
    /// cp.async: the wait's `pending`, C per tile issued after tile k and
    /// before its wait (the skipped refills commit empty groups, so one
    /// count serves every trip). `None` on TMA, which waits on barriers.
    pub pending: Option<u32>,
    /// TMA: the ring of S mbarriers, each expecting C arrivals per phase.
    pub barriers: Option<BarrierRing>,
    /// Whether the barrier before a TMA refill spans the cluster (peers
    /// multicast into the slots).
    pub cluster_release: bool,
}

/// Where a trip refills its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refill {
    /// Behind a barrier before the wait: all S tiles in flight at the wait.
    BeforeWait,
    /// After the consumers, once the body's `wgmma.wait_group N` returned.
    AfterConsumers,
}

/// The TMA path's barriers: `count` mbarriers of `arrivals` arrivals each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarrierRing {
    pub count: u32,
    pub arrivals: u32,
}

impl BlockSchedule {
    /// The schedule of `plan`, a loop without a producer warp.
    pub fn of(plan: &LoopPlan) -> Self {
        Self::new(
            plan.stages,
            plan.path,
            plan.copies.len() as u32,
            plan.async_consumers.map(|consumers| consumers.in_flight),
            plan.multicast.is_some(),
        )
    }

    /// The schedule of a loop with `stages` slots on `path`, `copies` copies
    /// per trip, `in_flight` wgmma groups left in flight by asynchronous
    /// consumers (if any), and whether peers multicast into its slots.
    pub fn new(
        stages: u32,
        path: CopyPath,
        copies: u32,
        in_flight: Option<u32>,
        multicast: bool,
    ) -> Self {
        // The analysis leaves at least one slot to refill (S > N, P16).
        let ahead = stages.saturating_sub(in_flight.unwrap_or(1));
        let refill = match in_flight {
            Some(_) => Refill::AfterConsumers,
            None => Refill::BeforeWait,
        };
        let counters = !(path == CopyPath::CpAsync && stages == 1 && in_flight.is_none());
        let pending = match (path, counters, refill) {
            (CopyPath::Tma, _, _) => None,
            (CopyPath::CpAsync, false, _) => Some(0),
            (CopyPath::CpAsync, true, Refill::BeforeWait) => Some(ahead * copies),
            (CopyPath::CpAsync, true, Refill::AfterConsumers) => Some((ahead - 1) * copies),
        };
        let barriers = (path == CopyPath::Tma).then_some(BarrierRing {
            count: stages,
            arrivals: copies,
        });
        BlockSchedule {
            stages,
            path,
            copies,
            ahead,
            refill,
            in_flight: in_flight.unwrap_or(0),
            counters,
            pending,
            barriers,
            cluster_release: multicast,
        }
    }

    /// How many slots after trip k's the refill of tile k + D goes.
    pub fn refill_slot_offset(&self) -> u64 {
        u64::from(self.ahead % self.stages)
    }

    /// Whether every trip refills (no tile ahead: the refill is the trip's
    /// own tile), so no guard `k < T - D` is built.
    pub fn refills_always(&self) -> bool {
        self.ahead == 0
    }
}

impl fmt::Display for BlockSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, c, d) = (self.stages, self.copies, self.ahead);
        write!(
            f,
            "block schedule: {}, S = {s}, C = {c}, D = {d}",
            self.path
        )?;
        if !self.counters {
            return write!(f, "; each trip: barrier, copies, wait pending = 0");
        }
        write!(f, "; prologue: tiles 0..{d} into slots (base + j) mod {s}")?;
        let when = if self.refills_always() {
            "always".to_string()
        } else {
            format!("when k < T - {d}")
        };
        let place = match self.refill {
            Refill::BeforeWait => "before the wait",
            Refill::AfterConsumers => "after the consumers",
        };
        let offset = self.refill_slot_offset();
        write!(
            f,
            "; trip k: refill tile k + {d} into slot (slot_k + {offset}) mod {s} {place}, {when}"
        )?;
        if let Some(pending) = self.pending {
            write!(f, "; wait pending = {pending}")?;
        }
        if let Some(ring) = self.barriers {
            let release = if self.cluster_release {
                "cluster"
            } else {
                "block"
            };
            write!(
                f,
                "; {} barriers of {} arrivals, wait on barrier[slot_k] with parity ((base + k) / {s}) & 1; refill behind a {release} barrier",
                ring.count, ring.arrivals
            )?;
        }
        write!(f, "; slot_k+1 = (slot_k + 1) mod {s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_async_waits_for_the_groups_of_the_tiles_ahead() {
        let schedule = BlockSchedule::new(3, CopyPath::CpAsync, 2, None, false);
        assert_eq!(schedule.ahead, 2);
        assert_eq!(schedule.refill, Refill::BeforeWait);
        assert!(schedule.counters);
        assert_eq!(schedule.pending, Some(4), "C * D groups behind tile k");
        assert_eq!(schedule.refill_slot_offset(), 2);
        assert!(!schedule.refills_always());
        assert_eq!(schedule.barriers, None);
    }

    #[test]
    fn one_cp_async_stage_copies_waits_and_consumes_in_each_trip() {
        let schedule = BlockSchedule::new(1, CopyPath::CpAsync, 3, None, false);
        assert!(!schedule.counters);
        assert_eq!(schedule.ahead, 0);
        assert_eq!(schedule.pending, Some(0));
        assert!(schedule.refills_always());
    }

    #[test]
    fn asynchronous_consumers_refill_after_them() {
        let cp_async = BlockSchedule::new(4, CopyPath::CpAsync, 1, Some(1), false);
        assert_eq!(cp_async.ahead, 3);
        assert_eq!(cp_async.refill, Refill::AfterConsumers);
        // Tile k + D is issued after the wait, so D - 1 tiles' groups are behind tile k.
        assert_eq!(cp_async.pending, Some(2));
        // N = 0: D = S tiles ahead, and the refill goes into the trip's own slot.
        let tma = BlockSchedule::new(2, CopyPath::Tma, 2, Some(0), false);
        assert_eq!(tma.ahead, 2);
        assert_eq!(tma.refill_slot_offset(), 0);
        // S = 1 with a wgmma consumer keeps its counters.
        assert!(BlockSchedule::new(1, CopyPath::CpAsync, 1, Some(0), false).counters);
    }

    #[test]
    fn tma_waits_on_a_ring_of_one_barrier_per_slot() {
        let schedule = BlockSchedule::new(4, CopyPath::Tma, 2, None, true);
        assert_eq!(schedule.pending, None);
        assert_eq!(
            schedule.barriers,
            Some(BarrierRing {
                count: 4,
                arrivals: 2
            })
        );
        assert!(schedule.cluster_release);
    }
}
