//! The one walker up a buffer's view chain, and the one notion of what
//! alignment it proves for the buffer's aligned pointer.
//!
//! [`view_root`] follows a memref through the view ops that keep (or, for
//! `memref.view`, move by a byte shift) its aligned pointer:
//! `memref.subview`, `memref.cast`, `memref.reinterpret_cast`,
//! `memref.expand_shape`, `memref.collapse_shape`, `memref.memory_space_cast`,
//! `memref.transpose` and `memref.view`, up to what the memory comes from
//! ([`Origin`]). [`Root::guaranteed`] then says which alignment the lowering
//! can guarantee once it raises the allocation:
//! - a function input in global memory: 16 bytes, by the kernel ABI
//!   (docs/kernel-abi.md); shared memory passed into a function has no such
//!   promise;
//! - a workgroup attribution of a gpu.func (`llvm.align`) or a
//!   `memref.global` (`alignment`): whatever the lowering raises it to;
//! - `gpu.dynamic_shared_memory`: 16 bytes;
//! - `memref.assume_alignment`: what the kernel promises;
//! - anything else: nothing.
//!
//! A `memref.view` on the way caps the result at the largest power of two
//! proved to divide its byte shift. The cp.async path asks for 16 bytes (its
//! largest chunk); the TMA path for its tile alignment ([`alignment_problem`]).
//! The raising itself is `crate::raise_alignment`'s. [`memory_root`] follows the
//! same chain (and through `memref.assume_alignment`) to the memory a view names.

use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, r#type::MemRefType,
    OperationRef, RegionLike, Value, ValueLike,
};

use super::divisor::{pow2_divisor, DIVISOR_CAP};
use crate::ir;
use crate::ir::memref_layout::{static_layout, Static};
use crate::ir::op_names::{gpu, memref};

/// The alignment a global kernel argument has by the kernel ABI, and the
/// alignment of `gpu.dynamic_shared_memory`.
pub(crate) const ABI_ALIGN: u64 = 16;

/// The longest view chain followed; a longer one proves nothing.
const MAX_VIEWS: usize = 64;

/// Where a buffer's memory comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin<'c, 'a> {
    /// An input of the function (not an attribution).
    Input,
    /// Workgroup (or private) attribution `index` of a gpu.func, counted
    /// after the inputs.
    Attribution(OperationRef<'c, 'a>, usize),
    /// A `memref.get_global`.
    Global(OperationRef<'c, 'a>),
    /// `gpu.dynamic_shared_memory`.
    DynamicShared,
    /// A `memref.assume_alignment` with this alignment (at least 1).
    Assumed(u64),
    /// Anything else: nothing is known.
    Unknown,
}

/// What [`view_root`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Root<'c, 'a> {
    pub origin: Origin<'c, 'a>,
    /// The largest power of two dividing every `memref.view` byte shift on the
    /// way ([`DIVISOR_CAP`] without one).
    pub shift_divisor: u64,
}

impl Root<'_, '_> {
    /// The alignment in bytes the buffer's aligned pointer has once the
    /// lowering raises its allocation to `want`; `None` when nothing is known.
    /// `shared` says the buffer is in shared memory (an input then has no
    /// alignment promise).
    pub fn guaranteed(&self, shared: bool, want: u64) -> Option<u64> {
        let origin = match self.origin {
            Origin::Input if !shared => Some(ABI_ALIGN),
            Origin::Input => None,
            Origin::Attribution(function, index) => {
                has_workgroup_attribution(function, index).then_some(want)
            }
            Origin::Global(get_global) => global_of(get_global).map(|_| want),
            Origin::DynamicShared => Some(ABI_ALIGN),
            Origin::Assumed(align) => Some(align),
            Origin::Unknown => None,
        };
        origin.map(|align| align.min(self.shift_divisor))
    }

    /// The shared memory the view chain starts from, named for a message
    /// (`workgroup attribution #0`, `gpu.dynamic_shared_memory`, a shared
    /// global's symbol); `None` when the root is not shared memory. A chain
    /// reaches global memory space from shared memory only through
    /// `memref.memory_space_cast`, which the copy instructions cannot undo:
    /// they take global addresses (rule A35).
    pub fn shared_memory(&self) -> Option<String> {
        match self.origin {
            Origin::Attribution(function, index) if has_workgroup_attribution(function, index) => {
                Some(format!("workgroup attribution #{index}"))
            }
            Origin::DynamicShared => Some(gpu::DYNAMIC_SHARED_MEMORY.name.to_string()),
            Origin::Global(get_global) => {
                let memref = MemRefType::try_from(get_global.result(0).ok()?.r#type()).ok()?;
                if acopy_dialect::MemorySpace::of(memref) != acopy_dialect::MemorySpace::Shared {
                    return None;
                }
                let name = get_global.attribute("name").ok()?;
                Some(format!("the shared global {name}"))
            }
            _ => None,
        }
    }
}

/// Follows `value` up its view chain (see the module comment).
pub(crate) fn view_root<'c, 'a>(value: Value<'c, 'a>) -> Root<'c, 'a> {
    let mut current = value;
    let mut shift_divisor = DIVISOR_CAP;
    let mut origin = Origin::Unknown;
    for _ in 0..MAX_VIEWS {
        match step(current) {
            Step::Through(source, shift) => {
                current = source;
                shift_divisor = shift_divisor.min(shift);
            }
            Step::Assumed(_, align) => {
                origin = Origin::Assumed(align);
                break;
            }
            Step::Stop(found) => {
                origin = found;
                break;
            }
        }
    }
    Root {
        origin,
        shift_divisor,
    }
}

/// Which memory a memref views: the value its view chain ends at, followed
/// through `memref.assume_alignment` too (which promises an alignment but
/// names the same memory), kept only as an identity to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemoryRoot(usize);

/// The [`MemoryRoot`] of `value`. Two memrefs with the same root may alias;
/// the pipeliner asks this of a copy's source and of every write in its loop.
pub(crate) fn memory_root(value: Value) -> MemoryRoot {
    let mut current = value;
    for _ in 0..MAX_VIEWS {
        match step(current) {
            Step::Through(source, _) | Step::Assumed(source, _) => current = source,
            Step::Stop(_) => break,
        }
    }
    MemoryRoot(current.to_raw().ptr as usize)
}

/// One step up a view chain.
enum Step<'c, 'a> {
    /// A view of this value, moving the aligned pointer by a byte shift with
    /// this divisor.
    Through(Value<'c, 'a>, u64),
    /// A `memref.assume_alignment` of this value promising this alignment.
    Assumed(Value<'c, 'a>, u64),
    Stop(Origin<'c, 'a>),
}

fn step<'c, 'a>(value: Value<'c, 'a>) -> Step<'c, 'a> {
    if let Some((block, position)) = ir::block_argument(value) {
        return Step::Stop(argument_origin(block, position));
    }
    let Some(op) = ir::defining_op(value) else {
        return Step::Stop(Origin::Unknown);
    };
    let shift = match ir::table_op(&op) {
        Some(
            memref::SUBVIEW
            | memref::CAST
            | memref::REINTERPRET_CAST
            | memref::EXPAND_SHAPE
            | memref::COLLAPSE_SHAPE
            | memref::MEMORY_SPACE_CAST
            | memref::TRANSPOSE,
        ) => DIVISOR_CAP,
        Some(memref::VIEW) => op.operand(1).map_or(1, pow2_divisor),
        Some(memref::ASSUME_ALIGNMENT) => {
            let align = op
                .attribute("alignment")
                .ok()
                .and_then(|value| IntegerAttribute::try_from(value).ok())
                .map_or(1, |value| u64::try_from(value.value()).unwrap_or(0).max(1));
            return match op.operand(0) {
                Ok(source) => Step::Assumed(source, align),
                Err(_) => Step::Stop(Origin::Assumed(align)),
            };
        }
        Some(gpu::DYNAMIC_SHARED_MEMORY) => return Step::Stop(Origin::DynamicShared),
        Some(memref::GET_GLOBAL) => return Step::Stop(Origin::Global(op)),
        _ => return Step::Stop(Origin::Unknown),
    };
    match op.operand(0) {
        Ok(source) => Step::Through(source, shift),
        Err(_) => Step::Stop(Origin::Unknown),
    }
}

/// What an entry-block argument of a function is.
fn argument_origin<'c, 'a>(block: melior::ir::BlockRef<'c, 'a>, position: usize) -> Origin<'c, 'a> {
    let Some(function) = block.parent_operation() else {
        return Origin::Unknown;
    };
    let is_entry = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .is_some_and(|entry| entry == block);
    let Ok(inputs) = ir::function_inputs(function) else {
        return Origin::Unknown;
    };
    if !is_entry {
        Origin::Unknown
    } else if position < inputs {
        Origin::Input
    } else if ir::is(&function, ir::op_names::gpu::FUNC) {
        Origin::Attribution(function, position - inputs)
    } else {
        Origin::Unknown
    }
}

/// Whether `function` has workgroup attribution `index`.
pub(crate) fn has_workgroup_attribution(function: OperationRef, index: usize) -> bool {
    function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .is_some_and(|value| usize::try_from(value.value()).is_ok_and(|count| index < count))
}

/// The `memref.global` that `get_global` reads, looked up in the nearest
/// enclosing symbol tables.
pub(crate) fn global_of<'c, 'a>(get_global: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let symbol = get_global.attribute("name").ok()?.to_string();
    let symbol = symbol.strip_prefix('@')?.trim_matches('"').to_string();
    let mut table = get_global.parent_operation();
    while let Some(candidate) = table {
        if candidate.has_attribute("sym_name") || candidate.parent_operation().is_none() {
            if let Some(global) = find_global(candidate, &symbol) {
                return Some(global);
            }
        }
        table = candidate.parent_operation();
    }
    None
}

fn find_global<'c, 'a>(table: OperationRef<'c, 'a>, symbol: &str) -> Option<OperationRef<'c, 'a>> {
    let body = table.region(0).ok()?;
    let block = body.first_block()?;
    let mut current = block.first_operation();
    while let Some(op) = current {
        if ir::is(&op, ir::op_names::memref::GLOBAL)
            && ir::symbol_name(op).as_deref() == Some(symbol)
        {
            return Some(op);
        }
        current = op.next_in_block();
    }
    None
}

/// Why a TMA tile's `align`-byte alignment cannot be guaranteed, or `None`
/// when the lowering can guarantee it (by raising [`view_root`]'s allocation).
///
/// TMA reads and writes a shared tile at a 128-byte aligned address. A
/// swizzled tile also needs its swizzle pattern to start at the tile: the
/// pattern repeats every 8 rows of `S` bytes, so the tile must be aligned to
/// `8 * S` bytes (256, 512 and 1024 bytes for 32-, 64- and 128-byte
/// swizzles). The tile's static offset must be a multiple of `align` too.
/// Rule A25 reports the problem.
pub(crate) fn alignment_problem(tile: Value, element_bytes: u64, align: u64) -> Option<String> {
    let memref = MemRefType::try_from(tile.r#type()).ok()?;
    let offset = match static_layout(memref) {
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
    let guaranteed = view_root(tile).guaranteed(true, align);
    (guaranteed.is_none_or(|guaranteed| guaranteed < align)).then(|| format!(
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
