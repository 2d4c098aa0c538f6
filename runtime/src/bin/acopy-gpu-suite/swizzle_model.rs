//! The host model of a swizzled shared tile, written from the definition in
//! docs/lowering-cp-async.md ("Swizzled tiles"), not from either lowering: with a
//! swizzle of `S` bytes, the byte at offset `o` of the logical (row-major) tile lands at
//! `o ^ ((o & yyy) >> 3)`, where `yyy` selects offset bits 7.. (the row within an 8-row
//! pattern) as many as bits 4.. select 16-byte units in a row of `S` bytes:
//! `log2(S / 16)` bits, 3 for 128, 2 for 64, 1 for 32. The cases of both paths are
//! compared with this one model, so that they agree proves the paths byte-identical.
//! A row of several spans is stored as column panels first ([`panel_image`],
//! docs/dialect.md, "Wide tiles").

/// Where byte `offset` of the logical tile lands under a swizzle of `span` bytes (0, 32,
/// 64 or 128; 0 leaves it in place).
pub fn swizzle_offset(offset: usize, span: u32) -> usize {
    let bits = match span {
        0 => return offset,
        32 => 1,
        64 => 2,
        128 => 3,
        other => panic!("case table: no swizzle of {other} bytes"),
    };
    // Bits [7, 7 + bits) hold the row within the pattern; shifted down by 3 they land
    // on bits [4, 4 + bits), the 16-byte unit within the row.
    let rows = ((1usize << bits) - 1) << 7;
    offset ^ ((offset & rows) >> 3)
}

/// The shared-memory image of a logical tile under a swizzle of `span` bytes: byte `i`
/// of `logical` at [`swizzle_offset`]`(i)`. The tile is whole patterns of 8 rows.
pub fn tile_image(logical: &[u8], span: u32) -> Vec<u8> {
    assert_eq!(
        logical.len() % (8 * span.max(16) as usize),
        0,
        "case table: a swizzled tile of whole 8-row patterns"
    );
    let mut image = vec![0u8; logical.len()];
    for (offset, &byte) in logical.iter().enumerate() {
        image[swizzle_offset(offset, span)] = byte;
    }
    image
}

/// Where byte `offset` of a logical tile of `rows` rows, each `panels` spans of `span`
/// bytes, is stored before the swizzle: docs/dialect.md, "Wide tiles" (column panel
/// `c / span` at `panel · rows · span`, then row `r` at `r · span`, then `c mod span`).
pub fn panel_offset(offset: usize, span: usize, panels: usize, rows: usize) -> usize {
    let row_bytes = span * panels;
    let (row, column) = (offset / row_bytes, offset % row_bytes);
    (column / span) * rows * span + row * span + column % span
}

/// The shared-memory image of a logical tile of `rows` rows of several swizzle spans:
/// byte `i` of `logical` placed in its column panel, then moved by the swizzle.
pub fn panel_image(logical: &[u8], span: u32, rows: usize) -> Vec<u8> {
    let row_bytes = logical.len() / rows;
    let panels = row_bytes / span as usize;
    assert_eq!(
        (rows % 8, row_bytes % span as usize),
        (0, 0),
        "case table: whole 8-row patterns of whole spans"
    );
    let mut image = vec![0u8; logical.len()];
    for (offset, &byte) in logical.iter().enumerate() {
        let placed = panel_offset(offset, span as usize, panels, rows);
        image[swizzle_offset(placed, span)] = byte;
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 16-byte unit a logical unit `(row, unit)` of a pattern lands in.
    fn unit_at(span: u32, row: usize, unit: usize) -> (usize, usize) {
        let at = swizzle_offset(row * span as usize + unit * 16, span);
        (at / span as usize, (at % span as usize) / 16)
    }

    #[test]
    fn the_128_byte_pattern_xors_the_unit_with_the_row() {
        for row in 0..8 {
            for unit in 0..8 {
                assert_eq!(unit_at(128, row, unit), (row, unit ^ row));
            }
        }
        // The pattern repeats every 1024 bytes.
        assert_eq!(swizzle_offset(1024 + 128, 128), 1024 + 128 + 16);
    }

    #[test]
    fn the_64_and_32_byte_patterns_use_the_row_bits_above_bit_7() {
        // 64 bytes: two rows share bit 7, so the key is (row / 2) mod 4.
        for row in 0..8 {
            for unit in 0..4 {
                assert_eq!(unit_at(64, row, unit), (row, unit ^ (row / 2)));
            }
        }
        // 32 bytes: four rows share bit 7, so the key is (row / 4) mod 2.
        for row in 0..8 {
            for unit in 0..2 {
                assert_eq!(unit_at(32, row, unit), (row, unit ^ (row / 4)));
            }
        }
        // Bytes within a 16-byte unit never move relative to each other.
        for span in [32, 64, 128] {
            for offset in 0..4096 {
                assert_eq!(swizzle_offset(offset, span) % 16, offset % 16);
            }
        }
    }

    /// A 64 x 128 f16 tile with swizzle = 128: row 0's second span starts panel 1 at
    /// byte 8192; row 1's at 8192 + 128, its first unit moved by the row's pattern.
    #[test]
    fn panels_follow_one_another() {
        assert_eq!(panel_offset(128, 128, 2, 64), 8192);
        assert_eq!(panel_offset(256 + 128, 128, 2, 64), 8192 + 128);
        let logical: Vec<u8> = (0..16384u32).map(|i| (i / 16) as u8).collect();
        let image = panel_image(&logical, 128, 64);
        assert_eq!(image[8192..8192 + 16], logical[128..128 + 16]);
        assert_eq!(image[8192 + 128 + 16..8192 + 128 + 32], logical[384..400]);
        // One span per row is the plain swizzled tile.
        let narrow: Vec<u8> = (0..8192u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(panel_image(&narrow, 128, 64), tile_image(&narrow, 128));
    }

    #[test]
    fn the_model_agrees_with_the_runtime_and_is_a_permutation() {
        for span in [0, 32, 64, 128] {
            let mut seen = vec![false; 8192];
            for offset in 0..8192 {
                let at = swizzle_offset(offset, span);
                assert_eq!(
                    at,
                    acopy_runtime::tensor_map::swizzled_offset(offset, span),
                    "offset {offset}, span {span}"
                );
                assert!(!seen[at], "two bytes land at {at}");
                seen[at] = true;
            }
        }
        let logical: Vec<u8> = (0..2048u32).map(|i| (i / 16) as u8).collect();
        let image = tile_image(&logical, 128);
        assert_eq!(image[128], logical[144]);
        assert_eq!(&image[..16], &logical[..16]);
    }
}
