//! The wgmma matrix descriptor of a shared tile (`acopy.wgmma_descriptor`),
//! worked out from the copies that write the tile, so that the layout the
//! copy wrote and the layout the descriptor describes cannot disagree
//! (docs/dialect.md, "Reading a tile with wgmma").
//!
//! The descriptor (PTX ISA, "Matrix Descriptor Format") is 64 bits: the
//! operand's shared address >> 4 in bits 0-13, the leading dimension byte
//! offset >> 4 in bits 16-29, the stride dimension byte offset >> 4 in bits
//! 32-45, and the swizzle mode in bits 62-63 (1: 128 bytes, 2: 64, 3: 32).
//! For a K-major tile written with swizzle S, each row is exactly S bytes and
//! 8 rows form one repeat of the pattern: the stride byte offset is 8 S (from
//! one group of 8 rows to the next), the leading byte offset is unused (one
//! wgmma K step, 32 bytes, stays inside a row) and is set to 16, and the K
//! step `k` moves the start address by `k` elements within the row; the
//! hardware applies the swizzle to the addresses it forms, as the copy did.
//!
//! A row of several spans (fallback mode's column panels, docs/dialect.md,
//! "Wide tiles") is `n` such tiles one after another: K step `k` reads panel
//! `k·E / S`, so its start is the tile plus that panel's `R·S` bytes plus
//! `k·E mod S`; a K step (32 bytes) never leaves its panel. The panel stride
//! is the writers' rows, so the descriptor must read the whole tile they
//! write (its type theirs), not a view of part of it.
//!
//! An MN-major tile (`major = "mn"`: B of A·B stored K × N row-major, or A
//! stored K × M) has its rows along K and its columns along M/N: row `r` is
//! K index `r`, and the swizzle atom is 8 rows (K) × S bytes (M/N). The
//! hardware reads it with the transpose flag and the same mode bits, but the
//! offsets swap roles (PTX ISA, "Strides"; CUTLASS's MN-major canonical
//! layouts): the stride byte offset is still 8 S (from one group of 8 K rows
//! to the next), and the leading byte offset is the distance from one atom to
//! the next along M/N, which in acopy's layout is the next column panel,
//! `R·S` bytes on (`R` the tile's rows); with one span it is unused and set to
//! 16. K step `k` starts `k` rows down, `k·S` bytes, in every panel alike.
//! wgmma transposes only 16-bit elements, and one K step is 16 rows.

use acopy_dialect::{names, CopyGmemToSmem, Major, Swizzle, WgmmaDescriptor};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, ShapedTypeLike, Value,
};

use super::alignment::{alignment_problem, memory_root};
use crate::ir;

/// Bytes one wgmma K step reads from each row of an operand (16 elements of
/// 2 bytes, 8 of 4 (tf32) or 32 of 1).
pub(crate) const K_STEP_BYTES: u64 = 32;

/// The descriptor's fixed part and what it needs of the start address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DescriptorPlan {
    pub swizzle: Swizzle,
    pub element_bytes: u64,
    /// Bits 16-63 of the descriptor: leading and stride byte offsets, mode.
    pub fixed_bits: u64,
    /// The tile's base must be aligned to one repeat of the swizzle pattern.
    pub base_align: u64,
    /// With a K-major row of several spans: the bytes of one column panel
    /// (the tile's rows × S); K step `k` starts in panel `k·E / S`.
    pub panel_bytes: Option<u64>,
    /// Bytes the start moves per unit of `k`: `E` along a K-major row, `S`
    /// (one row of a panel) down an MN-major tile.
    pub k_bytes: u64,
}

/// Why a tile has no descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DescriptorProblem {
    /// The element type is not one wgmma reads.
    Element(String),
    /// Not a rank-2 tile with rows of whole 8-row groups.
    Shape(String),
    /// No acopy copy in the kernel writes the tile.
    NoWriter,
    /// The copies that write it disagree on the swizzle.
    Writers(Vec<u32>),
    /// Written unswizzled: wgmma reads such a tile only as core matrices.
    Unswizzled,
    /// The row is not a whole number of swizzle spans.
    Row {
        row_bytes: u64,
        swizzle: u32,
        major: Major,
    },
    /// A tile of column panels read through a view other than the tile its
    /// copies write (whose rows give the panel stride).
    PanelView { writer: String },
    /// An M/N-major read of an element wgmma does not transpose.
    MnElement(String),
    /// An M/N-major tile whose rows (K) are not whole K steps.
    MnRows { rows: i64, step: u64 },
    /// A constant K offset that is no whole K step inside the row (K-major)
    /// or the tile's rows (MN-major).
    KOffset {
        k: i64,
        step: u64,
        row: u64,
        major: Major,
    },
    /// The tile cannot be aligned to one repeat of the swizzle pattern.
    Alignment(String),
}

impl std::fmt::Display for DescriptorProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DescriptorProblem::Element(element) => write!(
                f,
                "wgmma reads f16, bf16, f32 (as tf32) and 8-bit elements, but the tile holds {element}"
            ),
            DescriptorProblem::Shape(tile) => write!(
                f,
                "the tile must be rank 2 with a multiple of 8 rows (wgmma reads 8-row core matrices), but it is {tile}"
            ),
            DescriptorProblem::NoWriter => write!(
                f,
                "no acopy.copy_gmem_to_smem in the kernel writes the tile, so its layout is unknown"
            ),
            DescriptorProblem::Writers(swizzles) => write!(
                f,
                "the copies that write the tile use different swizzles ({})",
                swizzles
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            DescriptorProblem::Unswizzled => write!(
                f,
                "the copies that write the tile have swizzle = 0; wgmma reads a row-major tile only through a swizzled layout: copy it with swizzle = 32, 64 or 128 (rows of exactly that many bytes)"
            ),
            DescriptorProblem::Row {
                row_bytes,
                swizzle,
                major: Major::K,
            } => write!(
                f,
                "a K-major tile written with swizzle = {swizzle} needs rows of a whole number of {swizzle}-byte spans (one, or column panels: docs/dialect.md, \"Wide tiles\"), but its rows have {row_bytes} bytes"
            ),
            DescriptorProblem::Row {
                row_bytes,
                swizzle,
                major: Major::Mn,
            } => write!(
                f,
                "an MN-major tile written with swizzle = {swizzle} needs rows (its M or N extent, which one wgmma reads whole) of a whole number of {swizzle}-byte spans: {n} elements, or column panels of them (docs/dialect.md, \"Wide tiles\"), but its rows have {row_bytes} bytes",
                n = swizzle / 2
            ),
            DescriptorProblem::PanelView { writer } => write!(
                f,
                "its copies write {writer} as column panels (docs/dialect.md, \"Wide tiles\"), whose stride is that tile's rows, so the descriptor must read that whole tile, with that type"
            ),
            DescriptorProblem::MnElement(element) => write!(
                f,
                "major = \"mn\" needs f16 or bf16 elements (wgmma transposes only 16-bit operands), but the tile holds {element}: copy the operand K-major (its rows along K) and use major = \"k\""
            ),
            DescriptorProblem::MnRows { rows, step } => write!(
                f,
                "an MN-major tile's rows run along K, so it needs a multiple of {step} rows (one wgmma K step), but it has {rows}"
            ),
            DescriptorProblem::KOffset {
                k,
                step,
                row,
                major: Major::K,
            } => write!(
                f,
                "k = {k} must be a multiple of the wgmma K step ({step} elements) with k + {step} <= {row}, the row length"
            ),
            DescriptorProblem::KOffset {
                k,
                step,
                row,
                major: Major::Mn,
            } => write!(
                f,
                "k = {k} must be a multiple of the wgmma K step ({step} rows) with k + {step} <= {row}, the rows of the MN-major tile (its K extent)"
            ),
            DescriptorProblem::Alignment(why) => write!(f, "{why}"),
        }
    }
}

/// Element bytes of the wgmma operand types: f16, bf16, f32 (as tf32) and the
/// 8-bit integer and float types.
fn element_bytes(element: melior::ir::Type) -> Option<u64> {
    let text = element.to_string();
    match text.as_str() {
        "f16" | "bf16" => Some(2),
        "f32" => Some(4),
        "i8" | "si8" | "ui8" | "f8E4M3FN" | "f8E5M2" => Some(1),
        _ => None,
    }
}

/// A tile a copy writes: its type, and its row length in elements (`None`
/// when dynamic).
pub(crate) type WrittenTile = (String, Option<i64>);

/// The swizzle of the copies in `function` that write `tile` (the same
/// memory, through any views), and the tiles they write: what every reader of
/// a tile (this descriptor, `super::swizzled_index`) takes its layout from.
pub(crate) fn writers(
    tile: Value,
    function: OperationRef,
) -> Result<(Swizzle, Vec<WrittenTile>), DescriptorProblem> {
    let root = memory_root(tile);
    let mut found: Vec<Swizzle> = Vec::new();
    let mut tiles: Vec<WrittenTile> = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if ir::named(&op, names::COPY_GMEM_TO_SMEM) {
            if let Ok(copy) = CopyGmemToSmem::from_op(op) {
                if memory_root(copy.dst) == root {
                    if !found.contains(&copy.swizzle) {
                        found.push(copy.swizzle);
                    }
                    let row = ir::shape(copy.dst_type).last().copied().flatten();
                    let tile = (copy.dst_type.to_string(), row);
                    if !tiles.contains(&tile) {
                        tiles.push(tile);
                    }
                }
            }
        }
        WalkResult::Advance
    });
    match found.as_slice() {
        [] => Err(DescriptorProblem::NoWriter),
        [one] => Ok((*one, tiles)),
        many => Err(DescriptorProblem::Writers(
            many.iter().map(|s| s.bytes()).collect(),
        )),
    }
}

/// The bytes of a column panel when rows are several spans, after checking
/// that a descriptor of a tile some copy writes as column panels reads
/// exactly the tiles its writers write (module comment): a view of one
/// panel, or of some rows, would get the wrong panel stride.
pub(crate) fn panels(
    (rows, row_bytes, span): (i64, u64, u64),
    (tile, element_bytes): (&str, u64),
    writer_tiles: &[WrittenTile],
) -> Result<Option<u64>, DescriptorProblem> {
    let paneled = |(_, row): &WrittenTile| {
        row.is_none_or(|row| (row as u64).saturating_mul(element_bytes) != span)
    };
    if writer_tiles.iter().any(paneled) {
        if let Some((writer, _)) = writer_tiles.iter().find(|(writer, _)| writer != tile) {
            return Err(DescriptorProblem::PanelView {
                writer: writer.clone(),
            });
        }
    }
    Ok((row_bytes != span).then(|| rows as u64 * span))
}

/// The attribute a wgmma descriptor's plan rides on (`super::pinned`).
const PINNED: &str = crate::ir::op_names::attributes::DESCRIPTOR_PLAN;

/// Pins the plan of every `wgmma_descriptor` under `operation` on its op, for
/// [`DescriptorPlan::of`] to read from then on. `acopy-lower` calls it on the
/// verified IR before the pipeliner runs: with slots in dynamic shared memory
/// every tile becomes a view of one buffer, so the copies of every tile would
/// then count as writers of each and a swizzled tile beside an unswizzled one
/// would be refused; and the copies' lowering erases the writers the plan
/// reads (`super::pinned`).
pub(crate) fn pin(operation: OperationRef) {
    let mut plans = Vec::new();
    operation.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        // By name first: a view's refusal spells the op's name into a String,
        // and this walk sees every op of the module.
        if !ir::named(&op, names::WGMMA_DESCRIPTOR) {
            return melior::ir::operation::WalkResult::Advance;
        }
        if let Ok(view) = WgmmaDescriptor::from_op(op) {
            if let Ok(plan) = DescriptorPlan::from_writers(&view) {
                plans.push((op.to_raw(), plan.words()));
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    for (raw, words) in plans {
        // SAFETY: found by the walk above, under `operation`, which lives.
        let op = unsafe { OperationRef::from_raw(raw) };
        super::pinned::pin(op, PINNED, &words);
    }
}

impl DescriptorPlan {
    /// The plan of `view`'s descriptor, or the first reason it has none: the
    /// one pinned on it ([`pin`]), else from the copies that write its tile now.
    pub(crate) fn of(view: &WgmmaDescriptor) -> Result<Self, DescriptorProblem> {
        let pinned = super::pinned::read(view.op, PINNED);
        match pinned.and_then(|words| Self::from_words(&words)) {
            Some(plan) => Ok(plan),
            None => Self::from_writers(view),
        }
    }

    /// The plan as the words [`pin`] stores (-1: no column panels).
    fn words(self) -> [i64; 6] {
        [
            i64::from(self.swizzle.bytes()),
            self.element_bytes as i64,
            self.fixed_bits as i64,
            self.base_align as i64,
            self.panel_bytes.map_or(-1, |bytes| bytes as i64),
            self.k_bytes as i64,
        ]
    }

    /// The plan [`words`](Self::words) stored, if the words are one.
    fn from_words(words: &[i64]) -> Option<Self> {
        let word = |index: usize| words.get(index).and_then(|w| u64::try_from(*w).ok());
        Some(DescriptorPlan {
            swizzle: Swizzle::from_bytes(*words.first()?)?,
            element_bytes: word(1)?,
            fixed_bits: *words.get(2)? as u64,
            base_align: word(3)?,
            panel_bytes: word(4),
            k_bytes: word(5)?,
        })
    }

    /// The plan of `view`'s descriptor from the copies that write its tile now.
    fn from_writers(view: &WgmmaDescriptor) -> Result<Self, DescriptorProblem> {
        let tile = view.tile_type;
        let element = tile.element();
        let element_bytes = element_bytes(element)
            .ok_or_else(|| DescriptorProblem::Element(element.to_string()))?;
        let shape = ir::shape(tile);
        let (rows, row) = match shape.as_slice() {
            [Some(rows), Some(row)] if rows % 8 == 0 && *row > 0 => (*rows, *row as u64),
            _ => return Err(DescriptorProblem::Shape(tile.to_string())),
        };
        let step = K_STEP_BYTES / element_bytes;
        if view.major == Major::Mn {
            if element_bytes != 2 {
                return Err(DescriptorProblem::MnElement(element.to_string()));
            }
            if !(rows as u64).is_multiple_of(step) {
                return Err(DescriptorProblem::MnRows { rows, step });
            }
        }
        let function = crate::target::enclosing(view.op, crate::ir::op_names::gpu::FUNC)
            .ok_or(DescriptorProblem::NoWriter)?;
        let (swizzle, writer_tiles) = writers(view.tile, function)?;
        let span = u64::from(swizzle.bytes());
        if span == 0 {
            return Err(DescriptorProblem::Unswizzled);
        }
        let row_bytes = row.saturating_mul(element_bytes);
        if !row_bytes.is_multiple_of(span) {
            return Err(DescriptorProblem::Row {
                row_bytes,
                swizzle: swizzle.bytes(),
                major: view.major,
            });
        }
        let panel_bytes = panels(
            (rows, row_bytes, span),
            (&tile.to_string(), element_bytes),
            &writer_tiles,
        )?;
        if let Some(why) = alignment_problem(view.tile, element_bytes, 8 * span) {
            return Err(DescriptorProblem::Alignment(why));
        }
        // The K extent: a K-major row, an MN-major tile's rows.
        let extent = match view.major {
            Major::K => row,
            Major::Mn => rows as u64,
        };
        if let Some(k) = ir::constant_int(view.k) {
            if k < 0 || !(k as u64).is_multiple_of(step) || k as u64 + step > extent {
                return Err(DescriptorProblem::KOffset {
                    k,
                    step,
                    row: extent,
                    major: view.major,
                });
            }
        }
        Ok(Self::for_major(
            view.major,
            (swizzle, element_bytes),
            panel_bytes,
        ))
    }

    /// The plan of a tile of `span`-byte rows (`panel_bytes` per column panel
    /// when several) read `major`-major (module comment).
    fn for_major(
        major: Major,
        (swizzle, element_bytes): (Swizzle, u64),
        panel_bytes: Option<u64>,
    ) -> Self {
        let span = u64::from(swizzle.bytes());
        let (leading, k_bytes, panel_bytes) = match major {
            Major::K => (16, element_bytes, panel_bytes),
            Major::Mn => (panel_bytes.unwrap_or(16), span, None),
        };
        DescriptorPlan {
            swizzle,
            element_bytes,
            fixed_bits: fixed_bits(span, leading),
            base_align: 8 * span,
            panel_bytes,
            k_bytes,
        }
    }
}

/// Bits 16-63 for a tile of `span`-byte swizzled rows: the leading byte
/// offset `leading` (16, unused, for K-major and one-span MN-major tiles; the
/// column panel's bytes for MN-major panels), stride byte offset 8 `span`
/// (from one group of 8 rows to the next), the mode of `span`.
pub(crate) fn fixed_bits(span: u64, leading: u64) -> u64 {
    let mode: u64 = match span {
        128 => 1,
        64 => 2,
        _ => 3,
    };
    let leading = (leading >> 4) & 0x3FFF;
    let stride = (8 * span) >> 4;
    (leading << 16) | (stride << 32) | (mode << 62)
}

#[cfg(test)]
mod tests {
    use super::{fixed_bits, panels, DescriptorPlan, DescriptorProblem, Swizzle};

    /// A plan pinned on its op reads back as itself, with and without
    /// column panels (`crate::plan::pinned`); a word out of range is no plan.
    #[test]
    fn a_pinned_plan_reads_back_as_itself() {
        let plan = DescriptorPlan {
            swizzle: Swizzle::B128,
            element_bytes: 2,
            fixed_bits: 0x4000_0040_0001_0000,
            base_align: 1024,
            panel_bytes: Some(8192),
            k_bytes: 2,
        };
        assert_eq!(DescriptorPlan::from_words(&plan.words()), Some(plan));
        let unpaneled = DescriptorPlan {
            panel_bytes: None,
            swizzle: Swizzle::B64,
            ..plan
        };
        assert_eq!(unpaneled.words()[4], -1);
        assert_eq!(
            DescriptorPlan::from_words(&unpaneled.words()),
            Some(unpaneled)
        );
        assert_eq!(DescriptorPlan::from_words(&[128, 2]), None);
        assert_eq!(DescriptorPlan::from_words(&[48, 2, 0, 1024, -1, 2]), None);
    }

    /// A tile of two 128-byte panels: K steps go to panel 1 at 64 · 128
    /// bytes; a view of one panel of it would use its own rows, so it is
    /// refused; a one-span tile has no panels, whatever view reads it.
    #[test]
    fn panel_stride_comes_from_the_written_tile() {
        let whole = "memref<64x128xf16, 3>".to_string();
        let writers = [(whole.clone(), Some(128))];
        assert_eq!(
            panels((64, 256, 128), (&whole, 2), &writers),
            Ok(Some(8192))
        );
        let half = "memref<64x64xf16, strided<[128, 1], offset: 64>, 3>";
        assert_eq!(
            panels((64, 128, 128), (half, 2), &writers),
            Err(DescriptorProblem::PanelView { writer: whole })
        );
        let one_span = [("memref<64x64xf16, 3>".to_string(), Some(64))];
        assert_eq!(panels((64, 128, 128), (half, 2), &one_span), Ok(None));
    }

    /// The 128-byte pattern's bits are the ones the hand-written
    /// kernel used (leading 16, stride 1024, mode 1), and each field moves
    /// with the span.
    #[test]
    fn fixed_bits_per_swizzle() {
        assert_eq!(fixed_bits(128, 16), 4_611_686_293_305_360_384);
        assert_eq!(fixed_bits(128, 16), (1 << 16) | (64 << 32) | (1 << 62));
        assert_eq!(fixed_bits(64, 16), (1 << 16) | (32 << 32) | (2 << 62));
        assert_eq!(fixed_bits(32, 16), (1 << 16) | (16 << 32) | (3 << 62));
    }

    /// MN-major: a 64 x 128 f16 tile (K = 64 rows, N = 128) with swizzle 128
    /// is two column panels of 64 rows x 128 bytes; the leading byte offset is
    /// the panel (8192 bytes, field 512), the stride byte offset one 8-row
    /// atom (1024, field 64), and K step k moves the start k rows of 128
    /// bytes. A one-span tile keeps the unused leading offset 16.
    #[test]
    fn mn_major_bits() {
        use acopy_dialect::{Major, Swizzle};
        let swizzle = Swizzle::B128;
        let plan = DescriptorPlan::for_major(Major::Mn, (swizzle, 2), Some(8192));
        assert_eq!(plan.fixed_bits, (512 << 16) | (64 << 32) | (1 << 62));
        assert_eq!(plan.k_bytes, 128);
        assert_eq!(plan.panel_bytes, None);
        let one = DescriptorPlan::for_major(Major::Mn, (swizzle, 2), None);
        assert_eq!(one.fixed_bits, fixed_bits(128, 16));
        let k_major = DescriptorPlan::for_major(Major::K, (swizzle, 2), Some(8192));
        assert_eq!((k_major.k_bytes, k_major.panel_bytes), (2, Some(8192)));
    }
}
