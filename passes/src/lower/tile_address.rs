//! Shared-memory tiles, shared by the cp.async and TMA paths: their address,
//! their alignment, and where a byte of a swizzled or paneled tile is stored.
//!
//! TMA reads and writes a shared tile at a 128-byte aligned address. A
//! swizzled tile also needs its swizzle pattern to start at the tile: the
//! pattern repeats every 8 rows of `S` bytes, so the tile must be aligned to
//! `8 * S` bytes (256, 512 and 1024 bytes for 32-, 64- and 128-byte
//! swizzles). Otherwise the bytes land where the canonical pattern, the one
//! host code and other instructions assume, does not put them.
//!
//! The alignment is guaranteed, never assumed: the plan
//! (`crate::plan::alignment::alignment_problem`, rule A25) says why it
//! cannot be, and the lowering raises the allocation it found.

use melior::ir::{TypeLike, Value, ValueLike};

use super::memref_address;
use crate::ir::build::{Builder, Ix};
use crate::ir::op_names::{arith, llvm};
use crate::plan::wide_tile::Panels;
use crate::{
    plan::alignment::{Origin, Root},
    raise_alignment as alignment,
};

/// The tile's address as `!llvm.ptr<3>`, after raising the allocation the
/// plan found (`root`, `crate::plan::alignment::view_root`) to `align`.
/// `extra_bytes` is added to the address (a multicast slice).
pub(crate) fn tile_pointer<'c, 'a>(
    b: &Builder<'c, 'a>,
    tile: Value<'c, 'a>,
    root: Root,
    (element_bytes, align): (u64, u64),
    role: &str,
    extra_bytes: Ix<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    ensure_aligned(root, align)?;
    let strided = memref_address::read_strided(b, tile, role)?;
    let offset = b.mul(strided.offset, Ix::Const(element_bytes as i64))?;
    let address = b.add(Ix::Val(strided.base), offset)?;
    let address = b.add(address, extra_bytes)?;
    b.int_to_ptr(b.ix(address)?, 3)
}

/// Raises the allocation `root` names to `align`. The plan proved it can be
/// (`crate::plan::alignment::alignment_problem`, rule A25); an assumed
/// alignment needs nothing raised.
pub(crate) fn ensure_aligned(root: Root, align: u64) -> Result<(), String> {
    let guaranteed = root
        .guaranteed(true, align)
        .is_some_and(|bytes| bytes >= align);
    if guaranteed
        && (matches!(root.origin, Origin::Assumed(_)) || alignment::raise(root.origin, align))
    {
        Ok(())
    } else {
        Err(format!(
            "internal error: cannot raise the alignment of a shared tile to {align} bytes"
        ))
    }
}

/// `pointer` moved to where an `S`-byte swizzle puts it: TMA's pattern XORs
/// address bits 4.. (the 16-byte unit within a row of `S` bytes) with bits
/// 7.. (the row, mod `S / 16`), on absolute shared addresses, whose tile
/// both paths align to `8 × S` bytes, so the pattern starts at the tile
/// (docs/lowering-cp-async.md, "Swizzled tiles"). A chunk never crosses a
/// 16-byte unit (rows are exactly `S` bytes, rule T4; chunks at most 16 and
/// aligned), so moving its first byte moves all of it.
pub(super) fn swizzled<'c, 'a>(
    b: &Builder<'c, 'a>,
    pointer: Value<'c, 'a>,
    swizzle: u32,
) -> Result<Value<'c, 'a>, String> {
    if swizzle == 0 {
        return Ok(pointer);
    }
    let address = b.value(llvm::PTRTOINT, &[pointer], b.int_type(64), &[])?;
    let moved = pattern(b, address, swizzle)?;
    b.value(llvm::INTTOPTR, &[moved], b.ptr_type(3)?, &[])
}

/// `value` (an `i64` address, or an `index` byte offset from a tile aligned
/// to the pattern's repeat) with bits 7.. XORed into bits 4.., as an
/// `S`-byte swizzle moves it: the copies' pattern, and the one
/// `acopy.swizzled_index` computes its reads with (`super::swizzled_index`;
/// `crate::plan::swizzled_index::pattern` is its arithmetic).
pub(super) fn pattern<'c, 'a>(
    b: &Builder<'c, 'a>,
    value: Value<'c, 'a>,
    swizzle: u32,
) -> Result<Value<'c, 'a>, String> {
    let units = i64::from(swizzle / 16);
    let constant = |constant: i64| {
        if value.r#type().is_index() {
            b.index(constant)
        } else {
            b.int(64, constant)
        }
    };
    let row_bits = b.binary(arith::SHRUI, value, constant(3)?)?;
    let row_bits = b.binary(arith::ANDI, row_bits, constant((units - 1) << 4)?)?;
    b.binary(arith::XORI, value, row_bits)
}

/// Where logical tile byte `offset` (row-major, from the tile's start) is
/// stored in a tile of column panels (docs/dialect.md, "Wide tiles"):
/// `(c / S)·R·S + r·S + (c mod S)` for byte `c` of row `r`, as
/// `crate::plan::wide_tile::Panels::place` computes it. A chunk never
/// crosses a span (at most 16 bytes, aligned to its size), so placing its
/// first byte places all of it.
pub(super) fn paneled<'c, 'a>(
    b: &Builder<'c, 'a>,
    offset: Ix<'c, 'a>,
    panels: &Panels,
) -> Result<Ix<'c, 'a>, String> {
    let span = panels.span;
    let row = b.div(offset, panels.count * span)?;
    let column = b.rem_masked(offset, panels.count * span)?;
    let panel = b.div(column, span)?;
    let panel_start = b.mul(panel, Ix::Const(panels.bytes() as i64))?;
    let row_start = b.mul(row, Ix::Const(span as i64))?;
    let within = b.rem_masked(offset, span)?;
    let placed = b.add(panel_start, row_start)?;
    b.add(placed, within)
}
