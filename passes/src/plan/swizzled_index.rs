//! Where a logical element of a shared tile is stored (`acopy.swizzled_index`,
//! docs/dialect.md, "acopy.swizzled_index"), worked out from the copies that
//! write the tile, as `super::wgmma_descriptor` does for wgmma, so that the
//! layout a copy wrote and the index its reader uses cannot disagree.
//!
//! Logical byte `o = row·W·E + col·E` of an `R × W` tile of `E`-byte elements
//! written with swizzle `S` is placed in its column panel when a row is
//! several spans (docs/dialect.md, "Wide tiles"), then moved by TMA's
//! pattern (`pattern`): the two steps the copy lowerings take for every
//! chunk, computed here per part (`IndexPlan::physical`). The stored byte `p` is element (`p / (W·E)`,
//! `(p mod W·E) / E`) of the same tile: the pattern moves whole 16-byte
//! units within a row, and `E` divides 16, so `p` is a whole element.

use acopy_dialect::SwizzledIndex;
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, ShapedTypeLike,
};

use super::alignment::alignment_problem;
use super::pinned;
use super::wgmma_descriptor::{self, DescriptorProblem};
use super::wide_tile::{self, Panels, SplitProblem};
use crate::ir;
use crate::ir::memref_layout::{element_bytes, static_layout, Static};

/// How a reader indexes a tile: the layout facts of the copies that write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndexPlan {
    /// The writers' swizzle in bytes; 0 for none (the index is the identity).
    pub swizzle: u32,
    pub element_bytes: u64,
    /// Bytes of one row of the tile (`W·E`).
    pub row_bytes: u64,
    /// The column panels of a row of several spans.
    pub panels: Option<Panels>,
}

/// Why a tile cannot be indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IndexProblem {
    /// An element of other than 1, 2, 4 or 8 bytes (16 must be a whole
    /// number of them, so that a 16-byte unit holds whole elements).
    Element(String),
    /// Not rank 2 with contiguous rows.
    Shape(String),
    /// No writer, or writers that disagree (the descriptor's texts).
    Writers(DescriptorProblem),
    /// The row is not a whole number of swizzle spans.
    Row { row_bytes: u64, swizzle: u32 },
    /// Column panels that cannot be laid out (fewer than 8-row patterns).
    Panels(SplitProblem),
    /// A tile of column panels read through a view other than its writers'.
    PanelView { writer: String },
    /// A tile of rows of several spans that its writers do not write as
    /// column panels (they write another view of its memory).
    NotPaneled { writer: String },
    /// The tile does not start on a whole swizzle pattern.
    Alignment(String),
}

impl std::fmt::Display for IndexProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexProblem::Element(element) => write!(
                f,
                "the swizzle moves 16-byte units, which must hold whole elements of 1, 2, 4 or 8 bytes, but the tile holds {element}"
            ),
            IndexProblem::Shape(tile) => write!(
                f,
                "the tile must be rank 2 with contiguous rows (strides [W, 1]), but it is {tile}"
            ),
            IndexProblem::Writers(problem) => write!(f, "{problem}"),
            IndexProblem::Row { row_bytes, swizzle } => write!(
                f,
                "a tile written with swizzle = {swizzle} needs rows of a whole number of {swizzle}-byte spans (one, or column panels: docs/dialect.md, \"Wide tiles\"), but its rows have {row_bytes} bytes"
            ),
            IndexProblem::Panels(problem) => write!(f, "{problem}"),
            IndexProblem::PanelView { writer } => write!(
                f,
                "its copies write {writer} as column panels (docs/dialect.md, \"Wide tiles\"), whose stride is that tile's rows, so the index must read that whole tile, with that type"
            ),
            IndexProblem::NotPaneled { writer } => write!(
                f,
                "its rows are several swizzle spans, laid out as column panels (docs/dialect.md, \"Wide tiles\") only by copies that write that very tile, but its copies write {writer}"
            ),
            IndexProblem::Alignment(why) => write!(f, "the tile {why}"),
        }
    }
}

/// Where TMA's `span`-byte swizzle moves byte `offset` of a tile that starts
/// on a whole pattern: bits 7.. (the 128-byte line, mod `span / 16`) XORed
/// into bits 4.. (the 16-byte unit), docs/lowering-tma.md; 0 moves nothing.
/// `crate::lower::cp_async`'s pattern builds the same XOR in IR, and
/// `IndexPlan::physical` computes it per part; the tests hold the three to it.
#[cfg(test)]
pub(crate) fn pattern(offset: u64, span: u32) -> u64 {
    if span < 32 {
        return offset;
    }
    let units = u64::from(span / 16);
    offset ^ ((offset >> 3) & ((units - 1) << 4))
}

/// The attribute a swizzled index's plan rides on (`super::pinned`).
const PINNED: &str = crate::ir::op_names::attributes::INDEX_PLAN;

/// Pins the plan of every `swizzled_index` under `operation` on its op, for
/// [`IndexPlan::of`] to read from then on. `acopy-lower` calls it on the
/// verified IR before the pipeliner runs (`super::pinned` says why).
pub(crate) fn pin(operation: OperationRef) {
    let mut plans = Vec::new();
    operation.walk(WalkOrder::PreOrder, |op| {
        // By name first: a view's refusal spells the op's name into a String,
        // and this walk sees every op of the module.
        if !ir::named(&op, acopy_dialect::names::SWIZZLED_INDEX) {
            return WalkResult::Advance;
        }
        if let Ok(view) = SwizzledIndex::from_op(op) {
            if let Ok(plan) = IndexPlan::from_writers(&view) {
                plans.push((op.to_raw(), plan.words()));
            }
        }
        WalkResult::Advance
    });
    for (raw, words) in plans {
        // SAFETY: found by the walk above, under `operation`, which lives.
        let op = unsafe { OperationRef::from_raw(raw) };
        pinned::pin(op, PINNED, &words);
    }
}

impl IndexPlan {
    /// The plan of `view`'s index, or the first reason it has none: the one
    /// pinned on it ([`pin`]), else from the copies that write its tile now.
    pub(crate) fn of(view: &SwizzledIndex) -> Result<Self, IndexProblem> {
        match pinned::read(view.op, PINNED).and_then(|words| Self::from_words(&words)) {
            Some(plan) => Ok(plan),
            None => Self::from_writers(view),
        }
    }

    /// The plan as the words [`pin`] stores.
    fn words(self) -> [i64; 6] {
        let panels = self.panels.map_or([0; 3], |p| [p.span, p.count, p.rows]);
        [
            i64::from(self.swizzle),
            self.element_bytes as i64,
            self.row_bytes as i64,
            panels[0] as i64,
            panels[1] as i64,
            panels[2] as i64,
        ]
    }

    /// The plan [`words`](Self::words) stored, if the words are one.
    fn from_words(words: &[i64]) -> Option<Self> {
        let word = |index: usize| words.get(index).and_then(|w| u64::try_from(*w).ok());
        let span = word(3)?;
        Some(IndexPlan {
            swizzle: u32::try_from(word(0)?).ok()?,
            element_bytes: word(1)?,
            row_bytes: word(2)?,
            panels: (span > 0).then_some(Panels {
                span,
                count: word(4)?,
                rows: word(5)?,
            }),
        })
    }

    /// The plan of `view`'s index from the copies that write its tile now.
    fn from_writers(view: &SwizzledIndex) -> Result<Self, IndexProblem> {
        let tile = view.tile_type;
        let element = tile.element();
        let element_bytes =
            element_bytes(element).ok_or_else(|| IndexProblem::Element(element.to_string()))?;
        let (rows, row) = rows_and_row(view)?;
        let function = crate::target::enclosing(view.op, crate::ir::op_names::gpu::FUNC)
            .ok_or(IndexProblem::Writers(DescriptorProblem::NoWriter))?;
        let (swizzle, writer_tiles) =
            wgmma_descriptor::writers(view.tile, function).map_err(IndexProblem::Writers)?;
        let span = swizzle.bytes();
        let row_bytes = row as u64 * element_bytes;
        let plan = |panels| IndexPlan {
            swizzle: span,
            element_bytes,
            row_bytes,
            panels,
        };
        if span == 0 {
            return Ok(plan(None));
        }
        if !row_bytes.is_multiple_of(u64::from(span)) {
            return Err(IndexProblem::Row {
                row_bytes,
                swizzle: span,
            });
        }
        let tile_text = tile.to_string();
        if row_bytes != u64::from(span) {
            if let Some((writer, _)) = writer_tiles.iter().find(|(writer, _)| *writer != tile_text)
            {
                return Err(IndexProblem::NotPaneled {
                    writer: writer.clone(),
                });
            }
        }
        let described = (rows, row_bytes, u64::from(span));
        wgmma_descriptor::panels(described, (&tile_text, element_bytes), &writer_tiles).map_err(
            |problem| match problem {
                DescriptorProblem::PanelView { writer } => IndexProblem::PanelView { writer },
                other => IndexProblem::Writers(other),
            },
        )?;
        let panels =
            wide_tile::panels(&[rows, row], element_bytes, span).map_err(IndexProblem::Panels)?;
        if let Some(why) = alignment_problem(view.tile, element_bytes, 8 * u64::from(span)) {
            return Err(IndexProblem::Alignment(why));
        }
        Ok(plan(panels))
    }

    /// The stored (row, column) of logical element (`row`, `col`): the
    /// module comment's formula, which the lowering builds in IR for indices
    /// only known at run time.
    ///
    /// Computed per part, as the lowering builds it: the pattern XORs a
    /// byte's 16-byte unit within its span with bits 7 and up of its offset,
    /// which come from the row alone (a span holds at most 128 bytes and a
    /// panel starts on a multiple of 8 spans, its rows being a multiple of 8).
    pub(crate) fn physical(&self, row: u64, col: u64) -> (u64, u64) {
        let span = u64::from(self.swizzle);
        if span == 0 {
            return (row, col);
        }
        // A34 leaves a swizzled row of one span, or of several in column panels.
        let col_bytes = col * self.element_bytes;
        let row_start = row * span;
        let unit_bits = ((row_start / 128) % (span / 16)) * 16;
        let moved = (col_bytes % span) ^ unit_bits;
        let Some(panels) = &self.panels else {
            return (row, moved / self.element_bytes);
        };
        let stored = (col_bytes / span) * panels.bytes() + row_start + moved;
        (
            stored / self.row_bytes,
            (stored % self.row_bytes) / self.element_bytes,
        )
    }
}

/// The tile's rows and row length, when it is rank 2 with contiguous rows.
fn rows_and_row(view: &SwizzledIndex) -> Result<(i64, i64), IndexProblem> {
    let tile = view.tile_type;
    let shape = ir::shape(tile);
    let strides = static_layout(tile).map(|(strides, _)| strides);
    match (shape.as_slice(), strides.as_deref()) {
        ([Some(rows), Some(row)], Some([Static::Known(stride), Static::Known(1)]))
            if *rows > 0 && *row > 0 && stride == row =>
        {
            Ok((*rows, *row))
        }
        _ => Err(IndexProblem::Shape(tile.to_string())),
    }
}

#[cfg(test)]
mod tests;
