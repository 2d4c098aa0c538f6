//! The block schedule played out as numbers, before any IR is built: every
//! trip's wait finds its tile landed, and no copy writes a slot whose last
//! tile is still being read (docs/pipelining.md, "Why it is right"). The
//! producer warp's rings have their own play (`rings.rs`); this one follows
//! the block rewrite's sequence (`rewrite.rs`'s module comment): a prologue
//! of D tiles (empty commit groups past the trip count on cp.async), then per
//! trip a refill of tile k + D (or empty groups), the wait for tile k and its
//! consumers, the refill moving after them when asynchronous consumers leave
//! N wgmma groups in flight.

use std::fmt;

use acopy_target::CopyPath;

use super::block_schedule::{BlockSchedule, Refill};

/// A trip whose wait or refill would be wrong, and the trip count that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hazard {
    pub trips: u64,
    pub what: String,
}

impl fmt::Display for Hazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the block schedule fails at trip count {}: {}",
            self.trips, self.what
        )
    }
}

impl BlockSchedule {
    /// Plays every trip count up to [`Self::top_trip_count`].
    pub fn check(&self) -> Result<(), Hazard> {
        (0..=self.top_trip_count()).try_for_each(|trips| {
            Play::new(self, trips)
                .run()
                .map_err(|what| Hazard { trips, what })
        })
    }
}

impl BlockSchedule {
    /// The most trips a check plays: two rounds of slots past the prologue, so
    /// every slot is refilled at least twice (the schedule repeats after that).
    pub fn top_trip_count(&self) -> u64 {
        2 * u64::from(self.stages) + 2
    }
}

/// One entry of the loop with `trips` trips.
struct Play<'s> {
    schedule: &'s BlockSchedule,
    trips: u64,
    /// cp.async: the tile of each commit group in commit order (None: empty).
    groups: Vec<Option<u64>>,
    /// TMA: the phases each slot's barrier completed.
    phases: Vec<u64>,
    /// The last tile written into each slot.
    holds: Vec<Option<u64>>,
    /// Every tile below this one has been read for the last time.
    read_below: u64,
    /// How many tiles were copied: one per trip, none past the loop's end.
    issued: u64,
}

impl<'s> Play<'s> {
    fn new(schedule: &'s BlockSchedule, trips: u64) -> Self {
        let slots = schedule.stages as usize;
        Play {
            schedule,
            trips,
            groups: Vec::new(),
            phases: vec![0; slots],
            holds: vec![None; slots],
            read_below: 0,
            issued: 0,
        }
    }

    fn run(mut self) -> Result<(), String> {
        let s = self.schedule;
        let d = u64::from(s.ahead);
        if !s.counters {
            // cp.async, S = 1: barrier, copies, wait 0, consumers, in each trip.
            for k in 0..self.trips {
                self.read_below = k;
                self.issue(k)?;
                self.wait(k)?;
            }
            return self.all_issued();
        }
        for j in 0..d {
            self.refill(j, j < self.trips)?;
        }
        let in_flight = u64::from(s.in_flight);
        for k in 0..self.trips {
            let tile = if s.refills_always() { k } else { k + d };
            let due = s.refills_always() || k + d < self.trips;
            match s.refill {
                Refill::BeforeWait => {
                    // The barrier before the refill: every thread read tile k - 1.
                    self.read_below = k;
                    self.refill(tile, due)?;
                    self.wait(k)?;
                }
                Refill::AfterConsumers => {
                    self.wait(k)?;
                    // wgmma.wait_group N, then a barrier: tiles up to k - N are read.
                    self.read_below = (k + 1).saturating_sub(in_flight);
                    self.refill(tile, due)?;
                }
            }
        }
        self.all_issued()
    }

    /// Each trip's tile copied once, and no tile past the last trip (its copy
    /// would read past what the loop covers).
    fn all_issued(&self) -> Result<(), String> {
        if self.issued == self.trips {
            return Ok(());
        }
        Err(format!(
            "{} tiles are copied for {} trips",
            self.issued, self.trips
        ))
    }

    /// Tile `tile`'s copies when `due`, else (cp.async) as many empty groups.
    fn refill(&mut self, tile: u64, due: bool) -> Result<(), String> {
        if due {
            return self.issue(tile);
        }
        if self.schedule.path == CopyPath::CpAsync {
            let copies = self.schedule.copies as usize;
            self.groups.extend(std::iter::repeat(None).take(copies));
        }
        Ok(())
    }

    fn issue(&mut self, tile: u64) -> Result<(), String> {
        let s = self.schedule;
        let slot = (tile % u64::from(s.stages)) as usize;
        if let Some(last) = self.holds[slot].filter(|last| *last >= self.read_below) {
            return Err(format!(
                "tile {tile} is copied into slot {slot} while tile {last} may still be read there"
            ));
        }
        self.holds[slot] = Some(tile);
        self.issued += 1;
        match s.barriers {
            // Each copy is one arrival of the C the barrier expects per phase.
            Some(ring) if ring.arrivals == s.copies => self.phases[slot] += 1,
            Some(ring) => {
                return Err(format!(
                    "tile {tile}'s {} copies arrive on a barrier that expects {} per phase",
                    s.copies, ring.arrivals
                ))
            }
            None => {
                let copies = s.copies as usize;
                self.groups
                    .extend(std::iter::repeat(Some(tile)).take(copies));
            }
        }
        Ok(())
    }

    fn wait(&self, tile: u64) -> Result<(), String> {
        let s = self.schedule;
        let slot = (tile % u64::from(s.stages)) as usize;
        if self.holds[slot] != Some(tile) {
            return Err(format!(
                "trip {tile} waits for tile {tile}, which slot {slot} does not hold"
            ));
        }
        if s.barriers.is_some() {
            // Tile n of a slot completes its barrier's phase n / S.
            let phase = tile / u64::from(s.stages);
            if self.phases[slot] != phase + 1 {
                return Err(format!(
                    "trip {tile} waits for phase {phase} of slot {slot}'s barrier, which completed {}",
                    self.phases[slot]
                ));
            }
            return Ok(());
        }
        // wait_group P returns with the newest P groups pending: tile k has
        // landed when at least P groups were committed after its last one.
        let last = self.groups.iter().rposition(|group| *group == Some(tile));
        let after = last.map_or(0, |at| self.groups.len() - at - 1) as u32;
        let pending = s.pending.unwrap_or(0);
        if after < pending {
            return Err(format!(
                "trip {tile}'s wait leaves {pending} groups pending, but only {after} were committed after tile {tile}'s"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeliner::block_schedule::BarrierRing;

    #[test]
    fn every_schedule_the_pass_builds_plays() {
        for path in [CopyPath::CpAsync, CopyPath::Tma] {
            for stages in 1..=6 {
                for copies in 1..=3 {
                    let mut in_flight: Vec<Option<u32>> = vec![None];
                    in_flight.extend((0..stages).map(Some));
                    for n in in_flight {
                        let schedule = BlockSchedule::new(stages, path, copies, n, false);
                        assert_eq!(schedule.check(), Ok(()), "{schedule}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_check_plays_two_rounds_of_slots_past_the_prologue() {
        let schedule = BlockSchedule::new(3, CopyPath::Tma, 1, None, false);
        assert_eq!(schedule.top_trip_count(), 8);
        let hazard = Hazard {
            trips: 4,
            what: "why".into(),
        };
        assert_eq!(
            hazard.to_string(),
            "the block schedule fails at trip count 4: why"
        );
    }

    #[test]
    fn a_prologue_past_the_trip_count_copies_tiles_no_trip_reads() {
        // D = 2 with one trip: the prologue copies tile 0 and commits empty groups.
        let schedule = BlockSchedule::new(3, CopyPath::Tma, 1, None, false);
        let mut play = Play::new(&schedule, 1);
        play.refill(0, true).expect("tile 0");
        play.refill(1, true)
            .expect("a tile past the end still fits a slot");
        assert_eq!(
            play.all_issued(),
            Err("2 tiles are copied for 1 trips".to_string())
        );
    }

    #[test]
    fn a_tile_too_many_ahead_overwrites_the_slot_being_read() {
        let mut schedule = BlockSchedule::new(3, CopyPath::Tma, 2, None, false);
        schedule.ahead = 3;
        let hazard = schedule
            .check()
            .expect_err("S tiles ahead refill the slot in use");
        assert!(hazard.what.contains("may still be read"), "{hazard}");
    }

    #[test]
    fn a_wait_that_leaves_tile_k_pending_is_caught() {
        let mut schedule = BlockSchedule::new(3, CopyPath::CpAsync, 2, None, false);
        schedule.pending = Some(5);
        let hazard = schedule.check().expect_err("pending above C * D");
        assert!(hazard.what.contains("only 4 were committed"), "{hazard}");
        // One group fewer than the schedule's is only a longer wait.
        schedule.pending = Some(3);
        assert_eq!(schedule.check(), Ok(()));
    }

    #[test]
    fn a_barrier_expecting_other_arrivals_never_completes() {
        let mut schedule = BlockSchedule::new(2, CopyPath::Tma, 2, None, false);
        schedule.barriers = Some(BarrierRing {
            count: 2,
            arrivals: 3,
        });
        let hazard = schedule.check().expect_err("3 arrivals expected, 2 come");
        assert_eq!(
            hazard.trips, 1,
            "the first trip count with a copy: {hazard}"
        );
    }

    #[test]
    fn asynchronous_consumers_refill_only_what_they_finished_reading() {
        // N = 1 with D = S would refill the slot the wgmma still reads.
        let mut schedule = BlockSchedule::new(3, CopyPath::Tma, 1, Some(1), false);
        assert_eq!(schedule.check(), Ok(()));
        schedule.ahead = 3;
        assert!(schedule.check().is_err());
    }
}
