//! How a producer warpgroup hands registers to the consumers
//! (`producer = "warpgroup"`; docs/pipelining.md, "A producer warpgroup").
//!
//! ptxas compiles a kernel of T threads, N blocks per SM, for at most
//! K = 65536 / (N T) registers a thread (a multiple of 8, at most 255), and the
//! block launches holding K for every thread. The producer warpgroup only
//! issues copies, so it gives registers back with `setmaxnreg.dec` to P, and
//! the consumers take that pool with `setmaxnreg.inc` to R, the most the
//! returned registers cover: B (R - K) <= 128 (K - P). `setmaxnreg.inc`
//! waits until the pool holds what it asks for, so R must never exceed that
//! bound. A kernel that launched with fewer than K registers a thread would
//! not have them to give: the rewrite declares `nvvm.minctasm` so that ptxas
//! launches at K, and without it ptxas ignores setmaxnreg (its C7508;
//! `tests/pipeline/warpgroup-producer.mlir` runs the PTX through ptxas).

/// Threads in the producer warpgroup the pass adds for `producer =
/// "warpgroup"` (here, below `loop_plan.rs`, which reads this file's split).
pub const PRODUCER_WARPGROUP_THREADS: u32 = 128;
/// Registers in an SM's register file, which one block's threads share.
const REGISTER_FILE: u32 = 65536;
/// The most registers ptxas gives one thread.
const MAX_PER_THREAD: u32 = 255;
/// `setmaxnreg` counts are multiples of 8 in [24, 256] (PTX ISA).
const GRANULE: u32 = 8;
/// What the producer warpgroup keeps by default: its loop only computes
/// coordinates and waits on barriers (CUTLASS's warp-specialized GEMMs keep
/// the same; FlashAttention-3 keeps 24, which a loop asks for with
/// `producer_registers = 24`).
pub const PRODUCER_REGISTERS: u32 = 40;

/// The registers a thread holds at launch and after each warpgroup's
/// `setmaxnreg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisterSplit {
    /// K: what every thread launches with (ptxas's bound for the block).
    pub launch: u32,
    /// P: what a producer thread keeps (`setmaxnreg.dec`).
    pub producer: u32,
    /// R: what a consumer thread takes (`setmaxnreg.inc`).
    pub consumers: u32,
}

/// The split for `consumers` consumer threads (a multiple of 128) and the
/// producer warpgroup keeping `producer` registers a thread, `blocks_per_sm`
/// blocks sharing an SM; `None` when the consumers would gain nothing (they
/// already launch with the most a thread can hold, or the producer has
/// nothing to give).
pub fn split(consumers: u32, blocks_per_sm: u32, producer: u32) -> Option<RegisterSplit> {
    let threads = (consumers + PRODUCER_WARPGROUP_THREADS) * blocks_per_sm.max(1);
    let launch = (REGISTER_FILE / threads / GRANULE * GRANULE).min(MAX_PER_THREAD);
    if launch % GRANULE != 0 || launch <= producer {
        return None;
    }
    let returned = PRODUCER_WARPGROUP_THREADS * (launch - producer);
    let gained = returned / consumers / GRANULE * GRANULE;
    if gained == 0 {
        return None;
    }
    Some(RegisterSplit {
        launch,
        producer,
        consumers: launch + gained,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_consumer_warpgroups_get_what_the_producer_returns() {
        // 384 threads: 65536 / 384 = 170, so 168 a thread at launch; the
        // producer returns 128 x 128 registers, 64 more for each of 256.
        assert_eq!(
            split(256, 1, PRODUCER_REGISTERS),
            Some(RegisterSplit {
                launch: 168,
                producer: 40,
                consumers: 232
            })
        );
        // FlashAttention-3's split: a producer keeping 24 leaves 240 for each.
        assert_eq!(
            split(256, 1, 24),
            Some(RegisterSplit {
                launch: 168,
                producer: 24,
                consumers: 240
            })
        );
        // A producer asking to keep what it launches with has nothing to give.
        assert_eq!(split(256, 1, 168), None);
        let three = split(384, 1, PRODUCER_REGISTERS).expect("a split");
        assert_eq!((three.launch, three.consumers), (128, 152));
        // Two blocks on an SM halve the file for each.
        let halved = split(256, 2, PRODUCER_REGISTERS).expect("a split");
        assert_eq!((halved.launch, halved.consumers), (80, 96));
    }

    #[test]
    fn the_pool_always_covers_the_consumers() {
        for (consumers, keep) in (128..=896).step_by(128).flat_map(|c| [(c, 24), (c, 40)]) {
            for blocks in 1..=4 {
                if let Some(s) = split(consumers, blocks, keep) {
                    let threads = (consumers + 128) * blocks;
                    assert!(s.launch * threads <= REGISTER_FILE, "{s:?}");
                    assert!(
                        consumers * (s.consumers - s.launch)
                            <= PRODUCER_WARPGROUP_THREADS * (s.launch - s.producer),
                        "{consumers} x {blocks}: {s:?}"
                    );
                    for count in [s.producer, s.consumers] {
                        assert!((24..=256).contains(&count) && count % 8 == 0, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn no_split_where_nothing_is_gained() {
        // One consumer warpgroup launches with 255 (not a setmaxnreg count, and
        // the most a thread may hold anyway).
        assert_eq!(split(128, 1, PRODUCER_REGISTERS), None);
        // 1024 threads at 64 a thread: the producer's 24 returned registers a
        // thread spread over 896 consumers are less than 8 each.
        assert_eq!(split(896, 1, PRODUCER_REGISTERS), None);
        // Eight blocks of 256: 32 a thread, below what the producer keeps.
        assert_eq!(split(128, 8, PRODUCER_REGISTERS), None);
    }
}
