//! What the analysis of a marked loop hands the rewrite ([`LoopPlan`]), and
//! why a loop has none ([`Finding`]).

use acopy_target::{Chip, CopyPath};
use melior::ir::{operation::OperationLike, r#type::MemRefType, BlockRef, OperationRef, Value};

/// Why a marked loop cannot be pipelined: a rule id (`None` for a target or
/// view error, which verification reports with its own text) and the message,
/// at `op`.
pub struct Finding<'c, 'a> {
    pub rule: Option<&'static str>,
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

impl<'c, 'a> Finding<'c, 'a> {
    /// Rule `rule` broken at `op`, with why.
    pub(crate) fn rule(op: OperationRef<'c, 'a>, (rule, message): (&'static str, String)) -> Self {
        Finding {
            rule: Some(rule),
            op,
            message,
        }
    }

    /// Reports the finding as an error at its op, with its rule id.
    pub fn emit(&self) {
        crate::diagnostics::emit_rule_error(self.op.location(), self.rule, &self.message);
    }

    /// An error at `op` that is no rule of the loop's (a target or view error,
    /// reported with its own text).
    pub(crate) fn other(op: OperationRef<'c, 'a>, error: impl std::fmt::Display) -> Self {
        Finding {
            rule: None,
            op,
            message: error.to_string(),
        }
    }
}

/// Where a pipelined tile's memory comes from.
#[derive(Clone, Copy)]
pub enum TileRoot<'c, 'a> {
    /// Workgroup attribution `index` of the kernel `function`.
    Workgroup {
        function: OperationRef<'c, 'a>,
        index: usize,
    },
    /// A `memref.get_global` of a shared `memref.global`.
    Global {
        get_global: OperationRef<'c, 'a>,
        global: OperationRef<'c, 'a>,
    },
}

/// One pipelined tile.
pub struct Tile<'c, 'a> {
    pub value: Value<'c, 'a>,
    pub root: TileRoot<'c, 'a>,
    pub tile_type: MemRefType<'c>,
    /// Bytes of one tile, and of one padded slot.
    pub bytes: u64,
    pub slot: u64,
    pub align: u64,
}

/// One pipelined copy: the op, the tile it writes, and the body ops its
/// operands are computed by (in program order), which the pass clones for
/// the iterations it issues early.
pub struct PipeCopy<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub tile: usize,
    pub slice: Vec<OperationRef<'c, 'a>>,
}

/// A loop the pass can pipeline.
pub struct LoopPlan<'c, 'a> {
    pub loop_op: OperationRef<'c, 'a>,
    pub body: BlockRef<'c, 'a>,
    pub function: OperationRef<'c, 'a>,
    pub chip: Chip,
    pub path: CopyPath,
    /// The stage count used (the requested one, clamped for a short static loop).
    pub stages: u32,
    pub requested: u32,
    /// The trip count, when the bounds are constants.
    pub static_trips: Option<i64>,
    pub copies: Vec<PipeCopy<'c, 'a>>,
    pub tiles: Vec<Tile<'c, 'a>>,
    /// The wait: `wait_gmem_to_smem`, or the native form's `barrier_wait`.
    pub wait: OperationRef<'c, 'a>,
    /// The native TMA form's barrier and init, which the rewrite replaces.
    pub native: Option<super::native::Native<'c, 'a>>,
    /// Where the slots go when they do not fit static shared memory.
    pub dynamic: Option<DynamicSlots>,
}

/// Slots placed in `gpu.dynamic_shared_memory` (docs/pipelining.md, "Shared
/// memory"): the base is rounded up at run time to `align`, the largest slot
/// alignment, which `reserve` bytes ahead of the slots make room for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynamicSlots {
    pub align: u64,
    pub reserve: u64,
}

impl DynamicSlots {
    /// The dynamic shared bytes the kernel needs: the reserve and the slots.
    pub fn bytes(&self, tiles: &[Tile], stages: u64) -> u64 {
        tiles.iter().fold(self.reserve, |sum, tile| {
            sum.saturating_add(tile.slot.saturating_mul(stages))
        })
    }

    /// The byte offset of each tile's first slot from the aligned base, in
    /// tile order. Tiles are laid out by falling alignment: each slot size is
    /// a multiple of its own (power-of-two) alignment, so every offset is a
    /// multiple of its tile's alignment with no padding between tiles.
    pub fn offsets(tiles: &[Tile], stages: u64) -> Vec<u64> {
        let mut order: Vec<usize> = (0..tiles.len()).collect();
        order.sort_by_key(|index| std::cmp::Reverse(tiles[*index].align));
        let mut offsets = vec![0; tiles.len()];
        let mut cursor = 0u64;
        for index in order {
            offsets[index] = cursor;
            cursor = cursor.saturating_add(tiles[index].slot.saturating_mul(stages));
        }
        offsets
    }
}
