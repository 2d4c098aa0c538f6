//! The generator's random source: `fastrand`'s seeded generator (wyrand),
//! one per case, so case `n` of seed `s` is the same input on every machine
//! and thread and a finding is reproduced from two numbers. This module only
//! adds the three draws the generator uses.

pub struct Rng {
    draws: fastrand::Rng,
    /// A clean case draws no faults (see [`Rng::fault`]).
    pub clean: bool,
}

impl Rng {
    /// The generator of one case, independent of every other case: the
    /// campaign's generator draws the case's seed after skipping to it by a
    /// multiplicative hash of the case number (wyrand's state only advances
    /// by a constant, so seeds `s` and `s + 1` alone would give streams that
    /// differ only in an offset of the same sequence).
    pub fn for_case(seed: u64, case: u64) -> Rng {
        let mixed = seed
            ^ case
                .wrapping_add(1)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        let mut campaign = fastrand::Rng::with_seed(mixed);
        Rng {
            draws: fastrand::Rng::with_seed(campaign.u64(..)),
            clean: false,
        }
    }

    /// A number in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.draws.usize(..n.max(1))
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.draws.u64(..100) < percent
    }

    /// Whether to put a fault here (an invalid value, a missing or extra
    /// operand, ...): with probability `percent` / 100, never in a clean case.
    /// Faults are independent, so with a dozen places for one a faulty case
    /// rarely verifies; clean cases are what reaches the lowering and emission.
    pub fn fault(&mut self, percent: u64) -> bool {
        !self.clean && self.chance(percent)
    }

    /// One of `items` (not empty: every list here is a constant).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn cases_are_reproducible_and_distinct() {
        let draw = |seed, case| {
            let mut rng = Rng::for_case(seed, case);
            (0..8).map(|_| rng.below(1 << 30)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7, 3), draw(7, 3));
        assert_ne!(draw(7, 3), draw(7, 4));
        assert_ne!(draw(7, 3), draw(8, 3));
        // Neighbouring cases are not shifted copies of one stream.
        let (a, b) = (draw(7, 3), draw(7, 4));
        assert!(a[1..].iter().all(|x| !b.contains(x)));
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::for_case(1, 1);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_eq!(rng.below(0), 0);
        assert!((0..1000).all(|_| !rng.chance(0)));
        assert!((0..1000).all(|_| rng.chance(100)));
        let hits = (0..10_000).filter(|_| rng.chance(30)).count();
        assert!((2500..3500).contains(&hits), "{hits} hits of 10000 at 30%");
        assert!((0..1000).any(|_| rng.fault(50)));
        rng.clean = true;
        assert!((0..1000).all(|_| !rng.fault(100)));
    }
}
