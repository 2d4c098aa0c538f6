//! The plan of a TMA load (`copy_gmem_to_smem` on sm_90 and newer): how it
//! is spread over the cluster, the box one instruction copies, each CTA's
//! slice of a multicast, the bytes its barrier expects, its tensor map, and
//! whether its innermost start needs the non-TMA path (docs/lowering-tma.md).
//!
//! The four shapes of a load ([`Mode`]):
//! - **single**: no collective, or a collective group of one CTA. The box is
//!   the window.
//! - **multicast** (`collective_axes` over N > 1 CTAs): the window is split
//!   along its outermost leading dimension longer than 1
//!   ([`shape::multicast_split_dim`], which must divide by N); CTA `i` of the
//!   group loads slice `i` into the same place of every group member's tile.
//!   Each CTA still expects the whole window's bytes.
//! - **partitioned** (`leader_tracked = "partitioned"`, a CTA pair): CTA `i`
//!   of the pair loads the window moved by `i` windows along
//!   `partition_axis` into its own tile; the leader expects twice the
//!   window's bytes.
//! - **replicated** (`leader_tracked = "replicated"`, a CTA pair): as
//!   multicast over the pair; the leader expects twice the window's bytes.

use acopy_dialect::{AcopyOp, CopyGmemToSmem, LeaderTracked};
use acopy_manifest::{ElementType, TensorMap};
use melior::ir::{ShapedTypeLike, Value};

use super::{
    alignment::{view_root, Root},
    collective::Collective,
    cp_async_load::{static_shape, CpAsyncPlan},
    shape,
    source::{self, Access},
    tensor_map_key,
    tma_facts::{tma_fallback_exists, SourceFacts, Start},
    wide_tile::{self, BoxGrid},
    PlanError,
};
use crate::target::Target;

/// The largest transaction count of an mbarrier phase (PTX: 2^20 - 1).
pub(crate) const MAX_TX_COUNT: i64 = (1 << 20) - 1;

/// The bytes TMA needs the innermost window start to be aligned to.
pub(crate) const TMA_START_ALIGN: u64 = 16;

/// How a load is spread over the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Single,
    Multicast(Collective),
    /// Along this window dimension.
    Partitioned(usize),
    Replicated,
}

impl Mode {
    /// Whether only the pair leader's barrier counts the bytes (`cta_group::2`).
    pub fn leader_tracked(&self) -> bool {
        matches!(self, Mode::Partitioned(_) | Mode::Replicated)
    }
}

/// One CTA's slice of a multicast box, along the split dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slice {
    pub dim: usize,
    /// Its extent along `dim`.
    pub rows: i64,
    /// The bytes it takes in the tile: later slices start there.
    pub bytes: i64,
}

/// Which path the innermost window start allows (TMA's 16-byte rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StartPath {
    /// Proved or promised aligned: TMA only.
    Tma,
    /// A constant that is not aligned: the non-TMA path only.
    NonTma,
    /// Decided at run time by `(start & (16 / element_bytes - 1)) == 0`.
    RunTimeCheck,
}

impl StartPath {
    /// The path for a start, with `element_bytes` and the frontend's promise.
    pub fn of(start: Start, element_bytes: u64, promised: bool) -> Self {
        if promised || start.aligned(element_bytes) {
            StartPath::Tma
        } else {
            match start {
                Start::Constant(_) => StartPath::NonTma,
                Start::Dynamic { .. } => StartPath::RunTimeCheck,
            }
        }
    }
}

/// Everything the lowering of one TMA load needs, worked out from the IR.
pub(crate) struct TmaLoadPlan<'c, 'a> {
    pub barrier: Value<'c, 'a>,
    pub element_bytes: u64,
    pub mode: Mode,
    /// The copy window: the tile's shape padded with leading 1s.
    pub window: Vec<i64>,
    pub slice: Option<Slice>,
    /// The tile alignment TMA needs (128 bytes, 8 × the swizzle).
    pub align: u64,
    /// The allocation to raise to `align`.
    pub tile: Root<'c, 'a>,
    /// What this CTA's barrier expects (the leader's, twice, when leader-tracked).
    pub expect_bytes: i64,
    /// The kernel argument behind src, and the window in it.
    pub source: SourceFacts<'c, 'a>,
    pub map: TensorMap,
    /// The boxes of a wide copy (fallback mode, docs/dialect.md, "Wide
    /// tiles"), all on the one barrier; `None`: one box.
    pub boxes: Option<BoxGrid>,
    pub start: StartPath,
    /// The non-TMA path, when `start` may take it.
    pub non_tma: Option<CpAsyncPlan<'c, 'a>>,
}

impl<'c: 'a, 'a> TmaLoadPlan<'c, 'a> {
    /// Plans `view` for `target`'s cluster.
    pub fn of(view: &CopyGmemToSmem<'c, 'a>, target: &Target) -> Result<Self, PlanError> {
        let barrier = view.barrier.ok_or(PlanError::NoBarrier)?;
        let element_type = tile_element(view.dst_type)?;
        let element_bytes = u64::from(element_type.bytes());
        let window = shape::window_shape(view.src_type.rank(), &static_shape(view.dst_type)?);
        let access = Access::of_load(view.oob_mode_or_default());
        let global = source::resolve(view.src).map_err(|_| PlanError::Source)?;
        let source = SourceFacts::read(global, &view.indices, &window, access);
        if source.leaves.is_some() {
            return Err(PlanError::LeavesSubview);
        }
        let mode = mode(view, target)?;
        let split = split(&mode, &window)?;
        let box_shape = shape::tma_box(&window, split);
        let align = shape::tma_smem_alignment(view.swizzle.bytes());
        let slice = slice(split, &box_shape, element_bytes, align)?;
        let expect_bytes = expect_bytes(&mode, &window, element_bytes)?;
        let collective = (mode != Mode::Single).then_some(box_shape.as_slice());
        let boxes = wide_tile::tma_split(&window, collective, element_bytes, view.swizzle.bytes())
            .map_err(|_| PlanError::WideTile)?;
        let map_box = boxes.as_ref().map_or(&box_shape, |grid| &grid.box_shape);
        let map =
            tensor_map_key::tensor_map(source.arg_index, element_type, map_box, view.swizzle)?;
        let innermost = source.innermost_start.ok_or(PlanError::NoIndices)?;
        let start = StartPath::of(innermost, element_bytes, view.assume_aligned_start);
        let non_tma = match start {
            StartPath::Tma => None,
            _ if !tma_fallback_exists(&AcopyOp::CopyGmemToSmem(view.clone())) => {
                return Err(PlanError::NoNonTmaPath)
            }
            _ => Some(CpAsyncPlan::of_tma_fallback(view)?),
        };
        Ok(Self {
            barrier,
            element_bytes,
            mode,
            window,
            slice,
            align,
            tile: view_root(view.dst),
            expect_bytes,
            source,
            map,
            boxes,
            start,
            non_tma,
        })
    }
}

/// The element type of a tile, if a tensor map can describe it.
pub(crate) fn tile_element(tile: melior::ir::r#type::MemRefType) -> Result<ElementType, PlanError> {
    ElementType::from_mlir_name(&crate::run_cache::type_string(tile.element()))
        .ok_or(PlanError::ElementType)
}

fn mode(view: &CopyGmemToSmem, target: &Target) -> Result<Mode, PlanError> {
    let collective = Collective::new(
        target.cluster,
        view.collective_axes.as_deref().unwrap_or(&[]),
    );
    Ok(match view.leader_tracked {
        Some(_) if !collective.is_pair() => return Err(PlanError::NotPair),
        Some(LeaderTracked::Partitioned { axis }) => {
            let rank = view.src_type.rank();
            let axis = usize::try_from(axis)
                .ok()
                .filter(|&axis| axis < rank)
                .ok_or(PlanError::PartitionAxis)?;
            Mode::Partitioned(axis)
        }
        Some(LeaderTracked::Replicated) => Mode::Replicated,
        None if collective.size() > 1 => Mode::Multicast(collective),
        None => Mode::Single,
    })
}

fn split(mode: &Mode, window: &[i64]) -> Result<Option<(usize, u64)>, PlanError> {
    let n = match mode {
        Mode::Multicast(group) => group.size(),
        Mode::Replicated => 2,
        Mode::Single | Mode::Partitioned(_) => return Ok(None),
    };
    let dim = shape::multicast_split_dim(window, n).ok_or(PlanError::NoSplit)?;
    Ok(Some((dim, n)))
}

fn slice(
    split: Option<(usize, u64)>,
    box_shape: &[i64],
    element_bytes: u64,
    align: u64,
) -> Result<Option<Slice>, PlanError> {
    let Some((dim, _)) = split else {
        return Ok(None);
    };
    let bytes = shape::multicast_slice_bytes(box_shape, dim, element_bytes);
    let bytes = i64::try_from(bytes)
        .ok()
        .filter(|bytes| bytes % align as i64 == 0)
        .ok_or(PlanError::Slice)?;
    Ok(Some(Slice {
        dim,
        rows: box_shape[dim],
        bytes,
    }))
}

fn expect_bytes(mode: &Mode, window: &[i64], element_bytes: u64) -> Result<i64, PlanError> {
    let window_bytes = window
        .iter()
        .try_fold(element_bytes as i64, |bytes, &len| bytes.checked_mul(len))
        .ok_or(PlanError::TxCount)?;
    let bytes = if mode.leader_tracked() {
        2 * window_bytes
    } else {
        window_bytes
    };
    if bytes > MAX_TX_COUNT {
        return Err(PlanError::TxCount);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_paths() {
        let dynamic = |divisor| Start::Dynamic { divisor };
        assert_eq!(StartPath::of(Start::Constant(8), 4, false), StartPath::Tma);
        assert_eq!(StartPath::of(Start::Constant(-4), 4, false), StartPath::Tma);
        assert_eq!(
            StartPath::of(Start::Constant(37), 4, false),
            StartPath::NonTma
        );
        assert_eq!(StartPath::of(Start::Constant(37), 4, true), StartPath::Tma);
        assert_eq!(StartPath::of(dynamic(4), 4, false), StartPath::Tma);
        assert_eq!(StartPath::of(dynamic(2), 4, false), StartPath::RunTimeCheck);
        assert_eq!(StartPath::of(dynamic(1), 16, false), StartPath::Tma);
    }

    #[test]
    fn multicast_splits_and_slices() {
        let group = Collective::new([2, 1, 1], &[acopy_dialect::Axis::X]);
        let mode = Mode::Multicast(group);
        let split = split(&mode, &[8, 32]).expect("a split");
        assert_eq!(split, Some((0, 2)));
        let box_shape = shape::tma_box(&[8, 32], split);
        assert_eq!(box_shape, vec![4, 32]);
        assert_eq!(
            slice(split, &box_shape, 4, 128),
            Ok(Some(Slice {
                dim: 0,
                rows: 4,
                bytes: 512
            }))
        );
        // 512-byte slices cannot start 1024-byte aligned.
        assert_eq!(slice(split, &box_shape, 4, 1024), Err(PlanError::Slice));
        assert_eq!(split_of_unsplittable(), Err(PlanError::NoSplit));
    }

    fn split_of_unsplittable() -> Result<Option<(usize, u64)>, PlanError> {
        split(&Mode::Replicated, &[3, 32])
    }

    #[test]
    fn barriers_expect_the_window_twice_when_leader_tracked() {
        assert_eq!(expect_bytes(&Mode::Single, &[64, 32], 4), Ok(8192));
        assert_eq!(expect_bytes(&Mode::Replicated, &[64, 32], 4), Ok(16384));
        assert_eq!(expect_bytes(&Mode::Partitioned(0), &[64, 32], 4), Ok(16384));
        assert_eq!(
            expect_bytes(&Mode::Single, &[1024, 1024], 4),
            Err(PlanError::TxCount)
        );
        assert_eq!(
            expect_bytes(&Mode::Single, &[i64::MAX, 2], 4),
            Err(PlanError::TxCount)
        );
        // The phase's transaction count holds 2^20 - 1 bytes, not one more.
        assert_eq!(expect_bytes(&Mode::Single, &[1_048_575], 1), Ok(1_048_575));
        assert_eq!(
            expect_bytes(&Mode::Single, &[1_048_576], 1),
            Err(PlanError::TxCount)
        );
    }
}
