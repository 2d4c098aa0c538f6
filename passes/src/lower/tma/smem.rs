//! Shared-memory tiles of TMA copies: their address and their alignment.
//!
//! TMA reads and writes a shared tile at a 128-byte aligned address. A
//! swizzled tile also needs its swizzle pattern to start at the tile: the
//! pattern repeats every 8 rows of `S` bytes, so the tile must be aligned to
//! `8 * S` bytes (256, 512 and 1024 bytes for 32-, 64- and 128-byte
//! swizzles). Otherwise the bytes land where the canonical pattern, the one
//! host code and other instructions assume, does not put them.
//!
//! The alignment is guaranteed, never assumed: the tile must be a workgroup
//! attribution of the kernel gpu.func (its `llvm.align` is raised), or a
//! `memref.global` in shared memory read with `memref.get_global` (its
//! `alignment` is raised), or a view of one of those that keeps the aligned
//! pointer (`memref.subview`, `memref.cast`, `memref.expand_shape`,
//! `memref.collapse_shape`, `memref.reinterpret_cast`) with a static offset
//! that is a multiple of the alignment. A kernel that aligns memory itself
//! (say, `gpu.dynamic_shared_memory` rounded up at run time) says so with
//! `memref.assume_alignment` of at least the alignment. Anything else is an
//! error.

use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, r#type::MemRefType,
    OperationRef, RegionLike, Value, ValueLike,
};

use super::super::{
    alignment,
    build::{Builder, Ix},
    memref::{self, Static},
};
use crate::ir;

/// The tile's address as `!llvm.ptr<3>`, after making sure it is `align`-byte
/// aligned. `extra_bytes` is added to the address (a multicast slice).
pub(crate) fn tile_pointer<'c, 'a>(
    b: &Builder<'c, 'a>,
    tile: Value<'c, 'a>,
    element_bytes: u64,
    align: u64,
    role: &str,
    extra_bytes: Ix<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    ensure_aligned(tile, element_bytes, align, role)?;
    let strided = memref::read_strided(b, tile, role)?;
    let offset = b.mul(strided.offset, Ix::Const(element_bytes as i64))?;
    let address = b.add(Ix::Val(strided.base), offset)?;
    let address = b.add(address, extra_bytes)?;
    b.int_to_ptr(b.ix(address)?, 3)
}

/// Raises the alignment of `tile`'s memory to `align`; verification
/// (rule A25, [`alignment_problem`]) has made sure it can.
pub(crate) fn ensure_aligned(
    tile: Value,
    element_bytes: u64,
    align: u64,
    role: &str,
) -> Result<(), String> {
    if let Some(problem) = alignment_problem(tile, element_bytes, align) {
        return Err(format!("internal error: the {role} tile {}", problem));
    }
    let raised = match view_root(tile) {
        Root::Workgroup(function, index) => {
            alignment::raise_workgroup_alignment(function, index, align)
        }
        Root::Global(get_global) => alignment::raise_global_alignment(get_global, align).is_some(),
        Root::Assumed(assumed) => assumed >= align,
        Root::Other => false,
    };
    if raised {
        Ok(())
    } else {
        Err(format!(
            "internal error: cannot raise the alignment of the {role} tile to {align} bytes"
        ))
    }
}

/// Why `tile`'s `align`-byte alignment cannot be guaranteed (see the module
/// comment), or `None` when the lowering can guarantee it. Changes nothing:
/// `acopy-verify`'s rule A25 calls it, and the lowering then raises what it
/// found.
pub(crate) fn alignment_problem(tile: Value, element_bytes: u64, align: u64) -> Option<String> {
    let memref = MemRefType::try_from(tile.r#type()).ok()?;
    let offset = match memref::static_layout(memref) {
        Some((_, Static::Known(offset))) => offset,
        _ => {
            return Some("has a dynamic offset, so its alignment cannot be guaranteed".to_string())
        }
    };
    let offset_bytes = i128::from(offset) * i128::from(element_bytes);
    if offset_bytes % i128::from(align) != 0 {
        return Some(format!(
            "starts {offset_bytes} bytes into its buffer{}",
            swizzle_hint(align)
        ));
    }
    let can_raise = match view_root(tile) {
        Root::Workgroup(function, index) => alignment::has_workgroup_attribution(function, index),
        Root::Global(get_global) => alignment::global_of(get_global).is_some(),
        Root::Assumed(assumed) => assumed >= align,
        Root::Other => false,
    };
    (!can_raise).then(|| format!(
        "cannot be guaranteed to be: it must be a workgroup attribution of the kernel gpu.func, a memref.global in shared memory, the result of a memref.assume_alignment of at least {align}, or a view with a static offset of one of those"
    ))
}

fn swizzle_hint(align: u64) -> &'static str {
    if align > 128 {
        " (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)"
    } else {
        ""
    }
}

/// Where a tile's memory comes from.
enum Root<'c, 'a> {
    /// Workgroup attribution `index` of a gpu.func.
    Workgroup(OperationRef<'c, 'a>, usize),
    /// A `memref.get_global`.
    Global(OperationRef<'c, 'a>),
    /// A `memref.assume_alignment` with this alignment: the kernel promises it.
    Assumed(u64),
    Other,
}

fn view_root<'c, 'a>(tile: Value<'c, 'a>) -> Root<'c, 'a> {
    let mut current = tile;
    for _ in 0..64 {
        if let Some((block, position)) = ir::block_argument(current) {
            let Some(function) = block.parent_operation() else {
                return Root::Other;
            };
            if ir::op_name(&function) != "gpu.func" {
                return Root::Other;
            }
            let is_entry = function
                .region(0)
                .ok()
                .and_then(|region| region.first_block())
                .is_some_and(|entry| entry == block);
            let Ok(inputs) = ir::function_inputs(function) else {
                return Root::Other;
            };
            if !is_entry || position < inputs {
                return Root::Other;
            }
            return Root::Workgroup(function, position - inputs);
        }
        let Some(op) = ir::defining_op(current) else {
            return Root::Other;
        };
        match ir::op_name(&op).as_str() {
            "memref.subview"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.expand_shape"
            | "memref.collapse_shape" => {}
            "memref.get_global" => return Root::Global(op),
            "memref.assume_alignment" => {
                let alignment = op
                    .attribute("alignment")
                    .ok()
                    .and_then(|value| IntegerAttribute::try_from(value).ok())
                    .map_or(0, |value| u64::try_from(value.value()).unwrap_or(0));
                return Root::Assumed(alignment);
            }
            _ => return Root::Other,
        }
        match op.operand(0) {
            Ok(source) => current = source,
            Err(_) => return Root::Other,
        }
    }
    Root::Other
}
