//! Pure arithmetic over shapes that the rules and the lowering share: the
//! copy window, the TMA box of a multicast copy, bounds, strides, and the
//! Python-style spellings the documented messages use.
//!
//! Nothing here touches MLIR, so every helper has plain unit tests below.

use std::fmt::Display;

use acopy_dialect::ReductionOp;
use acopy_manifest::ElementType;

/// A sequence written as a Python tuple: `(4, 1, 1)`, `(5,)`, `()`.
pub fn py_tuple<T: Display>(values: &[T]) -> String {
    match values {
        [] => "()".to_string(),
        [only] => format!("({only},)"),
        _ => format!(
            "({})",
            values
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The copy window: the tile's shape, preceded by length-1 dimensions up to
/// the global memref's rank (docs/dialect.md: "if rank(dst) < rank(src), the leading
/// window dimensions have length 1"). This is the "slice shape" of the TMA
/// messages.
pub fn window_shape(global_rank: usize, tile: &[i64]) -> Vec<i64> {
    let leading = global_rank.saturating_sub(tile.len());
    std::iter::repeat_n(1, leading)
        .chain(tile.iter().copied())
        .collect()
}

/// Whether the window starting at `starts` leaves a buffer of shape `dims`
/// (half-open ranges, so `start + len == dim` is still inside).
pub fn out_of_bounds(starts: &[i64], window: &[i64], dims: &[i64]) -> bool {
    starts
        .iter()
        .zip(window)
        .zip(dims)
        .any(|((&start, &len), &dim)| {
            let end = i128::from(start) + i128::from(len);
            start < 0 || end > i128::from(dim)
        })
}

/// `0:64, 500:628`: the half-open ranges of a window, for the E11 message.
pub fn ranges_text(starts: &[i64], window: &[i64]) -> String {
    starts
        .iter()
        .zip(window)
        .map(|(&start, &len)| format!("{start}:{}", i128::from(start) + i128::from(len)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The dimension a multicast copy is split along, so that each of the `n`
/// CTAs of the collective loads `1/n` of the window and multicasts it.
///
/// Only leading dimensions (all but the innermost) can be split, and only the
/// outermost one longer than 1: splitting a later one would give each CTA a
/// piece that is not contiguous in shared memory, which one TMA box cannot
/// write. `None` when that dimension does not divide by `n` (or there is
/// none); then the copy cannot be multicast. For `n <= 1` nothing is split and
/// the answer is `None` too.
pub fn multicast_split_dim(window: &[i64], n: u64) -> Option<usize> {
    if n <= 1 {
        return None;
    }
    let n = i64::try_from(n).ok()?;
    let leading = window.len().checked_sub(1)?;
    let dim = window[..leading].iter().position(|&len| len != 1)?;
    (window[dim] % n == 0).then_some(dim)
}

/// The box one CTA's TMA instruction copies: the window, with dimension
/// `split.0` divided by `split.1` for a multicast copy.
pub fn tma_box(window: &[i64], split: Option<(usize, u64)>) -> Vec<i64> {
    let mut tile = window.to_vec();
    if let Some((dim, n)) = split {
        if let (Some(len), Ok(n)) = (tile.get_mut(dim), i64::try_from(n)) {
            if n > 0 {
                *len /= n;
            }
        }
    }
    tile
}

/// Whether `strides` (in elements) lay `shape` out densely in row-major
/// order. The stride of a length-1 dimension does not matter.
pub fn is_row_major(shape: &[i64], strides: &[i64]) -> bool {
    if shape.len() != strides.len() {
        return false;
    }
    let mut expected: i128 = 1;
    for (&len, &stride) in shape.iter().zip(strides).rev() {
        if len != 1 && i128::from(stride) != expected {
            return false;
        }
        // Saturated, it matches no i64 stride: later long dimensions fail.
        expected = expected.saturating_mul(i128::from(len.max(1)));
    }
    true
}

/// Whether a global memref's strides suit a TMA descriptor: the innermost
/// stride is 1 element and every other static stride is a multiple of 16
/// bytes. Dynamic strides (`None`) are checked by the host when it encodes
/// the tensor map.
pub fn tma_strides_ok(strides: &[Option<i64>], element_bits: u32) -> bool {
    let Some((innermost, outer)) = strides.split_last() else {
        return true;
    };
    if innermost.is_some_and(|stride| stride != 1) {
        return false;
    }
    outer.iter().flatten().all(|&stride| {
        let bits = i128::from(stride) * i128::from(element_bits);
        bits % 128 == 0
    })
}

/// A `[a, b]` list, for messages that print strides.
pub fn list_text(values: &[Option<i64>]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|value| value.map_or("?".to_string(), |value| value.to_string()))
        .collect();
    format!("[{}]", items.join(", "))
}

/// The alignment in bytes TMA needs for a shared tile with `swizzle` bytes of
/// swizzle (0 for none): 128 bytes, or 8 rows of the swizzle span so that the
/// swizzle pattern starts at the tile (256, 512, 1024 bytes).
pub fn tma_smem_alignment(swizzle: u32) -> u64 {
    if swizzle == 0 {
        128
    } else {
        8 * u64::from(swizzle)
    }
}

/// The bytes one CTA's slice of a multicast box takes in the shared tile:
/// slices follow each other along split dimension `dim`, so slice `i` starts
/// `i` times this many bytes into the tile. Rule A25 requires a multiple of
/// [`tma_smem_alignment`]; the lowering places the slices with it.
pub fn multicast_slice_bytes(box_shape: &[i64], dim: usize, element_bytes: u64) -> i128 {
    box_shape
        .get(dim..)
        .unwrap_or(&[])
        .iter()
        .fold(i128::from(element_bytes), |bytes, &len| {
            bytes.saturating_mul(i128::from(len))
        })
}

/// The `#nvvm.tma_redux_kind` of a TMA reduction, or `None` when acopy
/// cannot lower it.
///
/// The PTX reduction has no signedness of its own: it follows the tensor
/// map's data type, and the manifest's integer types are encoded signed
/// (`INT32`, `INT64`). So `smin`/`smax` are `min`/`max`, and the operations
/// that need an unsigned map (`umin`, `umax`, and `inc`/`dec`, which PTX
/// defines on `.u32` only) have no lowering until the manifest can ask for
/// one. Rule A15 and the lowering both read this.
pub fn reduction_kind(op: ReductionOp) -> Option<&'static str> {
    match op {
        ReductionOp::Add => Some("add"),
        ReductionOp::Min | ReductionOp::Smin => Some("min"),
        ReductionOp::Max | ReductionOp::Smax => Some("max"),
        ReductionOp::And => Some("and"),
        ReductionOp::Or => Some("or"),
        ReductionOp::Xor => Some("xor"),
        ReductionOp::Umin | ReductionOp::Umax | ReductionOp::Inc | ReductionOp::Dec => None,
    }
}

/// The element types a TMA reduction supports as acopy lowers it (integers
/// by width, any signedness): the reference's table for the operations
/// [`reduction_kind`] lowers, nothing for the others.
pub fn reduction_types(op: ReductionOp) -> &'static [ElementType] {
    use ElementType::{BF16, F16, F32, I32, I64};
    if reduction_kind(op).is_none() {
        return &[];
    }
    match op {
        ReductionOp::Add => &[F16, BF16, F32, I32, I64],
        ReductionOp::Min | ReductionOp::Max => &[F16, BF16],
        ReductionOp::Smin | ReductionOp::Smax => &[I32, I64],
        ReductionOp::And | ReductionOp::Or | ReductionOp::Xor => &[I32, I64],
        ReductionOp::Umin | ReductionOp::Umax | ReductionOp::Inc | ReductionOp::Dec => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_tuples() {
        assert_eq!(py_tuple::<i64>(&[]), "()");
        assert_eq!(py_tuple(&[5]), "(5,)");
        assert_eq!(py_tuple(&[4, 1, 1]), "(4, 1, 1)");
    }

    #[test]
    fn window_pads_leading_dims() {
        assert_eq!(window_shape(3, &[8, 16]), vec![1, 8, 16]);
        assert_eq!(window_shape(2, &[64, 128]), vec![64, 128]);
        // A tile of higher rank is a view error; never panic on it.
        assert_eq!(window_shape(1, &[4, 128]), vec![4, 128]);
    }

    #[test]
    fn bounds_are_half_open() {
        assert!(!out_of_bounds(&[192, 384], &[64, 128], &[256, 512]));
        assert!(out_of_bounds(&[193, 384], &[64, 128], &[256, 512]));
        assert!(out_of_bounds(&[-1, 0], &[64, 128], &[256, 512]));
        assert!(!out_of_bounds(&[i64::MAX], &[0], &[i64::MAX]));
        assert!(out_of_bounds(&[i64::MAX], &[1], &[i64::MAX]));
        assert_eq!(ranges_text(&[0, 500], &[64, 128]), "0:64, 500:628");
        assert_eq!(
            ranges_text(&[i64::MAX], &[2]),
            "9223372036854775807:9223372036854775809"
        );
    }

    #[test]
    fn multicast_splits_the_outermost_long_leading_dim() {
        assert_eq!(multicast_split_dim(&[64, 128], 2), Some(0));
        assert_eq!(multicast_split_dim(&[1, 64, 128], 4), Some(1));
        // The outermost long dimension decides, even if a later one divides.
        assert_eq!(multicast_split_dim(&[3, 64, 128], 2), None);
        // The innermost dimension is never split.
        assert_eq!(multicast_split_dim(&[1, 128], 2), None);
        assert_eq!(multicast_split_dim(&[256], 2), None);
        assert_eq!(multicast_split_dim(&[], 2), None);
        assert_eq!(multicast_split_dim(&[64, 128], 1), None);
        assert_eq!(multicast_split_dim(&[64, 128], u64::MAX), None);
    }

    #[test]
    fn box_divides_the_split_dim() {
        assert_eq!(tma_box(&[512, 64], Some((0, 2))), vec![256, 64]);
        assert_eq!(tma_box(&[512, 64], None), vec![512, 64]);
        assert_eq!(tma_box(&[512, 64], Some((7, 2))), vec![512, 64]);
        assert_eq!(tma_box(&[512, 64], Some((0, 0))), vec![512, 64]);
    }

    #[test]
    fn row_major_layouts() {
        assert!(is_row_major(&[64, 128], &[128, 1]));
        assert!(is_row_major(&[1, 128], &[4096, 1]));
        assert!(!is_row_major(&[64, 128], &[256, 1]));
        assert!(!is_row_major(&[64, 128], &[1, 64]));
        assert!(!is_row_major(&[64], &[1, 1]));
        assert!(is_row_major(&[], &[]));
        let huge = i64::MAX;
        assert!(!is_row_major(&[huge, huge, huge, 2], &[0, 0, 2, 1]));
        assert!(is_row_major(&[1, huge, 1], &[7, 1, 1]));
    }

    #[test]
    fn tma_strides() {
        // f32 rows of 512 elements: 2048 bytes.
        assert!(tma_strides_ok(&[Some(512), Some(1)], 32));
        // f16 rows of 100 elements: 200 bytes, not a multiple of 16.
        assert!(!tma_strides_ok(&[Some(100), Some(1)], 16));
        // A strided innermost dimension.
        assert!(!tma_strides_ok(&[Some(1024), Some(2)], 32));
        // Dynamic strides are the host's to check.
        assert!(tma_strides_ok(&[None, Some(1)], 16));
        assert!(tma_strides_ok(&[None, None], 16));
        assert!(tma_strides_ok(&[], 16));
        assert_eq!(list_text(&[None, Some(1)]), "[?, 1]");
    }

    #[test]
    fn smem_alignment_and_slices() {
        assert_eq!(tma_smem_alignment(0), 128);
        assert_eq!(tma_smem_alignment(128), 1024);
        // 8x32 f32 split over 2 CTAs: 4 rows of 128 bytes each.
        assert_eq!(multicast_slice_bytes(&[4, 32], 0, 4), 512);
        assert_eq!(multicast_slice_bytes(&[1, 4, 32], 1, 2), 256);
        assert_eq!(multicast_slice_bytes(&[4, 32], 5, 4), 4);
    }

    #[test]
    fn reductions_without_a_lowering_support_no_type() {
        assert_eq!(reduction_kind(ReductionOp::Smin), Some("min"));
        for op in [
            ReductionOp::Umin,
            ReductionOp::Umax,
            ReductionOp::Inc,
            ReductionOp::Dec,
        ] {
            assert_eq!(reduction_kind(op), None);
            assert!(reduction_types(op).is_empty());
        }
        assert_eq!(
            reduction_types(ReductionOp::Smax),
            [ElementType::I32, ElementType::I64]
        );
    }
}
