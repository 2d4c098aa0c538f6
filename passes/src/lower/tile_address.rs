//! Shared-memory tiles of TMA copies: their address and their alignment.
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

use melior::ir::Value;

use super::super::memref_address;
use crate::ir::build::{Builder, Ix};
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
