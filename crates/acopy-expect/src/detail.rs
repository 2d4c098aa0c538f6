//! What a remark reports, as data: a frontend reads [`Detail`] from
//! [`crate::Diagnostic::detail`] instead of parsing the message, and the
//! message is this data's [`fmt::Display`], so the two never disagree.

use std::fmt;

use acopy_target::{Chip, CopyPath};

/// The data a diagnostic carries for a frontend; its variant is the
/// diagnostic's stable kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// `acopy-pipeline` rewrote a marked loop: the remark at the loop.
    Pipelined(PipelinedLoop),
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::Pipelined(pipelined) => pipelined.fmt(f),
        }
    }
}

/// What `acopy-pipeline` chose for one loop (docs/pipelining.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelinedLoop {
    pub chip: Chip,
    pub path: CopyPath,
    /// The slots per tile the loop got: `requested`, clamped to the trip
    /// count when that is a constant below it.
    pub stages: u32,
    /// The `stages` of the loop's `acopy.pipeline`, or the count
    /// `stages = "auto"` chose (then `auto` says why).
    pub requested: u32,
    /// How `stages = "auto"` chose `requested`; `None` for a given count.
    pub auto: Option<AutoStages>,
    /// The trip count, when the bounds and step are constants.
    pub trips: Option<i64>,
    /// Copies per iteration.
    pub copies: u32,
    /// N, when the consumers are wgmma that the body leaves N groups in
    /// flight: each slot is refilled after the body's `wgmma.wait_group N`,
    /// S - N tiles ahead (docs/pipelining.md, "Asynchronous consumers").
    pub wgmma_in_flight: Option<u32>,
    /// With a producer and one wgmma group left in flight: M, when the
    /// consumers release tile k - 1's slot at iteration k's first
    /// `wgmma.wait_group M` rather than at the body's end (that wait, before
    /// which the body commits at least M groups of its own, completes every
    /// group of the iteration before; docs/pipelining.md, "Asynchronous
    /// consumers").
    pub released_at_wait: Option<u32>,
    /// With `producer = "warp"`: the block size the kernel declares now, its
    /// threads and the producer warp the pass added (docs/pipelining.md,
    /// "Warp specialization").
    pub producer_block: Option<u32>,
    /// With `producer = "warpgroup"`: the 128 threads the pass added (`None`:
    /// a producer warp of 32, or no producer).
    pub producer_threads: Option<u32>,
    /// With `producer = "warpgroup"`, when the pass moves registers: what a
    /// thread launches with, what the producer keeps (`setmaxnreg.dec`) and
    /// what the consumers take (`setmaxnreg.inc`) (docs/pipelining.md, "A
    /// producer warpgroup").
    pub registers: Option<[u32; 3]>,
    /// With a producer and `release = "warp"` on a chip with counted
    /// arrivals: lane 0 of each consumer warp releases a slot for its 32
    /// lanes (docs/pipelining.md, "Releases a warp at a time").
    pub warp_release: bool,
    /// When peer CTAs of the cluster fill the slots too (multicast copies):
    /// the cluster and who fills each tile's slots (docs/pipelining.md,
    /// "Multicast slots").
    pub multicast: Option<MulticastSlots>,
    /// One entry per pipelined tile, in the order of the copies.
    pub tiles: Vec<TileSlots>,
    pub sync: WaitScheme,
}

/// Why `stages = "auto"` chose its count (docs/pipelining.md, "Choosing the
/// stages"): the fewest stages whose tiles ahead hold the chip's
/// `target_bytes` in flight, unless shared memory or `max-stages` stops
/// earlier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoStages {
    /// The bytes the chip wants in flight per block
    /// (`acopy_target::Chip::bytes_in_flight`).
    pub target_bytes: u64,
    /// The bytes the chosen count keeps in flight: S - 1 iterations' tiles.
    pub in_flight_bytes: u64,
    pub limit: AutoLimit,
}

/// What bounded the automatic stage count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoLimit {
    /// The target was reached (or 2 stages already pass it).
    Latency,
    /// More stages would not fit the block's shared memory.
    SharedMemory,
    /// More stages would pass the pass's `max-stages` option.
    MaxStages,
}

impl AutoLimit {
    /// The spelling of the remark's data (`limit = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            AutoLimit::Latency => "latency",
            AutoLimit::SharedMemory => "shared_memory",
            AutoLimit::MaxStages => "max_stages",
        }
    }

    pub fn parse(name: &str) -> Option<AutoLimit> {
        [
            AutoLimit::Latency,
            AutoLimit::SharedMemory,
            AutoLimit::MaxStages,
        ]
        .into_iter()
        .find(|limit| limit.name() == name)
    }
}

/// The slots of one tile: `stages` × `slot_bytes`, each aligned to `align`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileSlots {
    /// The tile's type as written (`memref<8x128xf32, 3>`).
    pub tile: String,
    /// Bytes of the tile, and of one slot (the tile padded to `align`).
    pub tile_bytes: u64,
    pub slot_bytes: u64,
    pub align: u64,
}

/// Slots that several CTAs of a cluster write: each refill passes a cluster
/// barrier, and one follows the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MulticastSlots {
    /// The cluster, x, y, z.
    pub cluster: [u32; 3],
    /// Per tile, in the order of `tiles`: the CTAs whose slices fill each of
    /// its slots (1: the CTA's own copy). The slot's barrier expects the
    /// tile's bytes, `tile_bytes / senders` from each.
    pub senders: Vec<u32>,
}

/// How the loop waits for a slot's tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitScheme {
    /// cp.async: each iteration waits with `cp.async.wait_group N`, N the one
    /// entry of `counts`: copies × (S - 1), or copies × (D - 1) with D tiles
    /// ahead when the refill follows asynchronous consumers.
    WaitGroups { counts: Vec<u32> },
    /// TMA: one mbarrier per slot, initialised for `arrivals` arrivals (one
    /// per copy), waited on with parity (n / S) & 1 for the n-th tile.
    /// `replaces_user_barrier`: the loop was in the native form, and the
    /// pass removed its barrier's init and wait.
    Barriers {
        barriers: u32,
        arrivals: u32,
        replaces_user_barrier: bool,
    },
}

impl PipelinedLoop {
    /// Shared bytes of the slots and, on TMA, the barriers and tile count.
    pub fn shared_bytes(&self) -> u64 {
        let slots: u64 = self
            .tiles
            .iter()
            .map(|tile| tile.slot_bytes.saturating_mul(u64::from(self.stages)))
            .sum();
        match (self.sync.clone(), self.producer_block) {
            // A producer warp's full and empty rings, 8 bytes per mbarrier.
            (WaitScheme::Barriers { barriers, .. }, Some(_)) => slots + 16 * u64::from(barriers),
            (WaitScheme::Barriers { barriers, .. }, None) => slots + 8 * u64::from(barriers) + 8,
            (WaitScheme::WaitGroups { .. }, _) => slots,
        }
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl PipelinedLoop {
    /// When the slots are released or refilled after wgmma consumers: a
    /// producer's consumers release (at the body's wait, or an earlier one),
    /// the whole block refills.
    fn fmt_release(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(in_flight), Some(_), Some(early)) = (
            self.wgmma_in_flight,
            self.producer_block,
            self.released_at_wait,
        ) {
            write!(
                    f,
                    "; the consumers release each slot at the next iteration's first wgmma.wait_group {early} ({} in flight at the body's end)",
                    plural(in_flight.into(), "wgmma group", "wgmma groups"),
                )?;
        } else if let (Some(in_flight), Some(_)) = (self.wgmma_in_flight, self.producer_block) {
            write!(
                    f,
                    "; the consumers release each slot after the body's wgmma.wait_group {in_flight} ({} in flight)",
                    plural(in_flight.into(), "wgmma group", "wgmma groups"),
                )?;
        } else if let Some(in_flight) = self.wgmma_in_flight {
            write!(
                f,
                "; refills after the body's wgmma.wait_group {in_flight} ({} in flight), {} ahead",
                plural(in_flight.into(), "wgmma group", "wgmma groups"),
                plural(
                    (self.stages - in_flight.min(self.stages)).into(),
                    "tile",
                    "tiles"
                )
            )?;
        }
        Ok(())
    }

    /// Why the stage count is what it is: the clamp to a short loop, the
    /// automatic choice.
    fn fmt_choice(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stages != self.requested {
            write!(
                f,
                " (the loop runs {}, so its {} stages are clamped to {})",
                plural(self.trips.unwrap_or(0).max(0) as u64, "time", "times"),
                self.requested,
                self.stages
            )?;
        }
        if let Some(auto) = &self.auto {
            let bound = match auto.limit {
                AutoLimit::Latency => "enough",
                AutoLimit::SharedMemory => "as many as shared memory allows",
                AutoLimit::MaxStages => "as many as max-stages allows",
            };
            write!(
                f,
                " (auto: {bound}; {} bytes in flight for the {} bytes {} wants)",
                auto.in_flight_bytes,
                auto.target_bytes,
                self.chip.name()
            )?;
        }
        Ok(())
    }
}

impl PipelinedLoop {
    /// Who fills the slots of each multicast tile, what its barrier expects,
    /// and the cluster barriers that order the refills.
    fn fmt_multicast(&self, multicast: &MulticastSlots, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = multicast.cluster;
        write!(f, "; multicast in a {x}x{y}x{z} cluster: ")?;
        let mut first = true;
        for (tile, &senders) in self.tiles.iter().zip(&multicast.senders) {
            if senders <= 1 {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(
                f,
                "{senders} CTAs fill each slot of {} ({senders} slices of {} bytes; its barrier expects {} bytes)",
                tile.tile,
                tile.tile_bytes / u64::from(senders),
                tile.tile_bytes
            )?;
        }
        if self.producer_block.is_some() {
            let group = multicast.senders.iter().copied().max().unwrap_or(1);
            write!(
                f,
                ", each CTA's consumers release each slot on the empty barriers of all {group} CTAs of the group, a cluster barrier before the kernel returns"
            )
        } else {
            f.write_str(", a cluster barrier before each refill and after the loop")
        }
    }
}

impl PipelinedLoop {
    /// Who issues the copies, of a producer warp or warpgroup: its threads up
    /// to `block` and, for a warpgroup, the registers it moves.
    fn fmt_producer(&self, block: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (unit, added) = match self.producer_threads {
            Some(added) => ("warpgroup", added),
            None => ("warp", 32),
        };
        write!(
            f,
            "; a producer {unit} issues the copies (threads {}..{block}",
            block.saturating_sub(added)
        )?;
        if let Some([launch, producer, consumers]) = self.registers {
            write!(f, "; setmaxnreg: {launch} registers a thread at launch, {producer} kept by the producer, {consumers} taken by the consumers")?;
        }
        write!(
            f,
            "), the other threads release each slot on an empty barrier"
        )?;
        if self.warp_release {
            f.write_str(", a warp at a time (lane 0 arrives for its 32 lanes)")?;
        }
        Ok(())
    }
}

impl fmt::Display for PipelinedLoop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "acopy.pipeline: {}",
            plural(self.stages.into(), "stage", "stages")
        )?;
        self.fmt_choice(f)?;
        write!(f, ", {} on {}; ", self.path, self.chip.name())?;
        for (index, tile) in self.tiles.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            write!(
                f,
                "{} of {} bytes ({}-byte aligned) for {}",
                plural(self.stages.into(), "slot", "slots"),
                tile.slot_bytes,
                tile.align,
                tile.tile
            )?;
        }
        let copies = plural(self.copies.into(), "copy", "copies");
        self.fmt_release(f)?;
        if let Some(block) = self.producer_block {
            self.fmt_producer(block, f)?;
        }
        if let Some(multicast) = &self.multicast {
            self.fmt_multicast(multicast, f)?;
        }
        match &self.sync {
            WaitScheme::WaitGroups { counts } => {
                let counts: Vec<String> = counts.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "; waits: cp.async.wait_group {} in every iteration ({copies} per iteration, empty groups where none is issued)",
                    counts.join(", ")
                )?;
            }
            WaitScheme::Barriers {
                barriers,
                arrivals,
                replaces_user_barrier,
            } => {
                write!(
                    f,
                    "; {} of {}, parity (n / {}) & 1 for the n-th tile",
                    plural((*barriers).into(), "mbarrier", "mbarriers"),
                    plural((*arrivals).into(), "arrival", "arrivals"),
                    self.stages
                )?;
                if *replaces_user_barrier {
                    f.write_str(", replacing the loop's own barrier")?;
                }
            }
        }
        write!(f, "; {} bytes of shared memory", self.shared_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(bytes: u64) -> TileSlots {
        TileSlots {
            tile: "memref<8x128xf32, 3>".into(),
            tile_bytes: bytes,
            slot_bytes: bytes,
            align: 16,
        }
    }

    /// A TMA loop of `stages` slots per tile on `chip`, one mbarrier of
    /// `arrivals` per stage and nothing else said: each test spells out what
    /// it changes.
    fn tma_loop(chip: &str, stages: u32, tiles: Vec<TileSlots>, arrivals: u32) -> PipelinedLoop {
        PipelinedLoop {
            chip: Chip::parse(chip).unwrap(),
            path: CopyPath::Tma,
            stages,
            requested: stages,
            auto: None,
            trips: None,
            copies: 1,
            wgmma_in_flight: None,
            released_at_wait: None,
            producer_block: None,
            producer_threads: None,
            registers: None,
            warp_release: false,
            multicast: None,
            tiles,
            sync: WaitScheme::Barriers {
                barriers: stages,
                arrivals,
                replaces_user_barrier: false,
            },
        }
    }

    #[test]
    fn the_message_spells_the_data() {
        let cp = PipelinedLoop {
            chip: Chip::parse("sm_80").unwrap(),
            path: CopyPath::CpAsync,
            stages: 3,
            requested: 3,
            auto: None,
            trips: None,
            copies: 2,
            wgmma_in_flight: None,
            released_at_wait: None,
            producer_block: None,
            producer_threads: None,
            registers: None,
            warp_release: false,
            multicast: None,
            tiles: vec![tile(4096), tile(4096)],
            sync: WaitScheme::WaitGroups { counts: vec![2] },
        };
        assert_eq!(cp.shared_bytes(), 3 * 8192);
        assert_eq!(
            cp.to_string(),
            "acopy.pipeline: 3 stages, cp.async on sm_80; 3 slots of 4096 bytes (16-byte aligned) for memref<8x128xf32, 3>, 3 slots of 4096 bytes (16-byte aligned) for memref<8x128xf32, 3>; waits: cp.async.wait_group 2 in every iteration (2 copies per iteration, empty groups where none is issued); 24576 bytes of shared memory"
        );
        let tma = PipelinedLoop {
            requested: 4,
            trips: Some(1),
            sync: WaitScheme::Barriers {
                barriers: 1,
                arrivals: 1,
                replaces_user_barrier: true,
            },
            ..tma_loop("sm_90", 1, vec![tile(4096)], 1)
        };
        assert_eq!(tma.shared_bytes(), 4096 + 16);
        assert_eq!(
            Detail::Pipelined(tma).to_string(),
            "acopy.pipeline: 1 stage (the loop runs 1 time, so its 4 stages are clamped to 1), TMA on sm_90; 1 slot of 4096 bytes (16-byte aligned) for memref<8x128xf32, 3>; 1 mbarrier of 1 arrival, parity (n / 1) & 1 for the n-th tile, replacing the loop's own barrier; 4112 bytes of shared memory"
        );
    }

    /// A producer warp: its threads, the consumers' release after their
    /// wgmma, and two rings of S mbarriers in the shared bytes (no count cell).
    #[test]
    fn a_producer_warp_says_who_issues_and_who_releases() {
        let warp = PipelinedLoop {
            copies: 2,
            wgmma_in_flight: Some(1),
            released_at_wait: None,
            producer_block: Some(288),
            producer_threads: None,
            registers: None,
            warp_release: false,
            ..tma_loop("sm_90a", 4, vec![tile(8192)], 2)
        };
        assert_eq!(warp.shared_bytes(), 4 * 8192 + 4 * 16);
        assert_eq!(
            warp.to_string(),
            "acopy.pipeline: 4 stages, TMA on sm_90a; 4 slots of 8192 bytes (16-byte aligned) for memref<8x128xf32, 3>; the consumers release each slot after the body's wgmma.wait_group 1 (1 wgmma group in flight); a producer warp issues the copies (threads 256..288), the other threads release each slot on an empty barrier; 4 mbarriers of 2 arrivals, parity (n / 4) & 1 for the n-th tile; 32832 bytes of shared memory"
        );
        // Released at an earlier wait of the next iteration: the text says which.
        let early = PipelinedLoop {
            released_at_wait: Some(0),
            ..warp.clone()
        };
        assert!(early.to_string().contains("; the consumers release each slot at the next iteration's first wgmma.wait_group 0 (1 wgmma group in flight at the body's end); a producer warp"), "{early}");
        // release = "warp": the text says the warps release, and only then.
        let by_warp = PipelinedLoop {
            warp_release: true,
            ..warp.clone()
        };
        assert!(by_warp.to_string().contains("the other threads release each slot on an empty barrier, a warp at a time (lane 0 arrives for its 32 lanes); 4 mbarriers"), "{by_warp}");
        assert!(!warp.to_string().contains("a warp at a time"), "{warp}");
    }

    /// A producer warpgroup: its 128 threads and, when registers move, how
    /// many a thread launches with and holds after each side's setmaxnreg.
    #[test]
    fn a_producer_warpgroup_says_how_registers_move() {
        let group = PipelinedLoop {
            copies: 2,
            producer_block: Some(384),
            producer_threads: Some(128),
            registers: Some([168, 40, 232]),
            ..tma_loop("sm_90a", 2, vec![tile(8192)], 2)
        };
        assert!(
            group.to_string().contains("; a producer warpgroup issues the copies (threads 256..384; setmaxnreg: 168 registers a thread at launch, 40 kept by the producer, 232 taken by the consumers), the other threads release each slot on an empty barrier;"),
            "{group}"
        );
        let unmoved = PipelinedLoop {
            producer_block: Some(256),
            registers: None,
            warp_release: false,
            ..group
        };
        assert!(
            unmoved.to_string().contains(
                "; a producer warpgroup issues the copies (threads 128..256), the other threads"
            ),
            "{unmoved}"
        );
    }

    /// Multicast slots: who fills them, what the barrier expects, and the
    /// cluster barriers.
    #[test]
    fn multicast_slots_say_who_fills_them() {
        let pipelined = PipelinedLoop {
            copies: 2,
            multicast: Some(MulticastSlots {
                cluster: [2, 2, 1],
                senders: vec![4, 1],
            }),
            ..tma_loop("sm_90a", 3, vec![tile(8192), tile(4096)], 2)
        };
        assert_eq!(
            pipelined.to_string(),
            "acopy.pipeline: 3 stages, TMA on sm_90a; 3 slots of 8192 bytes (16-byte aligned) for memref<8x128xf32, 3>, 3 slots of 4096 bytes (16-byte aligned) for memref<8x128xf32, 3>; multicast in a 2x2x1 cluster: 4 CTAs fill each slot of memref<8x128xf32, 3> (4 slices of 2048 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 3 mbarriers of 2 arrivals, parity (n / 3) & 1 for the n-th tile; 36896 bytes of shared memory"
        );
    }

    #[test]
    fn an_automatic_count_says_what_bounded_it() {
        let mut pipelined = PipelinedLoop {
            auto: Some(AutoStages {
                target_bytes: 49152,
                in_flight_bytes: 49152,
                limit: AutoLimit::Latency,
            }),
            ..tma_loop("sm_90", 7, vec![tile(8192)], 1)
        };
        assert!(pipelined.to_string().starts_with(
            "acopy.pipeline: 7 stages (auto: enough; 49152 bytes in flight for the 49152 bytes sm_90 wants), TMA on sm_90; "
        ));
        for (limit, says) in [
            (AutoLimit::SharedMemory, "as many as shared memory allows"),
            (AutoLimit::MaxStages, "as many as max-stages allows"),
        ] {
            pipelined.auto.as_mut().unwrap().limit = limit;
            assert!(pipelined.to_string().contains(says), "{pipelined}");
            assert_eq!(AutoLimit::parse(limit.name()), Some(limit));
        }
        assert_eq!(AutoLimit::parse("fast"), None);
    }
}
