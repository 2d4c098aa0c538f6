//! Where the moved attributions go in dynamic shared memory.

use super::size::Attribution;
use crate::plan::loops::slots::{dynamic_reserve, padded, DYNAMIC_BASE_ALIGN};

/// Where the moved attributions go: their offsets from the (aligned) start of
/// the moved bytes, and the bytes the kernel then records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    /// Bytes before the moved ones: those the pipeliner placed, rounded up
    /// to the base alignment.
    pub(super) start: u64,
    /// The largest alignment among the attributions (at least 16).
    pub(super) align: u64,
    /// Each attribution's offset from the aligned start, in order.
    pub(super) offsets: Vec<u64>,
    /// `acopy.dynamic_shared_memory` after the move.
    pub(super) dynamic_total: u64,
}

/// Lays out `attributions` after `recorded` dynamic bytes.
pub(super) fn layout(attributions: &[Attribution], recorded: u64) -> Layout {
    let start = padded(recorded, DYNAMIC_BASE_ALIGN);
    let align = attributions
        .iter()
        .map(|attribution| attribution.align)
        .fold(DYNAMIC_BASE_ALIGN, u64::max);
    let mut end = 0u64;
    let mut offsets = Vec::with_capacity(attributions.len());
    for attribution in attributions {
        let offset = padded(end, attribution.align);
        offsets.push(offset);
        end = offset.saturating_add(attribution.bytes);
    }
    Layout {
        start,
        align,
        offsets,
        dynamic_total: start
            .saturating_add(dynamic_reserve(align))
            .saturating_add(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribution(bytes: u64, align: u64) -> Attribution {
        Attribution {
            bytes,
            align,
            not_viewable: None,
        }
    }

    #[test]
    fn layout_packs_in_order_at_each_alignment() {
        let layout = layout(&[attribution(100, 16), attribution(4096, 16)], 0);
        assert_eq!(layout.offsets, vec![0, 112]);
        assert_eq!(layout.align, 16);
        assert_eq!(layout.dynamic_total, 112 + 4096);
    }

    #[test]
    fn layout_follows_recorded_bytes_and_reserves_large_alignments() {
        let layout = layout(&[attribution(8, 16), attribution(8192, 1024)], 98_417);
        assert_eq!(layout.start, 98_432);
        assert_eq!(layout.align, 1024);
        assert_eq!(layout.offsets, vec![0, 1024]);
        assert_eq!(layout.dynamic_total, 98_432 + 1008 + 1024 + 8192);
    }
}
