//! Wide tiles (docs/dialect.md, "Wide tiles"): a swizzled row of several
//! swizzle spans, stored as column panels, and windows longer than one TMA
//! box allows, split into several boxes. Pure arithmetic over shapes, so that
//! rule A33, the TMA plans and the cp.async plan read one definition.
//!
//! The layout: a window of `R` rows (every window dimension but the innermost,
//! row-major) of `W` elements of `E` bytes, swizzled with `S` bytes and
//! `W·E = n·S`, is `n` panels; logical byte `c` of row `r` sits at
//! `(c / S)·R·S + r·S + (c mod S)` before the swizzle moves it
//! (`Panels::place`, the model the tests hold the lowerings to). Boxes are
//! placed so that each writes a contiguous, pattern-aligned piece of that
//! layout ([`BoxGrid::boxes`]).

use std::fmt;

use super::shape::{py_tuple, tma_smem_alignment};

/// The largest TMA box dimension (the driver's `boxDim` limit, rule T2).
pub const TMA_MAX_BOX: i64 = 256;

/// The most boxes acopy splits one copy into: an acopy limit that keeps the
/// issue sequence of the elected thread short, not a hardware one.
pub const MAX_BOXES: u64 = 32;

/// Rows per swizzle pattern: a panel must hold whole patterns.
const PATTERN_ROWS: u64 = 8;

/// The column panels of a swizzled tile whose rows are several spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Panels {
    /// Bytes of a panel's row: the swizzle span (or, for an unswizzled
    /// one-row window split along its row, one box's bytes).
    pub span: u64,
    /// How many panels.
    pub count: u64,
    /// Rows of the window (the product of all but the innermost dimension).
    pub rows: u64,
}

impl Panels {
    /// Where logical tile byte `offset` (row-major, rows of `count · span`
    /// bytes) is stored, before any swizzle: the definition the lowerings'
    /// arithmetic (`lower/cp_async.rs`'s `paneled`, the TMA boxes of
    /// [`BoxGrid::boxes`]) is tested against. (`acopy.swizzled_index`
    /// computes the same placement per part, `IndexPlan::physical`, tested
    /// against its own model.)
    #[cfg(test)]
    pub fn place(&self, offset: u64) -> u64 {
        let row_bytes = self.count * self.span;
        let (row, column) = (offset / row_bytes, offset % row_bytes);
        (column / self.span) * self.rows * self.span + row * self.span + column % self.span
    }

    /// The bytes of one panel.
    pub fn bytes(&self) -> u64 {
        self.rows * self.span
    }

    /// The panels of `window` as a grid of one box per panel, the boxes TMA
    /// writes them with when no other dimension is split.
    pub fn grid(&self, window: &[i64], element_bytes: u64) -> BoxGrid {
        let mut box_shape = window.to_vec();
        if let Some(inner) = box_shape.last_mut() {
            *inner = (self.span / element_bytes.max(1)) as i64;
        }
        BoxGrid {
            box_shape,
            window: window.to_vec(),
            panels: *self,
            element_bytes,
        }
    }
}

/// Why a wide window has no layout or no boxes; each names the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SplitProblem {
    /// A swizzled row that is not a whole number of spans.
    PartialSpan { row_bytes: u64, span: u64 },
    /// Panels of a number of rows that is not a multiple of 8.
    PanelRows { rows: u64, span: u64 },
    /// An unswizzled window of several rows longer than a box along its row.
    InnermostRows { rows: u64, length: i64 },
    /// No box length along `dim` divides it, fits 256 and keeps box starts aligned.
    NoBoxLength { dim: usize, length: i64, align: u64 },
    /// More boxes than [`MAX_BOXES`].
    TooManyBoxes { count: u64 },
    /// A multicast or `leader_tracked` copy that would need several boxes.
    Collective,
    /// A window of an empty dimension, or of [`MAX_WINDOW_BYTES`] or more:
    /// rule A1 or A16 refuses it first; this keeps the arithmetic in range.
    Size,
}

/// Windows this large are never split (A16 refuses tiles over 227 KiB).
const MAX_WINDOW_BYTES: u64 = 1 << 31;

/// Whether `window` has no empty dimension and fewer than
/// [`MAX_WINDOW_BYTES`] bytes, so that every product below fits.
fn sized(window: &[i64], element_bytes: u64) -> Result<(), SplitProblem> {
    window
        .iter()
        .try_fold(element_bytes, |bytes, &len| {
            u64::try_from(len)
                .ok()
                .filter(|&len| len > 0)
                .and_then(|len| bytes.checked_mul(len))
        })
        .filter(|&bytes| bytes > 0 && bytes < MAX_WINDOW_BYTES)
        .map(|_| ())
        .ok_or(SplitProblem::Size)
}

impl fmt::Display for SplitProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitProblem::PartialSpan { row_bytes, span } => write!(
                f,
                "its rows of {row_bytes} bytes are not a whole number of {span}-byte swizzle spans, so they cannot be stored as column panels"
            ),
            SplitProblem::PanelRows { rows, span } => write!(
                f,
                "its {rows} rows are not a multiple of 8, so its column panels ({rows} rows of {span} bytes each) would not start on a whole swizzle pattern"
            ),
            SplitProblem::InnermostRows { rows, length } => write!(
                f,
                "its innermost dimension of {length} elements needs several boxes, which can keep a row-major tile only for a one-row window, but it has {rows} rows"
            ),
            SplitProblem::NoBoxLength { dim, length, align } => write!(
                f,
                "no box length along dimension {dim} ({length} elements) divides it, is at most 256 and starts every box {align}-byte aligned in the tile"
            ),
            SplitProblem::TooManyBoxes { count } => write!(
                f,
                "it would need {count} TMA boxes, more than the {MAX_BOXES} acopy issues for one copy"
            ),
            SplitProblem::Collective => write!(
                f,
                "a multicast or leader_tracked copy is planned for one box per CTA and cannot be split into several"
            ),
            SplitProblem::Size => write!(
                f,
                "its window has an empty dimension or 2^31 bytes or more, more than any shared memory"
            ),
        }
    }
}

/// The column panels of a window swizzled with `swizzle` bytes; `None` when
/// the rows are exactly one span (the ordinary swizzled tile) or the tile is
/// unswizzled.
pub(crate) fn panels(
    window: &[i64],
    element_bytes: u64,
    swizzle: u32,
) -> Result<Option<Panels>, SplitProblem> {
    let span = u64::from(swizzle);
    let Some((&inner, outer)) = window.split_last() else {
        return Ok(None);
    };
    if span == 0 {
        return Ok(None);
    }
    sized(window, element_bytes)?;
    let row_bytes = u64::try_from(inner).unwrap_or(0) * element_bytes;
    if row_bytes == span {
        return Ok(None);
    }
    // A row shorter than a span is no multiple of it (`sized` makes it non-empty).
    if !row_bytes.is_multiple_of(span) {
        return Err(SplitProblem::PartialSpan { row_bytes, span });
    }
    let rows = rows(outer);
    if !rows.is_multiple_of(PATTERN_ROWS) {
        return Err(SplitProblem::PanelRows { rows, span });
    }
    Ok(Some(Panels {
        span,
        count: row_bytes / span,
        rows,
    }))
}

fn rows(outer: &[i64]) -> u64 {
    outer
        .iter()
        .map(|&len| u64::try_from(len).unwrap_or(0))
        .product()
}

/// The boxes of a TMA copy that one box cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoxGrid {
    /// The box one instruction moves, outermost first (the tensor map's).
    pub box_shape: Vec<i64>,
    /// The window, outermost first.
    pub window: Vec<i64>,
    /// How the tile's rows are laid out: several panels, or one.
    pub panels: Panels,
    pub element_bytes: u64,
}

/// One box of a [`BoxGrid`]: where it starts in the window and in the tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlacedBox {
    /// Element offsets from the window start, outermost first.
    pub offsets: Vec<i64>,
    /// Bytes from the tile's start.
    pub tile_bytes: i64,
}

impl BoxGrid {
    /// How many boxes.
    pub fn count(&self) -> u64 {
        self.window
            .iter()
            .zip(&self.box_shape)
            .map(|(&len, &b)| (len / b.max(1)) as u64)
            .product()
    }

    /// Every box, in row-major order of the grid (panel index last).
    pub fn boxes(&self) -> Vec<PlacedBox> {
        let counts: Vec<i64> = self
            .window
            .iter()
            .zip(&self.box_shape)
            .map(|(&len, &b)| len / b.max(1))
            .collect();
        let mut grid = vec![0i64; counts.len()];
        let mut out = Vec::new();
        loop {
            out.push(self.place(&grid));
            // The next grid index, innermost fastest.
            let mut dim = grid.len();
            loop {
                if dim == 0 {
                    return out;
                }
                dim -= 1;
                grid[dim] += 1;
                if grid[dim] < counts[dim] {
                    break;
                }
                grid[dim] = 0;
            }
        }
    }

    fn place(&self, grid: &[i64]) -> PlacedBox {
        let offsets: Vec<i64> = grid
            .iter()
            .zip(&self.box_shape)
            .map(|(g, b)| g * b)
            .collect();
        let (inner, outer) = offsets.split_last().map_or((0, &[][..]), |(i, o)| (*i, o));
        // The box's first row, row-major over the outer window dimensions.
        let row = outer
            .iter()
            .zip(&self.window)
            .fold(0i64, |row, (&offset, &len)| row * len + offset);
        let panel_bytes = self.panels.bytes() as i64;
        let span = self.panels.span as i64;
        let inner_bytes = inner * self.element_bytes as i64;
        let tile_bytes = (inner_bytes / span) * panel_bytes + row * span;
        PlacedBox {
            offsets,
            tile_bytes,
        }
    }

    /// `2 boxes of (64, 64)`, for remarks.
    pub fn describe(&self) -> String {
        format!("{} boxes of {}", self.count(), py_tuple(&self.box_shape))
    }
}

/// The boxes of a TMA copy of `window` with `swizzle` bytes, or `None` when
/// one box is the window. `collective_box` is the box of a multicast or
/// `leader_tracked` copy (its per-CTA slice), which is never split: such a
/// copy that one box cannot hold is [`SplitProblem::Collective`].
pub(crate) fn tma_split(
    window: &[i64],
    collective_box: Option<&[i64]>,
    element_bytes: u64,
    swizzle: u32,
) -> Result<Option<BoxGrid>, SplitProblem> {
    let Some(single) = collective_box else {
        return tma_boxes(window, element_bytes, swizzle);
    };
    sized(window, element_bytes)?;
    let wide = panels(window, element_bytes, swizzle)?.is_some()
        || single.iter().any(|&len| len > TMA_MAX_BOX);
    if wide {
        Err(SplitProblem::Collective)
    } else {
        Ok(None)
    }
}

/// The boxes of a single-CTA TMA copy (see [`tma_split`]).
fn tma_boxes(
    window: &[i64],
    element_bytes: u64,
    swizzle: u32,
) -> Result<Option<BoxGrid>, SplitProblem> {
    let Some((&inner, outer)) = window.split_last() else {
        return Ok(None);
    };
    sized(window, element_bytes)?;
    let align = tma_smem_alignment(swizzle);
    let mut box_shape = window.to_vec();
    let panels = match panels(window, element_bytes, swizzle)? {
        Some(panels) => {
            box_shape[outer.len()] = (panels.span / element_bytes) as i64;
            panels
        }
        None if inner > TMA_MAX_BOX => {
            let panels = innermost_split((outer.len(), inner), rows(outer), element_bytes, align)?;
            box_shape[outer.len()] = inner / panels.count as i64;
            panels
        }
        None => Panels {
            span: u64::try_from(inner).unwrap_or(0) * element_bytes,
            count: 1,
            rows: rows(outer),
        },
    };
    split_outer(&mut box_shape, window, panels.span, align)?;
    if box_shape == window {
        return Ok(None);
    }
    let grid = BoxGrid {
        box_shape,
        window: window.to_vec(),
        panels,
        element_bytes,
    };
    match grid.count() {
        count if count > MAX_BOXES => Err(SplitProblem::TooManyBoxes { count }),
        _ => Ok(Some(grid)),
    }
}

/// An unswizzled innermost dimension of `inner` elements split into boxes:
/// row-major only for a one-row window, where the boxes follow each other.
fn innermost_split(
    (dim, inner): (usize, i64),
    rows: u64,
    element_bytes: u64,
    align: u64,
) -> Result<Panels, SplitProblem> {
    if rows != 1 {
        return Err(SplitProblem::InnermostRows {
            rows,
            length: inner,
        });
    }
    let length = box_length(inner, element_bytes, align).ok_or(SplitProblem::NoBoxLength {
        dim,
        length: inner,
        align,
    })?;
    Ok(Panels {
        span: length as u64 * element_bytes,
        count: (inner / length) as u64,
        rows: 1,
    })
}

/// Splits the innermost outer dimension longer than 256 (docs/dialect.md,
/// "Wide tiles"): 1 along the dimensions before it, whole after it, so each
/// box is a contiguous run of `span`-byte rows starting `align`-aligned.
fn split_outer(
    box_shape: &mut [i64],
    window: &[i64],
    span: u64,
    align: u64,
) -> Result<(), SplitProblem> {
    let outer = window.len().saturating_sub(1);
    let Some(dim) = (0..outer).rev().find(|&dim| window[dim] > TMA_MAX_BOX) else {
        return Ok(());
    };
    let after = rows(&window[dim + 1..outer]);
    let length = box_length(window[dim], after * span, align).ok_or(SplitProblem::NoBoxLength {
        dim,
        length: window[dim],
        align,
    })?;
    box_shape[dim] = length;
    for len in &mut box_shape[..dim] {
        *len = 1;
    }
    Ok(())
}

/// The largest divisor `b` of `length` with `b <= 256` and `b · unit_bytes` a
/// multiple of `align`.
fn box_length(length: i64, unit_bytes: u64, align: u64) -> Option<i64> {
    (1..=TMA_MAX_BOX.min(length))
        .rev()
        .find(|&b| length % b == 0 && (b as u64 * unit_bytes).is_multiple_of(align))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_two_spans_is_two_panels() {
        let panels = panels(&[64, 128], 2, 128)
            .expect("a layout")
            .expect("panels");
        assert_eq!(
            panels,
            Panels {
                span: 128,
                count: 2,
                rows: 64
            }
        );
        // Row 0's second span starts panel 1, at 64 rows of 128 bytes.
        assert_eq!(panels.place(128), 8192);
        assert_eq!(panels.place(256), 128);
        assert_eq!(panels.place(256 + 128 + 16), 8192 + 128 + 16);
        assert_eq!(panels.place(63 * 256 + 255), 16383);
        // A permutation of the tile's bytes.
        let mut seen = vec![false; 16384];
        for offset in 0..16384 {
            let at = panels.place(offset) as usize;
            assert!(!seen[at]);
            seen[at] = true;
        }
    }

    /// The boxes of a paneled tile are one span wide: 64 bf16 of a 128-byte
    /// span, 32 f32 (a mutation survivor of shard 5, 2026-12-03: `/` with `%`
    /// made them 0 wide and no test looked at the box).
    #[test]
    fn panel_boxes_are_one_span_wide() {
        for (window, element_bytes, inner) in [([64i64, 128], 2u64, 64i64), ([16, 64], 4, 32)] {
            let panels = panels(&window, element_bytes, 128)
                .expect("a layout")
                .expect("panels");
            let grid = panels.grid(&window, element_bytes);
            assert_eq!(grid.box_shape, vec![window[0], inner]);
            assert_eq!(grid.window, window.to_vec());
        }
    }

    #[test]
    fn one_span_or_no_swizzle_has_no_panels() {
        assert_eq!(panels(&[64, 64], 2, 128), Ok(None));
        assert_eq!(panels(&[64, 512], 4, 0), Ok(None));
        assert_eq!(panels(&[], 4, 128), Ok(None));
    }

    #[test]
    fn panels_need_whole_spans_and_whole_patterns() {
        assert_eq!(
            panels(&[64, 96], 2, 128),
            Err(SplitProblem::PartialSpan {
                row_bytes: 192,
                span: 128
            })
        );
        assert_eq!(
            panels(&[64, 32], 2, 128),
            Err(SplitProblem::PartialSpan {
                row_bytes: 64,
                span: 128
            })
        );
        assert_eq!(
            panels(&[12, 128], 2, 128),
            Err(SplitProblem::PanelRows {
                rows: 12,
                span: 128
            })
        );
        // Rows count over every outer dimension.
        assert_eq!(
            panels(&[2, 4, 64], 1, 32).map(|p| p.map(|p| (p.count, p.rows))),
            Ok(Some((2, 8)))
        );
    }

    #[test]
    fn a_two_panel_copy_is_two_boxes_one_panel_apart() {
        let grid = tma_split(&[64, 128], None, 2, 128)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![64, 64]);
        assert_eq!(grid.describe(), "2 boxes of (64, 64)");
        assert_eq!(
            grid.boxes(),
            vec![
                PlacedBox {
                    offsets: vec![0, 0],
                    tile_bytes: 0
                },
                PlacedBox {
                    offsets: vec![0, 64],
                    tile_bytes: 8192
                },
            ]
        );
    }

    #[test]
    fn long_outer_dimensions_split_into_row_major_pieces() {
        let grid = tma_split(&[512, 16], None, 4, 0)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![256, 16]);
        let starts: Vec<_> = grid
            .boxes()
            .into_iter()
            .map(|b| (b.offsets, b.tile_bytes))
            .collect();
        assert_eq!(starts, vec![(vec![0, 0], 0), (vec![256, 0], 16384)]);
        // Dimensions before the split one become 1; after it, whole.
        let grid = tma_split(&[2, 512, 4, 8], None, 4, 0)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![1, 256, 4, 8]);
        let starts: Vec<_> = grid.boxes().into_iter().map(|b| b.tile_bytes).collect();
        assert_eq!(starts, vec![0, 32768, 65536, 98304]);
        // 300 rows: 150 keeps 32-byte rows 128-byte aligned (150 · 32 = 4800 is not:
        // 4800 = 37.5 · 128), 100 does (3200 = 25 · 128).
        let grid = tma_split(&[300, 8], None, 4, 0)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![100, 8]);
        assert_eq!(grid.count(), 3);
    }

    #[test]
    fn panels_and_long_rows_combine() {
        let grid = tma_split(&[512, 128], None, 2, 128)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![256, 64]);
        let starts: Vec<_> = grid
            .boxes()
            .into_iter()
            .map(|b| (b.offsets, b.tile_bytes))
            .collect();
        // Panel j at j · 512 · 128; the second 256 rows 256 · 128 further.
        assert_eq!(
            starts,
            vec![
                (vec![0, 0], 0),
                (vec![0, 64], 65536),
                (vec![256, 0], 32768),
                (vec![256, 64], 65536 + 32768),
            ]
        );
    }

    #[test]
    fn an_unswizzled_row_splits_only_when_it_is_the_only_row() {
        let grid = tma_split(&[1, 1024], None, 4, 0)
            .expect("boxes")
            .expect("a split");
        assert_eq!(grid.box_shape, vec![1, 256]);
        let starts: Vec<_> = grid.boxes().into_iter().map(|b| b.tile_bytes).collect();
        assert_eq!(starts, vec![0, 1024, 2048, 3072]);
        assert_eq!(
            tma_split(&[2, 512], None, 4, 0),
            Err(SplitProblem::InnermostRows {
                rows: 2,
                length: 512
            })
        );
        // 257 is prime: only boxes of 1 divide it, 4 bytes each, not 128-byte aligned.
        assert_eq!(
            tma_split(&[257], None, 4, 0),
            Err(SplitProblem::NoBoxLength {
                dim: 0,
                length: 257,
                align: 128
            })
        );
    }

    #[test]
    fn limits() {
        // 16 panels of 64 rows, times 2 halves of 512 rows: 32 boxes fit...
        assert!(tma_split(&[512, 1024], None, 2, 128).is_ok());
        // ...64 do not.
        assert_eq!(
            tma_split(&[1024, 1024], None, 2, 128),
            Err(SplitProblem::TooManyBoxes { count: 64 })
        );
        assert_eq!(
            tma_split(&[64, 128], Some(&[32, 128]), 2, 128),
            Err(SplitProblem::Collective)
        );
        // A collective copy that fits one box is not split at all.
        assert_eq!(tma_split(&[64, 64], Some(&[32, 64]), 2, 128), Ok(None));
        assert_eq!(tma_split(&[256, 256], None, 4, 0), Ok(None));
        // Sizes A1 and A16 refuse first never overflow the arithmetic.
        for window in [vec![0, 512], vec![i64::MAX, 2], vec![1 << 20, 1 << 12]] {
            assert_eq!(tma_split(&window, None, 8, 0), Err(SplitProblem::Size));
            assert_eq!(panels(&window, 8, 128), Err(SplitProblem::Size));
        }
        assert!(SplitProblem::Size.to_string().contains("2^31 bytes"));
    }

    /// Every byte a box writes (TMA writes a box as its rows, one after
    /// another, from the box's tile address) lands where [`Panels::place`]
    /// puts it: the boxes write exactly the documented layout.
    #[test]
    fn boxes_write_the_panel_layout() {
        for (window, element_bytes, swizzle) in [
            (vec![64, 128], 2, 128),
            (vec![16, 64], 4, 64),
            (vec![512, 16], 4, 0),
            (vec![2, 512, 4, 8], 4, 0),
            (vec![300, 8], 4, 0),
            (vec![512, 128], 2, 128),
            (vec![1, 1024], 4, 0),
            (vec![8, 2, 96], 1, 32),
        ] {
            let grid = tma_split(&window, None, element_bytes, swizzle)
                .expect("boxes")
                .expect("a split");
            let mut written =
                vec![false; window.iter().product::<i64>() as usize * element_bytes as usize];
            for placed in grid.boxes() {
                let mut at = placed.tile_bytes as u64;
                for_each_index(&grid.box_shape, |local| {
                    let logical: Vec<i64> = local
                        .iter()
                        .zip(&placed.offsets)
                        .map(|(l, o)| l + o)
                        .collect();
                    let offset = row_major(&logical, &window) as u64 * element_bytes;
                    for byte in 0..element_bytes {
                        assert_eq!(
                            grid.panels.place(offset + byte),
                            at,
                            "{window:?} at {logical:?}"
                        );
                        assert!(!written[at as usize]);
                        written[at as usize] = true;
                        at += 1;
                    }
                });
            }
            assert!(written.iter().all(|&w| w), "{window:?}: every byte written");
        }
    }

    fn row_major(index: &[i64], shape: &[i64]) -> i64 {
        index.iter().zip(shape).fold(0, |at, (i, len)| at * len + i)
    }

    fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64])) {
        let mut index = vec![0i64; shape.len()];
        loop {
            f(&index);
            let mut dim = shape.len();
            loop {
                if dim == 0 {
                    return;
                }
                dim -= 1;
                index[dim] += 1;
                if index[dim] < shape[dim] {
                    break;
                }
                index[dim] = 0;
            }
        }
    }

    #[test]
    fn messages_name_the_limit() {
        let text = SplitProblem::TooManyBoxes { count: 64 }.to_string();
        assert!(text.contains("64 TMA boxes, more than the 32"), "{text}");
        let text = SplitProblem::PanelRows {
            rows: 12,
            span: 128,
        }
        .to_string();
        assert!(text.contains("not a multiple of 8"), "{text}");
    }
}
