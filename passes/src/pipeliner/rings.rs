//! The producer warp's schedule as data: who waits on which mbarrier phase and
//! who arrives, for every tile, and the check that every wait gets its arrivals
//! (docs/pipelining.md, "Why it is right", deadlock freedom).
//!
//! `warp_specialized` builds its IR from a [`RingSchedule`]: the arrivals each
//! ring's barriers are initialised for, which tile the consumers release in
//! iteration k (`release_lag`) and how many tiles they release after an entry
//! of the loop (`releases_after_loop`). [`RingSchedule::check`] plays the two
//! roles against each other, as mbarriers count them, for every trip count up
//! to past the point where the rings wrap twice and for up to three entries of
//! a persistent loop, and names the first wait no arrival would complete.

use std::fmt;

/// What the warp-specialized rewrite builds, as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingSchedule {
    /// S: slots per tile, barriers per ring.
    pub stages: u32,
    /// Arrivals that complete a phase of `full[s]`: one per TMA copy, or the
    /// producer's 32 lanes on cp.async.
    pub full_arrivals: u32,
    /// Arrivals that complete a phase of `empty[s]`: the B consumers.
    pub empty_arrivals: u32,
    /// Arrivals the producer makes on `full` per tile.
    pub producer_arrivals: u32,
    /// Arrivals the consumers make on `empty` per released tile.
    pub consumer_arrivals: u32,
    /// N: wgmma groups the body leaves in flight; iteration k releases tile k - N.
    pub release_lag: u32,
    /// Tiles the consumers release after an entry of the loop: the last
    /// min(N, T) when the loop is entered again (a persistent loop), else none.
    pub releases_after_loop: u32,
    /// Whether a persistent loop enters the marked loop again.
    pub persistent: bool,
}

impl RingSchedule {
    /// The schedule of a loop with `stages` slots, `copies` copies per tile on
    /// `tma` (else cp.async), `consumers` consumer threads and `in_flight` wgmma
    /// groups left in flight.
    pub fn new(
        stages: u32,
        tma: bool,
        copies: u32,
        consumers: u32,
        in_flight: u32,
        persistent: bool,
    ) -> Self {
        let lanes = crate::plan::loops::warp::PRODUCER_THREADS;
        let full_arrivals = if tma { copies } else { lanes };
        RingSchedule {
            stages,
            full_arrivals,
            empty_arrivals: consumers,
            producer_arrivals: full_arrivals,
            consumer_arrivals: consumers,
            release_lag: in_flight,
            releases_after_loop: if persistent { in_flight } else { 0 },
            persistent,
        }
    }

    /// The schedule when each slot is refilled in `group` CTAs at once (a
    /// multicast group): a producer may refill a slot only when the consumers of
    /// every CTA of the group have left it, so each `empty` barrier counts the
    /// releases of all of them, and each CTA's consumers arrive on the barrier of
    /// every CTA of the group. The check plays one CTA of a group whose CTAs run
    /// alike (the multicast contract), so a release counts `group` times.
    pub fn for_group(self, group: u32) -> Self {
        RingSchedule {
            empty_arrivals: self.empty_arrivals * group,
            consumer_arrivals: self.consumer_arrivals * group,
            ..self
        }
    }

    /// The slot the consumers release in iteration k, as an offset from k's
    /// slot (mod S): tile k - N's.
    pub fn release_offset(&self) -> u64 {
        u64::from((self.stages - self.release_lag % self.stages) % self.stages)
    }

    /// Every trip count and entry count the check plays: the rings wrap twice
    /// past the lag, and a persistent loop is entered up to three times with
    /// different trip counts.
    fn plays(&self) -> Vec<Vec<u64>> {
        let top = 2 * u64::from(self.stages + self.release_lag) + 2;
        let mut plays: Vec<Vec<u64>> = (0..=top).map(|trips| vec![trips]).collect();
        if self.persistent {
            for first in 0..=top {
                plays.push(vec![first, top - first, (first * 7) % (top + 1)]);
            }
        }
        plays
    }

    /// Every wait gets its arrivals on every play, or the first that does not.
    pub fn check(&self) -> Result<(), Deadlock> {
        if self.stages == 0 || self.release_lag >= self.stages {
            return Err(Deadlock {
                trips: Vec::new(),
                waiting: format!(
                    "{} stages with {} tiles released late leave no slot to refill",
                    self.stages, self.release_lag
                ),
            });
        }
        self.plays()
            .into_iter()
            .try_for_each(|trips| self.play(&trips))
    }

    /// The two roles' events for the entries `trips`, as the rewrite builds them.
    fn events(&self, trips: &[u64]) -> [Vec<Event>; 2] {
        let s = u64::from(self.stages);
        let (mut producer, mut consumers) = (Vec::new(), Vec::new());
        // Tiles are numbered across entries: both roles carry the slot and the
        // phase through the persistent loop.
        let mut first = 0u64;
        for &count in trips {
            for n in first..first + count {
                // The release of tile n - S, the phase before tile n's slot's.
                producer.push(Event::Wait {
                    ring: Ring::Empty,
                    slot: n % s,
                    phase: (n / s) as i64 - 1,
                });
                producer.push(Event::Arrive {
                    ring: Ring::Full,
                    slot: n % s,
                    count: self.producer_arrivals,
                });
                consumers.push(Event::Wait {
                    ring: Ring::Full,
                    slot: n % s,
                    phase: (n / s) as i64,
                });
                let k = n - first;
                if k >= u64::from(self.release_lag) {
                    let released = n - u64::from(self.release_lag);
                    let slot = (n % s + self.release_offset()) % s;
                    debug_assert_eq!(slot, released % s);
                    consumers.push(Event::Arrive {
                        ring: Ring::Empty,
                        slot,
                        count: self.consumer_arrivals,
                    });
                }
            }
            let late = u64::from(self.releases_after_loop).min(count);
            for back in 1..=late {
                let released = first + count - back;
                consumers.push(Event::Arrive {
                    ring: Ring::Empty,
                    slot: released % s,
                    count: self.consumer_arrivals,
                });
            }
            first += count;
        }
        [producer, consumers]
    }

    /// Runs the two roles until both end, or names the waits that never pass.
    fn play(&self, trips: &[u64]) -> Result<(), Deadlock> {
        let roles = self.events(trips);
        let mut at = [0usize; 2];
        let slots = self.stages as usize;
        let mut rings = [
            vec![Barrier::default(); slots],
            vec![Barrier::default(); slots],
        ];
        let needed = |ring: Ring| match ring {
            Ring::Full => self.full_arrivals,
            Ring::Empty => self.empty_arrivals,
        };
        loop {
            let mut moved = false;
            for role in 0..2 {
                while let Some(event) = roles[role].get(at[role]) {
                    match *event {
                        Event::Arrive { ring, slot, count } => {
                            rings[ring as usize][slot as usize].arrive(count, needed(ring));
                        }
                        Event::Wait { ring, slot, phase } => {
                            let barrier = rings[ring as usize][slot as usize];
                            // A waiter two phases behind would read the wrong parity.
                            if barrier.completed >= phase + 2 {
                                return Err(self.stuck(trips, event, "overtaken by two phases"));
                            }
                            if barrier.completed < phase + 1 {
                                break;
                            }
                        }
                    }
                    at[role] += 1;
                    moved = true;
                }
            }
            if at[0] == roles[0].len() && at[1] == roles[1].len() {
                return Ok(());
            }
            if !moved {
                let role = usize::from(at[0] == roles[0].len());
                return Err(self.stuck(trips, &roles[role][at[role]], "never completes"));
            }
        }
    }

    fn stuck(&self, trips: &[u64], event: &Event, how: &str) -> Deadlock {
        Deadlock {
            trips: trips.to_vec(),
            waiting: format!("{event} {how}"),
        }
    }
}

/// The schedule in one line, what `acopy-opt` prints with `ACOPY_LOG` at
/// debug for the pipeliner (tests/pipeline/schedule-producer-warp.mlir).
impl fmt::Display for RingSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.stages;
        write!(
            f,
            "producer-warp schedule: S = {s}; full[s]: {} arrivals per phase, the producer's {} per tile; empty[s]: {} arrivals per phase, the consumers' {} per released tile",
            self.full_arrivals, self.producer_arrivals, self.empty_arrivals, self.consumer_arrivals
        )?;
        write!(
            f,
            "; tile n: producer waits on empty[n mod {s}] phase n / {s} - 1, then fills full[n mod {s}]; consumers wait on full[n mod {s}] phase n / {s}"
        )?;
        write!(
            f,
            "; trip k releases tile k - {} (slot (slot_k + {}) mod {s}); {} released after the loop",
            self.release_lag,
            self.release_offset(),
            self.releases_after_loop
        )?;
        if self.persistent {
            write!(f, "; persistent")?;
        }
        Ok(())
    }
}

/// A wait of the schedule that no arrival completes, and the play that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlock {
    pub trips: Vec<u64>,
    pub waiting: String,
}

impl fmt::Display for Deadlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the producer-warp schedule deadlocks at trip counts {:?}: {}",
            self.trips, self.waiting
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ring {
    Full = 0,
    Empty = 1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    /// Wait until `phase` of the barrier has completed (-1: passes at once, the
    /// phase "before" the first).
    Wait {
        ring: Ring,
        slot: u64,
        phase: i64,
    },
    Arrive {
        ring: Ring,
        slot: u64,
        count: u32,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Wait { ring, slot, phase } => {
                write!(f, "the wait for phase {phase} of {}[{slot}]", ring.name())
            }
            Event::Arrive { ring, slot, count } => {
                write!(f, "{count} arrivals on {}[{slot}]", ring.name())
            }
        }
    }
}

impl Ring {
    fn name(self) -> &'static str {
        match self {
            Ring::Full => "full",
            Ring::Empty => "empty",
        }
    }
}

/// An mbarrier as the check counts it: phases completed, arrivals pending.
#[derive(Debug, Clone, Copy, Default)]
struct Barrier {
    completed: i64,
    pending: u32,
}

impl Barrier {
    fn arrive(&mut self, count: u32, needed: u32) {
        self.pending += count;
        while needed > 0 && self.pending >= needed {
            self.pending -= needed;
            self.completed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_the_rewrite_builds_is_free_of_deadlock() {
        for stages in 1..=8 {
            for in_flight in 0..stages {
                for persistent in [false, true] {
                    for tma in [false, true] {
                        let schedule =
                            RingSchedule::new(stages, tma, 2, 128, in_flight, persistent);
                        assert_eq!(schedule.check(), Ok(()), "{schedule:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_release_offset_is_a_slot_offset_back_by_the_lag() {
        // The rewrite adds it to the slot modulo S with one compare, so it must
        // be below S; and it names tile k - N's slot.
        for stages in 1..=8u32 {
            for in_flight in 0..stages {
                let offset =
                    RingSchedule::new(stages, true, 1, 128, in_flight, false).release_offset();
                assert!(
                    offset < u64::from(stages),
                    "S = {stages}, N = {in_flight}: {offset}"
                );
                assert_eq!((offset + u64::from(in_flight)) % u64::from(stages), 0);
            }
        }
    }

    #[test]
    fn a_multicast_group_counts_every_ctas_release() {
        // Two CTAs refill each slot: empty[s] waits for both CTAs' 128
        // consumers, and each CTA's consumers arrive on both barriers.
        let pair = RingSchedule::new(3, true, 2, 128, 1, true).for_group(2);
        assert_eq!((pair.empty_arrivals, pair.consumer_arrivals), (256, 256));
        assert_eq!(pair.check(), Ok(()));
        // Releasing only to its own CTA leaves each barrier one CTA short.
        let local_only = RingSchedule {
            consumer_arrivals: 128,
            ..pair
        };
        let deadlock = local_only
            .check()
            .expect_err("a peer's releases are missing");
        assert_eq!(
            deadlock.waiting,
            "the wait for phase 0 of empty[0] never completes"
        );
    }

    #[test]
    fn a_missing_arrival_is_found() {
        // The consumers arrive with one thread short: empty[s] never completes,
        // and the producer's wait for the release of tile 0 (tile S's) hangs.
        let mut short = RingSchedule::new(2, true, 1, 128, 0, false);
        short.consumer_arrivals = 127;
        let deadlock = short.check().expect_err("a missing arrival deadlocks");
        assert_eq!(deadlock.trips, vec![3]);
        assert_eq!(
            deadlock.waiting,
            "the wait for phase 0 of empty[0] never completes"
        );
    }

    #[test]
    fn a_persistent_loop_without_its_late_releases_deadlocks() {
        // With one wgmma group in flight the last tile of an entry is released
        // only after the loop; without that release the next entry's producer
        // waits for it forever.
        let mut late = RingSchedule::new(2, true, 2, 128, 1, true);
        assert_eq!(late.check(), Ok(()));
        late.releases_after_loop = 0;
        let deadlock = late.check().expect_err("a missing late release deadlocks");
        assert!(deadlock.waiting.contains("of empty["), "{deadlock}");
        assert!(deadlock.trips.len() == 3, "{deadlock}");
    }

    #[test]
    fn a_release_of_the_wrong_tile_is_found() {
        // Releasing the tile one iteration late without keeping a slot for it
        // (stages = N) leaves no slot to refill.
        let schedule = RingSchedule::new(2, true, 1, 128, 2, false);
        let refused = schedule.check().expect_err("stages = N leaves no slot");
        assert_eq!(
            refused.waiting,
            "2 stages with 2 tiles released late leave no slot to refill"
        );
        let none = RingSchedule::new(0, true, 1, 128, 0, false);
        assert!(none.check().is_err_and(|d| d.waiting.contains("0 stages")));
        let full_short = RingSchedule {
            producer_arrivals: 1,
            ..RingSchedule::new(3, false, 1, 64, 0, false)
        };
        let deadlock = full_short.check().expect_err("32 lanes must arrive");
        assert_eq!(
            deadlock.waiting,
            "the wait for phase 0 of full[0] never completes"
        );
    }
}
