//! Shared-memory sizes of a pipelined loop: slot alignment, padded slots and
//! the per-chip budget.
//!
//! A slot is aligned as the plan layer asks of any tile on its path: cp.async
//! writes 16-byte chunks where the slot allows (docs/lowering-cp-async.md),
//! TMA needs its tile 128-byte aligned; with a swizzle, either path needs 8 ×
//! the swizzle span, so that the pattern starts at the slot
//! (docs/lowering-tma.md, rules A25 and A4). Slots that pass [`STATIC_LIMIT`]
//! move to dynamic shared memory, whose 16-byte aligned base the rewrite rounds
//! up at run time ([`dynamic_reserve`]; docs/pipelining.md, "Shared memory").

use acopy_target::{Chip, CopyPath};

/// Static `.shared` above this is refused by ptxas on sm_80 and sm_90.
pub const STATIC_LIMIT: u64 = 48 * 1024;

/// Bytes of one mbarrier.
pub const BARRIER_BYTES: u64 = 8;

/// The alignment of each slot of a tile copied on `path` with `swizzle` bytes:
/// what the plan layer asks of any tile on that path.
pub fn slot_alignment(path: CopyPath, swizzle: u64) -> u64 {
    match path {
        CopyPath::CpAsync => {
            crate::plan::cp_async_load::tile_alignment(u32::try_from(swizzle).unwrap_or(u32::MAX))
        }
        CopyPath::Tma => {
            crate::plan::shape::tma_smem_alignment(u32::try_from(swizzle).unwrap_or(u32::MAX))
        }
    }
}

/// `bytes` rounded up to a multiple of `align`.
pub fn padded(bytes: u64, align: u64) -> u64 {
    bytes.div_ceil(align).saturating_mul(align)
}

/// The alignment `gpu.dynamic_shared_memory` has: the lowering declares it
/// 16-byte aligned (`crate::plan::alignment`).
pub const DYNAMIC_BASE_ALIGN: u64 = 16;

/// Bytes reserved ahead of slots in dynamic shared memory that need `align`:
/// the base is only 16-byte aligned, so the rewrite rounds it up at run time
/// by at most `align - 16` bytes (docs/pipelining.md, "Shared memory").
pub fn dynamic_reserve(align: u64) -> u64 {
    align.saturating_sub(DYNAMIC_BASE_ALIGN)
}

/// What one loop asks of shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Padded slot bytes of each pipelined tile.
    pub slots: Vec<u64>,
    /// Bytes of the kernel's other static shared memory.
    pub other: u64,
    /// The mbarriers the schedule keeps in shared memory.
    pub barriers: Rings,
    /// When the slots may move to dynamic shared memory, the bytes reserved
    /// to align them there ([`dynamic_reserve`]); `None` when they may not.
    pub dynamic: Option<u64>,
}

/// The mbarriers of a pipelined loop's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rings {
    /// None (cp.async waits on commit groups).
    None,
    /// One per slot and the 8-byte count of tiles issued so far (TMA).
    PerSlot,
    /// A producer warp's full and empty rings, one of each per slot.
    FullAndEmpty,
}

impl Budget {
    /// Barrier bytes at `stages` ([`Rings`]).
    pub fn barrier_bytes(&self, stages: u64) -> u64 {
        match self.barriers {
            Rings::None => 0,
            Rings::PerSlot => stages.saturating_mul(BARRIER_BYTES).saturating_add(8),
            Rings::FullAndEmpty => stages.saturating_mul(2 * BARRIER_BYTES),
        }
    }

    /// Bytes of the slots at `stages`.
    pub fn slot_bytes(&self, stages: u64) -> u64 {
        // Saturating: a tile too large for any chip must still get its error.
        self.slots.iter().fold(0u64, |sum, slot| {
            sum.saturating_add(slot.saturating_mul(stages))
        })
    }

    /// Shared bytes of the kernel with `stages` slots per tile, all static.
    pub fn static_total(&self, stages: u64) -> u64 {
        self.slot_bytes(stages)
            .saturating_add(self.barrier_bytes(stages))
            .saturating_add(self.other)
    }

    /// Whether the slots go to dynamic shared memory at `stages`: they may,
    /// and all static they would pass [`STATIC_LIMIT`].
    pub fn moves(&self, stages: u64) -> bool {
        self.dynamic.is_some() && self.static_total(stages) > STATIC_LIMIT
    }

    /// Total shared bytes of the kernel with `stages` slots per tile, static
    /// and dynamic, with the alignment reserve when the slots move.
    pub fn total(&self, stages: u64) -> u64 {
        let reserve = match self.dynamic {
            Some(reserve) if self.moves(stages) => reserve,
            _ => 0,
        };
        self.static_total(stages).saturating_add(reserve)
    }

    /// The largest stage count whose total is at most `limit` (0 when even
    /// one slot per tile does not fit).
    pub fn largest_fitting(&self, limit: u64, max_stages: u64) -> u64 {
        (1..=max_stages)
            .rev()
            .find(|stages| self.total(*stages) <= limit)
            .unwrap_or(0)
    }
}

/// The chip's limit, for messages.
pub fn chip_limit(chip: Chip) -> u64 {
    chip.max_shared_per_block()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_aligned_per_path() {
        assert_eq!(slot_alignment(CopyPath::CpAsync, 0), 16);
        assert_eq!(slot_alignment(CopyPath::Tma, 0), 128);
        assert_eq!(slot_alignment(CopyPath::Tma, 128), 1024);
        assert_eq!(slot_alignment(CopyPath::CpAsync, 32), 256);
        assert_eq!(slot_alignment(CopyPath::CpAsync, 64), 512);
        assert_eq!(slot_alignment(CopyPath::CpAsync, 128), 1024);
        assert_eq!(padded(100, 16), 112);
        assert_eq!(padded(4096, 128), 4096);
        assert_eq!(padded(1, 1024), 1024);
    }

    #[test]
    fn huge_tiles_saturate() {
        let budget = Budget {
            slots: vec![u64::MAX / 2],
            other: u64::MAX,
            barriers: Rings::PerSlot,
            dynamic: Some(1008),
        };
        assert_eq!(budget.total(8), u64::MAX);
        assert_eq!(budget.largest_fitting(232448, 8), 0);
        assert_eq!(padded(u64::MAX, 16), u64::MAX);
    }

    #[test]
    fn budget_counts_slots_barriers_and_the_rest() {
        let budget = Budget {
            slots: vec![32768, 1024],
            other: 100,
            barriers: Rings::PerSlot,
            dynamic: None,
        };
        assert_eq!(budget.total(3), 3 * 33792 + 3 * 8 + 8 + 100);
        // 163 KiB: 4 stages are 135300 bytes, 5 are 169100.
        assert_eq!(budget.largest_fitting(166912, 8), 4);
        assert_eq!(budget.largest_fitting(1000, 8), 0);
        // A producer warp's two rings: 16 bytes per stage, no count cell.
        let warp = Budget {
            barriers: Rings::FullAndEmpty,
            ..budget.clone()
        };
        assert_eq!(warp.total(3), 3 * 33792 + 3 * 16 + 100);
        let cp = Budget {
            barriers: Rings::None,
            ..budget
        };
        assert_eq!(cp.total(2), 2 * 33792 + 100);
    }

    #[test]
    fn moved_slots_count_their_alignment_reserve() {
        assert_eq!(dynamic_reserve(16), 0);
        assert_eq!(dynamic_reserve(128), 112);
        assert_eq!(dynamic_reserve(1024), 1008);
        let budget = Budget {
            slots: vec![16384],
            other: 0,
            barriers: Rings::PerSlot,
            dynamic: Some(112),
        };
        // 2 slots and 24 bytes of barriers stay static; 3 slots move.
        assert!(!budget.moves(2));
        assert_eq!(budget.total(2), 2 * 16384 + 24);
        assert!(budget.moves(3));
        assert_eq!(budget.total(3), 3 * 16384 + 32 + 112);
        // The reserve decides whether a stage fits.
        assert_eq!(budget.largest_fitting(3 * 16384 + 32 + 111, 8), 2);
        let fixed = Budget {
            dynamic: None,
            ..budget
        };
        assert!(!fixed.moves(3));
        assert_eq!(fixed.total(3), 3 * 16384 + 32);
    }
}
