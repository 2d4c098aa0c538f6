//! What the analysis of a marked loop hands the rewrite ([`LoopPlan`]), and
//! why a loop has none ([`LoopProblem`]).

use acopy_target::{Chip, CopyPath};
use melior::ir::{operation::OperationLike, r#type::MemRefType, BlockRef, OperationRef, Value};

use crate::ir;

/// Which rule of the loop's a marked loop breaks: the stage of the analysis
/// that refused it. The rules table (`crate::verify::rules`) gives each its id
/// (P1–P18), its condition in words and its message template; the analysis
/// only says which one and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broken {
    /// The request: `acopy.pipeline` is not `{stages = S}` with S in range.
    Request,
    /// The mark is on an op that is not an `scf.for`.
    NotALoop,
    /// The body's top level is not copies followed by one wait.
    BodyForm,
    /// Another acopy op sits where the pass owns the copies and waits.
    ForeignOp,
    /// A tile is not a kernel attribution used only in the loop after the wait.
    TileHome,
    /// A tile is used in the body before the wait.
    TileUsedEarly,
    /// A copy's operands cannot be recomputed for a later iteration.
    OperandSlice,
    /// A copy's src is written in the loop.
    SrcWritten,
    /// A copy has a form the pass does not pipeline (multicast, a barrier, ...).
    CopyForm,
    /// The slots do not fit the chip's shared memory.
    Budget,
    /// The slots do not fit static shared memory and cannot move.
    StaticBudget,
    /// The native TMA form's barrier cannot be replaced.
    NativeForm,
    /// The induction values do not fit the rewrite's index arithmetic.
    Induction,
    /// wgmma read a pipelined tile and the body does not wait for them.
    AsyncWait,
    /// A wgmma descriptor of a pipelined tile leaves its iteration.
    DescriptorEscapes,
    /// Too few stages for the wgmma groups the body keeps in flight.
    AsyncStages,
    /// A warp-specialized loop's kernel has no block size the pass can grow.
    WarpBlock,
    /// A warp-specialized loop is not where a producer warp can leave it.
    WarpPlace,
    /// P19: `producer = "warpgroup"` on a chip without setmaxnreg.
    WarpgroupChip,
}

/// Why a marked loop cannot be pipelined: the rule broken (`None` for a
/// target or view error, which verification reports with its own text) and
/// the message, at `op`.
pub struct LoopProblem<'c, 'a> {
    pub broken: Option<Broken>,
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

impl<'c, 'a> LoopProblem<'c, 'a> {
    /// Rule `broken` broken at `op`, with why.
    pub(crate) fn rule(op: OperationRef<'c, 'a>, (broken, message): (Broken, String)) -> Self {
        LoopProblem {
            broken: Some(broken),
            op,
            message,
        }
    }

    /// An error at `op` that is no rule of the loop's (a target or view error,
    /// reported with its own text).
    pub(crate) fn other(op: OperationRef<'c, 'a>, error: impl std::fmt::Display) -> Self {
        LoopProblem {
            broken: None,
            op,
            message: error.to_string(),
        }
    }
}

/// Where a pipelined tile's memory comes from (P5 refuses every other home:
/// a view, a `memref.global`, a value made in the loop).
#[derive(Clone, Copy)]
pub enum TileRoot<'c, 'a> {
    /// Workgroup attribution `index` of the kernel `function`.
    Workgroup {
        function: OperationRef<'c, 'a>,
        index: usize,
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

/// The type of a marked loop's induction variable: `scf.for` takes `index`
/// or any signless integer, compared signed unless the loop is `unsigned`.
/// The rewrite does its schedule arithmetic on `index` (64 bits), where every
/// value of a narrower induction variable fits once extended by its
/// signedness; an `unsigned` loop of 64-bit values does not, and P13 refuses
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Induction {
    /// The integer width; `None` for `index`.
    pub bits: Option<u32>,
    pub unsigned: bool,
}

impl Induction {
    /// The attribute `scf.for` carries when it compares unsigned.
    pub const UNSIGNED: &'static str = "unsignedCmp";

    /// The induction type of `loop_op` (an `scf.for`).
    pub fn of(loop_op: OperationRef) -> Self {
        use melior::ir::{r#type::IntegerType, RegionLike, ValueLike};
        let bits = loop_op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .and_then(|body| melior::ir::block::BlockLike::argument(&body, 0).ok())
            .and_then(|iv| IntegerType::try_from(iv.r#type()).ok())
            .map(|integer| integer.width());
        Induction {
            bits,
            unsigned: loop_op.has_attribute(Self::UNSIGNED),
        }
    }

    /// A constant bound as the loop reads it: the attribute's bits extended
    /// by the loop's signedness (an `i32` bound of -1 is 4294967295 in an
    /// `unsigned` loop).
    pub fn extend(&self, value: i64) -> i128 {
        match self.bits {
            Some(bits) if self.unsigned && bits < 64 => i128::from(value) & ((1i128 << bits) - 1),
            _ if self.unsigned => i128::from(value as u64),
            _ => i128::from(value),
        }
    }

    /// Whether every value of the induction variable fits a signed 64-bit
    /// `index` once extended (all but `unsigned` loops of 64-bit values).
    pub fn fits_index(&self) -> bool {
        !self.unsigned || self.bits.is_some_and(|bits| bits < 64)
    }
}

/// What the loop's asynchronous consumers need from the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsyncConsumers {
    /// N: the wgmma groups the body leaves in flight at its end.
    pub in_flight: u32,
}

impl AsyncConsumers {
    /// The fewest stages that leave a slot to refill: N + 1.
    pub fn min_stages(&self) -> u32 {
        self.in_flight + 1
    }
}

/// Threads in the producer warp the pass adds for `producer = "warp"`.
pub const PRODUCER_THREADS: u32 = 32;

/// What the rewrite of a warp-specialized loop needs to know
/// (`super::warp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpPlan {
    /// B: the consumer threads, the kernel's declared block size.
    pub consumers: u32,
    /// The threads the pass adds after them: a warp (32) or a warpgroup (128).
    pub producers: u32,
    /// `producer = "warpgroup"`: the registers the producer warpgroup gives
    /// the consumers (`super::registers`); `None` for a producer warp, or when
    /// the consumers already have the most a thread can hold.
    pub registers: Option<super::registers::RegisterSplit>,
    /// `release = "warp"` on a chip with counted arrivals: lane 0 of each
    /// consumer warp releases a slot for its 32 lanes (docs/pipelining.md,
    /// "Releases a warp at a time").
    pub warp_release: bool,
}

impl WarpPlan {
    /// The block size the kernel launches with: B + 32, or B + 128.
    pub fn block(&self) -> u32 {
        self.consumers + self.producers
    }
}

/// How a marked loop's slots fill across the cluster: present when at least
/// one copy multicasts (its group has more than one CTA).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSlots {
    /// The cluster shape, from the kernel's `nvvm.cluster_dim`.
    pub cluster: [u32; 3],
    /// Per tile, in the plan's tile order: how it lands.
    pub landings: Vec<Landing>,
    /// The group every multicast copy of the loop shares, `None` when they
    /// differ (a producer warp needs one: it releases each slot to that group).
    pub(crate) group: Option<crate::plan::collective::Collective>,
}

/// How one pipelined tile lands in a CTA's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landing {
    /// The CTAs that write the slot: N for a multicast, 1 for a copy of its own.
    pub senders: u32,
    /// The bytes each of them writes (the whole tile when `senders` is 1).
    pub slice_bytes: u64,
    /// What the slot's barrier expects from this copy: the tile's bytes.
    pub expect_tx: u64,
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
    /// The stage count asked for, or chosen by `stages = "auto"`.
    pub requested: u32,
    /// Why `stages = "auto"` chose `requested`.
    pub auto: Option<acopy_expect::AutoStages>,
    /// wgmma consumers that read a slot after they are issued: the refill
    /// then waits for them (`super::async_consumers`).
    pub async_consumers: Option<AsyncConsumers>,
    /// With N = 1, the body's earlier `wgmma.wait_group` at which tile k - 1
    /// is complete in iteration k (`super::async_consumers::early_release`):
    /// a producer's consumers release that tile's slot right after it.
    pub early_release: Option<OperationRef<'c, 'a>>,
    pub induction: Induction,
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
    /// `producer = "warp"`: the consumers' block (`super::warp`).
    pub warp: Option<WarpPlan>,
    /// With a producer: the ops before the loop, in its block, that only the
    /// consumers run (`super::warp_prologue`). At the kernel's top level the
    /// rewrite moves them into the consumers' region; in a persistent loop
    /// the producer's copy of its body leaves them out.
    pub consumers_only: Vec<OperationRef<'c, 'a>>,
    /// Slots that peer CTAs of the cluster fill too (multicast copies), and
    /// how each tile lands (`super::multicast`); the rewrite then orders
    /// refills with cluster barriers.
    pub multicast: Option<ClusterSlots>,
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

/// The trip count of an `scf.for` whose bounds and step are constants.
pub(crate) fn static_trip_count(loop_op: OperationRef, induction: Induction) -> Option<i64> {
    let value = |index: usize| {
        loop_op
            .operand(index)
            .ok()
            .and_then(ir::constant_int)
            .map(|constant| induction.extend(constant))
    };
    let (lower, upper, step) = (value(0)?, value(1)?, value(2)?);
    if step <= 0 {
        return None;
    }
    let trips = if upper > lower {
        (upper - lower + step - 1) / step
    } else {
        0
    };
    i64::try_from(trips).ok()
}

#[cfg(test)]
mod tests {
    use super::Induction;

    fn induction(bits: Option<u32>, unsigned: bool) -> Induction {
        Induction { bits, unsigned }
    }

    /// A constant bound reads as the loop compares it: sign-extended in a
    /// signed loop of any width, zero-extended in an unsigned one (the
    /// mutation sample of 2026-12-03 found signed narrow and unsigned 64-bit
    /// bounds untested).
    #[test]
    fn bounds_extend_by_the_loop_signedness() {
        assert_eq!(induction(Some(32), false).extend(-1), -1);
        assert_eq!(induction(Some(32), true).extend(-1), 4_294_967_295);
        assert_eq!(induction(Some(16), true).extend(-8), 65_528);
        assert_eq!(induction(Some(64), false).extend(-1), -1);
        assert_eq!(induction(Some(64), true).extend(-1), i128::from(u64::MAX));
        assert_eq!(induction(None, true).extend(-1), i128::from(u64::MAX));
        assert_eq!(induction(None, false).extend(-5), -5);
        assert_eq!(induction(Some(32), true).extend(7), 7);
    }

    /// Only an unsigned loop of 64-bit values (i64 or index) does not fit.
    #[test]
    fn only_unsigned_64_bit_loops_do_not_fit_index() {
        assert!(induction(Some(32), true).fits_index());
        assert!(induction(Some(64), false).fits_index());
        assert!(induction(None, false).fits_index());
        assert!(!induction(Some(64), true).fits_index());
        assert!(!induction(None, true).fits_index());
    }
}
