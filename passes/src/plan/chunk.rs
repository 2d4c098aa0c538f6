//! Planning a cp.async copy, with no IR: which window dimensions are rows,
//! how many contiguous elements a row holds, and which chunk size alignment
//! allows.
//!
//! The rules (docs/lowering-cp-async.md):
//! - Window dimensions of size 1 add nothing to walk. Neighbouring dimensions
//!   merge when both src and dst are statically contiguous across them, so a
//!   full-width window is one long row.
//! - The innermost dimension is a contiguous row when its src and dst strides
//!   are statically 1; otherwise every element is its own row.
//! - A chunk is 16, 8 or 4 bytes and must divide the row's bytes and every
//!   quantity an address is built from (base pointers, window start, row
//!   strides). What is proved at compile time picks the chunk; when a larger
//!   chunk depends only on run-time values, both are emitted behind a run-time
//!   check. When nothing of 4 bytes can be proved, the slow side copies
//!   element by element with ordinary loads and stores.

/// A stride as the memref type gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stride {
    Known(i64),
    Dynamic,
}

/// One dimension of the copy window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WindowDim {
    pub size: u64,
    pub src: Stride,
    /// `None` for a leading window dimension that dst does not have (size 1).
    pub dst: Option<Stride>,
}

/// A dimension the copy walks: `size` rows, stepping with the strides of
/// window dimension `window_dim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowDim {
    pub size: u64,
    pub window_dim: usize,
}

/// The rows of a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rows {
    /// Outermost first; each has size > 1.
    pub dims: Vec<RowDim>,
    /// Contiguous elements per row.
    pub row_elements: u64,
    /// The window dimension a row runs along, when rows hold more than one
    /// element.
    pub row_dim: Option<usize>,
}

impl Rows {
    /// The number of rows.
    #[cfg(test)]
    pub fn count(&self) -> u64 {
        self.dims.iter().map(|dim| dim.size).product()
    }
}

fn contiguous(outer: Option<Stride>, inner: Option<Stride>, inner_size: u64) -> bool {
    matches!(
        (outer, inner),
        (Some(Stride::Known(outer)), Some(Stride::Known(inner)))
            if i128::from(outer) == i128::from(inner) * i128::from(inner_size)
    )
}

/// Splits a window into rows (see the module comment). With `merge` false,
/// every dimension keeps its own coordinate (zero-fill checks each one).
pub(crate) fn plan_rows(window: &[WindowDim], merge: bool) -> Rows {
    // (size, window dim whose strides step it)
    let mut dims: Vec<RowDim> = window
        .iter()
        .enumerate()
        .filter(|(_, dim)| dim.size > 1)
        .map(|(index, dim)| RowDim {
            size: dim.size,
            window_dim: index,
        })
        .collect();
    // Merge from the inside out.
    let mut index = if merge { dims.len() } else { 0 };
    while index >= 2 {
        let (outer, inner) = (dims[index - 2], dims[index - 1]);
        let (o, i) = (window[outer.window_dim], window[inner.window_dim]);
        if contiguous(Some(o.src), Some(i.src), inner.size) && contiguous(o.dst, i.dst, inner.size)
        {
            dims[index - 2] = RowDim {
                size: outer.size * inner.size,
                window_dim: inner.window_dim,
            };
            dims.remove(index - 1);
        }
        index -= 1;
    }
    match dims.last() {
        Some(last)
            if window[last.window_dim].src == Stride::Known(1)
                && window[last.window_dim].dst == Some(Stride::Known(1)) =>
        {
            let (row_elements, row_dim) = (last.size, last.window_dim);
            dims.pop();
            Rows {
                dims,
                row_elements,
                row_dim: Some(row_dim),
            }
        }
        _ => Rows {
            dims,
            row_elements: 1,
            row_dim: None,
        },
    }
}

/// The largest cp.async size (16, 8 or 4 bytes) that divides both the row
/// bytes and the proved alignment.
pub(crate) fn largest_chunk(row_bytes: u64, align: u64) -> Option<u64> {
    [16, 8, 4]
        .into_iter()
        .find(|&size| row_bytes.is_multiple_of(size) && align.is_multiple_of(size))
}

/// A quantity an address is built from, in bytes: the largest power of two
/// proved to divide it, and whether it is a compile-time constant (then the
/// proof is exact and no run-time check can help).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AlignTerm {
    pub proved: u64,
    pub constant: bool,
}

/// What to do when the run-time check for the fast chunk fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slow {
    /// cp.async with a smaller chunk.
    Chunk(u64),
    /// Element by element, with ordinary loads and stores.
    Elements,
}

/// The chunk sizes of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChunkChoice {
    /// The chunk used when every address is aligned to it.
    pub fast: u64,
    /// `None`: `fast` is proved and used unconditionally. Otherwise `fast` is
    /// guarded by a run-time alignment check and this runs when it fails.
    pub slow: Option<Slow>,
}

/// Why no chunk size works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChunkError {
    /// The row bytes are not a multiple of 4.
    RowBytes,
    /// Some constant part of an address is not 4-byte aligned.
    Misaligned,
}

/// Whether cp.async can move rows of `row_bytes`: a multiple of its smallest
/// size, 4 bytes. `acopy-verify`'s rule A29 refuses the other rows with this
/// same function.
pub(crate) fn row_bytes_fit(row_bytes: u64) -> bool {
    row_bytes.is_multiple_of(4)
}

/// Chooses the chunk sizes for rows of `row_bytes` whose addresses are built
/// from `terms`.
pub(crate) fn choose_chunk(row_bytes: u64, terms: &[AlignTerm]) -> Result<ChunkChoice, ChunkError> {
    if !row_bytes_fit(row_bytes) {
        return Err(ChunkError::RowBytes);
    }
    let cap = |align: u64| align.min(16);
    let proved = cap(terms.iter().map(|term| term.proved).min().unwrap_or(16));
    let upper = cap(terms
        .iter()
        .filter(|term| term.constant)
        .map(|term| term.proved)
        .min()
        .unwrap_or(16));
    let fast = largest_chunk(row_bytes, upper).ok_or(ChunkError::Misaligned)?;
    let slow = match largest_chunk(row_bytes, proved) {
        Some(chunk) if chunk == fast => None,
        Some(chunk) => Some(Slow::Chunk(chunk)),
        None => Some(Slow::Elements),
    };
    Ok(ChunkChoice { fast, slow })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(size: u64, src: i64, dst: i64) -> WindowDim {
        WindowDim {
            size,
            src: Stride::Known(src),
            dst: Some(Stride::Known(dst)),
        }
    }

    fn term(proved: u64, constant: bool) -> AlignTerm {
        AlignTerm { proved, constant }
    }

    #[test]
    fn narrow_window_is_row_by_row() {
        // 32x128 window of a 256x512 array into a 32x128 tile.
        let rows = plan_rows(&[known(32, 512, 128), known(128, 1, 1)], true);
        assert_eq!(rows.row_elements, 128);
        assert_eq!(rows.row_dim, Some(1));
        assert_eq!(
            rows.dims,
            vec![RowDim {
                size: 32,
                window_dim: 0
            }]
        );
    }

    #[test]
    fn full_width_window_is_one_row() {
        let rows = plan_rows(&[known(32, 128, 128), known(128, 1, 1)], true);
        assert_eq!(rows.row_elements, 32 * 128);
        assert!(rows.dims.is_empty());
        assert_eq!(rows.count(), 1);
    }

    #[test]
    fn unit_dims_are_dropped_and_leading_dims_kept() {
        let leading = WindowDim {
            size: 1,
            src: Stride::Known(4096),
            dst: None,
        };
        let rows = plan_rows(&[leading, known(8, 64, 16), known(16, 1, 1)], true);
        assert_eq!(rows.row_elements, 16);
        assert_eq!(
            rows.dims,
            vec![RowDim {
                size: 8,
                window_dim: 1
            }]
        );
    }

    #[test]
    fn dynamic_strides_never_merge() {
        let dynamic = WindowDim {
            size: 4,
            src: Stride::Dynamic,
            dst: Some(Stride::Known(8)),
        };
        let rows = plan_rows(&[dynamic, known(8, 1, 1)], true);
        assert_eq!(rows.row_elements, 8);
        assert_eq!(rows.dims.len(), 1);
    }

    #[test]
    fn non_unit_inner_stride_copies_elements() {
        let rows = plan_rows(&[known(4, 2, 1)], true);
        assert_eq!((rows.row_elements, rows.row_dim), (1, None));
        assert_eq!(
            rows.dims,
            vec![RowDim {
                size: 4,
                window_dim: 0
            }]
        );
        let rows = plan_rows(&[known(1, 1, 1)], true);
        assert_eq!((rows.row_elements, rows.count()), (1, 1));
    }

    #[test]
    fn zero_fill_keeps_every_dimension() {
        let rows = plan_rows(&[known(32, 128, 128), known(128, 1, 1)], false);
        assert_eq!(rows.row_elements, 128);
        assert_eq!(
            rows.dims,
            vec![RowDim {
                size: 32,
                window_dim: 0
            }]
        );
    }

    #[test]
    fn chunk_sizes() {
        assert_eq!(largest_chunk(512, 16), Some(16));
        assert_eq!(largest_chunk(24, 16), Some(8));
        assert_eq!(largest_chunk(512, 4), Some(4));
        assert_eq!(largest_chunk(12, 16), Some(4));
        assert_eq!(largest_chunk(6, 16), None);
        assert_eq!(largest_chunk(512, 2), None);
    }

    #[test]
    fn proved_alignment_needs_no_check() {
        let choice = choose_chunk(512, &[term(16, true), term(2048, true)]).unwrap();
        assert_eq!(
            choice,
            ChunkChoice {
                fast: 16,
                slow: None
            }
        );
        // A dynamic column index known to be a multiple of 8 f32 elements.
        let choice = choose_chunk(512, &[term(32, false)]).unwrap();
        assert_eq!(choice.slow, None);
        // A constant 8-byte offset.
        let choice = choose_chunk(512, &[term(8, true)]).unwrap();
        assert_eq!(
            choice,
            ChunkChoice {
                fast: 8,
                slow: None
            }
        );
    }

    #[test]
    fn dynamic_alignment_gets_a_checked_fast_path() {
        // f32 with a dynamic row stride: 4 bytes proved, 16 possible.
        let choice = choose_chunk(512, &[term(16, true), term(4, false)]).unwrap();
        assert_eq!(
            choice,
            ChunkChoice {
                fast: 16,
                slow: Some(Slow::Chunk(4))
            }
        );
        // f16 with a dynamic column: 2 bytes proved, nothing safe for cp.async.
        let choice = choose_chunk(128, &[term(2, false)]).unwrap();
        assert_eq!(
            choice,
            ChunkChoice {
                fast: 16,
                slow: Some(Slow::Elements)
            }
        );
    }

    #[test]
    fn unusable_rows_are_errors() {
        assert_eq!(choose_chunk(6, &[]), Err(ChunkError::RowBytes));
        assert_eq!(
            choose_chunk(2, &[term(16, true)]),
            Err(ChunkError::RowBytes)
        );
        assert_eq!(
            choose_chunk(64, &[term(2, true)]),
            Err(ChunkError::Misaligned)
        );
    }
}
