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
        let stages = plan.stages;
        let copies = plan.copies.len() as u32;
        let in_flight = plan.async_consumers.map(|consumers| consumers.in_flight);
        // The analysis leaves at least one slot to refill (S > N, P16).
        let ahead = stages.saturating_sub(in_flight.unwrap_or(1));
        let refill = match in_flight {
            Some(_) => Refill::AfterConsumers,
            None => Refill::BeforeWait,
        };
        let counters = !(plan.path == CopyPath::CpAsync && stages == 1 && in_flight.is_none());
        let pending = match (plan.path, counters, refill) {
            (CopyPath::Tma, _, _) => None,
            (CopyPath::CpAsync, false, _) => Some(0),
            (CopyPath::CpAsync, true, Refill::BeforeWait) => Some(ahead * copies),
            (CopyPath::CpAsync, true, Refill::AfterConsumers) => Some((ahead - 1) * copies),
        };
        let barriers = (plan.path == CopyPath::Tma).then_some(BarrierRing {
            count: stages,
            arrivals: copies,
        });
        BlockSchedule {
            stages,
            path: plan.path,
            copies,
            ahead,
            refill,
            counters,
            pending,
            barriers,
            cluster_release: plan.multicast.is_some(),
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
