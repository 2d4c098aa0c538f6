//! Why a copy has no plan. Every plan file returns it, so it sits below them.

/// Why a copy has no plan: a fact the lowering cannot build from. Verified IR
/// never has one (see the module comment), so these name the fact, not the
/// documented rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the element type has no copy width")]
    ElementType,
    #[error("the shared tile has a dynamic shape")]
    DynamicTile,
    #[error("a memref's layout is not strided")]
    NotStrided,
    #[error("dst has more dimensions than src")]
    Rank,
    #[error("a contiguous row of {0} bytes is not a multiple of 4")]
    RowBytes(u64),
    #[error("the reduction has no TMA form")]
    Reduction,
    #[error("a TMA load has no barrier")]
    NoBarrier,
    #[error("a copy has no indices")]
    NoIndices,
    #[error("the global memref does not resolve to a kernel argument")]
    Source,
    #[error("the window may leave the global memref's subview")]
    LeavesSubview,
    #[error("leader_tracked over a group that is not a CTA pair")]
    NotPair,
    #[error("partition_axis is outside the window")]
    PartitionAxis,
    #[error("the window has no dimension to split over the group")]
    NoSplit,
    #[error("the per-CTA slice is not a whole number of tile alignments")]
    Slice,
    #[error("the barrier would expect more bytes than a transaction count holds")]
    TxCount,
    #[error("the tensor map's argument or box is out of range")]
    TensorMap,
    #[error("the innermost start may be misaligned and the copy has no non-TMA path")]
    NoNonTmaPath,
    #[error("a wide tile cannot be split into panels or boxes")]
    WideTile,
}
