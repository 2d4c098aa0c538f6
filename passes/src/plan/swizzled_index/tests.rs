//! The index against an independent model of where the copies write each
//! byte: docs/dialect.md's definition ("Wide tiles": the column panel, then
//! `o ^ ((o & ((S/16 - 1) << 7)) >> 3)`), written here as the GPU suite's
//! host model writes it (runtime/src/bin/acopy-gpu-suite/swizzle_model.rs),
//! not from `Panels::place` or `pattern`.

use super::{pattern, IndexPlan};
use crate::plan::wide_tile::Panels;

/// Where the copy stores logical byte `offset` of a tile of `rows` rows of
/// `panels` spans of `span` bytes (`span` 0: unswizzled, row-major).
fn model(offset: u64, span: u64, panels: u64, rows: u64) -> u64 {
    if span == 0 {
        return offset;
    }
    let row_bytes = span * panels;
    let (row, column) = (offset / row_bytes, offset % row_bytes);
    let placed = (column / span) * rows * span + row * span + column % span;
    let line_bits = ((span / 16 - 1) << 7) as usize;
    placed ^ ((placed & line_bits as u64) >> 3)
}

fn plan(span: u32, element_bytes: u64, panels: u64, rows: u64) -> IndexPlan {
    let row_bytes = u64::from(span.max(16)) * panels;
    IndexPlan {
        swizzle: span,
        element_bytes,
        row_bytes,
        panels: (panels > 1).then_some(Panels {
            span: u64::from(span),
            count: panels,
            rows,
        }),
    }
}

/// For every swizzle, element size and one, two or three panels: logical
/// element (r, c) is read at the (row, column) whose byte is the one the
/// copy wrote it to, and no two elements share a position.
#[test]
fn the_index_is_where_the_copy_wrote_the_element() {
    let rows = 16;
    for span in [0u32, 32, 64, 128] {
        for element_bytes in [1u64, 2, 4, 8] {
            for panels in [1u64, 2, 3] {
                if span == 0 && panels > 1 {
                    continue;
                }
                let plan = plan(span, element_bytes, panels, rows);
                let row = plan.row_bytes / element_bytes;
                let mut seen = vec![false; (rows * row) as usize];
                for r in 0..rows {
                    for c in 0..row {
                        let (pr, pc) = plan.physical(r, c);
                        assert!(pr < rows && pc < row, "({r}, {c}) -> ({pr}, {pc})");
                        let logical = r * plan.row_bytes + c * element_bytes;
                        assert_eq!(
                            pr * plan.row_bytes + pc * element_bytes,
                            model(logical, u64::from(span), panels, rows),
                            "span {span}, {element_bytes}-byte elements, {panels} panels, ({r}, {c})"
                        );
                        let at = (pr * row + pc) as usize;
                        assert!(!seen[at], "two elements at ({pr}, {pc})");
                        seen[at] = true;
                    }
                }
            }
        }
    }
}

/// The 128-byte pattern of an f16 tile, by hand: row 1's unit 0 (columns
/// 0..8) is stored in unit 1 (columns 8..16); row 9 repeats row 1; the
/// 64-byte pattern keys on row / 2, the 32-byte one on row / 4.
#[test]
fn known_positions() {
    let f16 = plan(128, 2, 1, 64);
    assert_eq!(f16.physical(0, 5), (0, 5));
    assert_eq!(f16.physical(1, 0), (1, 8));
    assert_eq!(f16.physical(1, 9), (1, 1));
    assert_eq!(f16.physical(9, 0), (9, 8));
    assert_eq!(f16.physical(7, 63), (7, 63 ^ (7 << 3)));
    assert_eq!(plan(64, 2, 1, 64).physical(2, 0), (2, 8));
    assert_eq!(plan(32, 2, 1, 64).physical(4, 0), (4, 8));
    assert_eq!(plan(32, 2, 1, 64).physical(3, 0), (3, 0));
    // Two 128-byte panels of a 64 x 128 f16 tile: column 64 of row 0 is
    // byte 8192, the start of panel 1, which is row 32 of the 128-wide tile.
    assert_eq!(plan(128, 2, 2, 64).physical(0, 64), (32, 0));
    assert_eq!(plan(0, 4, 1, 8).physical(3, 2), (3, 2));
}

#[test]
fn pattern_moves_only_the_unit_bits() {
    assert_eq!(pattern(1024 + 128, 128), 1024 + 128 + 16);
    assert_eq!(pattern(200, 0), 200);
    for offset in 0..4096 {
        assert_eq!(pattern(offset, 64) % 16, offset % 16);
    }
}

/// A plan pinned on its op reads back as itself, with and without column
/// panels (`crate::plan::pinned`); too few words, or a negative one, are no plan.
#[test]
fn a_pinned_plan_reads_back_as_itself() {
    for plan in [plan(128, 2, 2, 8), plan(64, 4, 1, 16), plan(0, 1, 1, 4)] {
        assert_eq!(IndexPlan::from_words(&plan.words()), Some(plan), "{plan:?}");
    }
    let paneled = plan(128, 2, 2, 8);
    assert!(paneled.panels.is_some());
    assert_eq!(IndexPlan::from_words(&paneled.words()[..5]), None);
    let mut negative = paneled.words();
    negative[1] = -2;
    assert_eq!(IndexPlan::from_words(&negative), None);
}
