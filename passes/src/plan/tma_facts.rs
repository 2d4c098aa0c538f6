//! What the TMA rules (A18–A27) see about a copy beyond its types: the kernel
//! argument behind its global memref, where its window starts in that
//! argument, whether the window may leave a subview, and whether its shared
//! tile can be aligned ([`super::source`], [`super::alignment`],
//! [`super::divisor`]). The TMA plans are built from the same facts, so
//! verification and lowering cannot disagree.
//!
//! It also holds [`tma_fallback_exists`]: which TMA copies have a correct
//! non-TMA path, taken when their innermost window start is not 16-byte
//! aligned (rule A18 in fallback mode, and at run time for dynamic starts).

use acopy_dialect::{AcopyOp, CopyGmemToSmem, CopySmemToGmem};
use melior::ir::{OperationRef, Value};

use super::{
    alignment,
    divisor::{pow2_divisor, pow2_of_constant},
    shape,
    source::{self, Access, GlobalSource, Offset, SourceError},
};
use crate::ir;

/// The innermost window start of a TMA copy, in elements of the kernel
/// argument: the copy's innermost index plus the subview's offset there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Both are constants.
    Constant(i128),
    /// Known at run time; `divisor` is the largest power of two proved to
    /// divide it ([`super::divisor`]).
    Dynamic { divisor: u64 },
}

impl Start {
    /// Whether the start, in bytes, is a multiple of 16 (a proof for a
    /// dynamic start).
    pub fn aligned(self, element_bytes: u64) -> bool {
        match self {
            Start::Constant(start) => (start * i128::from(element_bytes)) % 16 == 0,
            Start::Dynamic { divisor } => {
                (u128::from(divisor) * u128::from(element_bytes)) % 16 == 0
            }
        }
    }
}

/// The kernel argument behind a TMA copy's global memref, and its window.
pub(crate) struct SourceFacts<'c, 'a> {
    pub kernel: OperationRef<'c, 'a>,
    pub arg_index: usize,
    /// The view's offsets in the argument, one per dimension.
    pub offsets: Vec<Offset<'c, 'a>>,
    /// `None` for a copy without indices (malformed; the view refuses it).
    pub innermost_start: Option<Start>,
    /// The window start along each dimension (index plus subview offset),
    /// where both are constants: the coordinates TMA gets (A17).
    pub constant_starts: Vec<Option<i128>>,
    /// The first dimension along which the window may leave a subview (A22).
    pub leaves: Option<usize>,
    pub access: Access,
}

/// The TMA facts of a copy on a TMA chip.
pub(crate) struct TmaFacts<'c, 'a> {
    pub source: Result<SourceFacts<'c, 'a>, SourceError>,
    /// Why the shared tile's alignment cannot be guaranteed (A25), if so.
    pub tile_alignment: Option<String>,
}

impl<'c: 'a, 'a> TmaFacts<'c, 'a> {
    /// Reads the facts of a load or store; `None` for other ops.
    pub fn read(view: &AcopyOp<'c, 'a>, element_bytes: Option<u64>) -> Option<Self> {
        let (global, tile, indices, access, swizzle) = match view {
            AcopyOp::CopyGmemToSmem(load) => (
                load.src,
                load.dst,
                &load.indices,
                Access::of_load(load.oob_mode_or_default()),
                load.swizzle.bytes(),
            ),
            AcopyOp::CopySmemToGmem(store) => (
                store.dst,
                store.src,
                &store.indices,
                Access::Store,
                store.swizzle.bytes(),
            ),
            _ => return None,
        };
        let tile_shape: Vec<i64> =
            melior::ir::r#type::MemRefType::try_from(melior::ir::ValueLike::r#type(&tile))
                .ok()
                .map(ir::shape)
                .and_then(|shape| shape.into_iter().collect())
                .unwrap_or_default();
        let global_rank = indices.len();
        let window = shape::window_shape(global_rank, &tile_shape);
        let source = source::resolve(global)
            .map(|resolved| SourceFacts::read(resolved, indices, &window, access));
        let tile_alignment = element_bytes.and_then(|bytes| {
            alignment::alignment_problem(tile, bytes, shape::tma_smem_alignment(swizzle))
        });
        Some(Self {
            source,
            tile_alignment,
        })
    }
}

impl<'c, 'a> SourceFacts<'c, 'a> {
    /// The facts of a copy at `indices` with `window` through `global`.
    pub fn read(
        global: GlobalSource<'c, 'a>,
        indices: &[Value<'c, 'a>],
        window: &[i64],
        access: Access,
    ) -> Self {
        let constant_starts = constant_starts(indices, &global.offsets);
        SourceFacts {
            kernel: global.kernel,
            arg_index: global.arg_index,
            innermost_start: innermost_start(indices, &global.offsets, &constant_starts),
            constant_starts,
            leaves: global.window_leaves(indices, window, access),
            access,
            offsets: global.offsets,
        }
    }
}

/// The window start along each dimension where index and offset are both
/// constants (the sum `GlobalSource::window_start` emits).
fn constant_starts(indices: &[Value], offsets: &[Offset]) -> Vec<Option<i128>> {
    indices
        .iter()
        .zip(offsets)
        .map(|(index, offset)| match (ir::constant_int(*index), offset) {
            (Some(index), Offset::Static(offset)) => Some(i128::from(index) + i128::from(*offset)),
            _ => None,
        })
        .collect()
}

fn innermost_start(
    indices: &[Value],
    offsets: &[Offset],
    constant_starts: &[Option<i128>],
) -> Option<Start> {
    let index = *indices.last()?;
    if let Some(Some(start)) = constant_starts.last() {
        return Some(Start::Constant(*start));
    }
    let index_divisor =
        ir::constant_int(index).map_or_else(|| pow2_divisor(index), pow2_of_constant);
    let offset_divisor = match offsets.last() {
        Some(Offset::Static(offset)) => pow2_of_constant(*offset),
        Some(Offset::Dynamic(value)) => pow2_divisor(*value),
        None => pow2_of_constant(0),
    };
    Some(Start::Dynamic {
        divisor: index_divisor.min(offset_divisor),
    })
}

/// Why a TMA load has no correct non-TMA path, if it has none: a
/// leader-tracked (`cta_group::2`) load completes the leader CTA's barrier,
/// which another CTA's cp.async cannot reach. (Swizzled tiles have one: the
/// cp.async path lays out TMA's swizzle pattern.)
pub fn load_without_fallback(load: &CopyGmemToSmem) -> Option<&'static str> {
    load.leader_tracked.map(|_| "leader_tracked load")
}

/// Why a TMA store has no correct non-TMA path, if it has none: never, since
/// stores have element-wise stores and reductions atomics
/// (`lower/tma/element_store.rs`).
pub fn store_without_fallback(_store: &CopySmemToGmem) -> Option<&'static str> {
    None
}

/// Whether a TMA copy (`copy_gmem_to_smem` or `copy_smem_to_gmem`) has a
/// correct non-TMA path for a misaligned innermost window start (or, for a
/// store, a negative one): loads without `leader_tracked`, and every store. In fallback mode rule A18 is waived for exactly these
/// copies (the lowering takes the cp.async-based path for a constant
/// misaligned start); rule A19 asks the others for a provable or promised
/// alignment of a dynamic start; the lowering calls this to decide whether a
/// dynamic start gets a run-time check with the non-TMA path behind it.
/// `false` for any other op.
pub(crate) fn tma_fallback_exists(view: &AcopyOp) -> bool {
    no_fallback_reason(view).is_none()
        && matches!(
            view,
            AcopyOp::CopyGmemToSmem(_) | AcopyOp::CopySmemToGmem(_)
        )
}

/// Why `view` has no non-TMA path (see [`tma_fallback_exists`]), if so.
pub fn no_fallback_reason(view: &AcopyOp) -> Option<&'static str> {
    match view {
        AcopyOp::CopyGmemToSmem(load) => load_without_fallback(load),
        AcopyOp::CopySmemToGmem(store) => store_without_fallback(store),
        _ => Some("not a copy"),
    }
}

/// Whether the op carries [`acopy_dialect::ASSUME_ALIGNED_START`], the
/// frontend's promise (rule A19 trusts it; the lowering emits no check).
pub fn assumes_aligned_start(view: &AcopyOp) -> bool {
    match view {
        AcopyOp::CopyGmemToSmem(load) => load.assume_aligned_start,
        AcopyOp::CopySmemToGmem(store) => store.assume_aligned_start,
        _ => false,
    }
}
