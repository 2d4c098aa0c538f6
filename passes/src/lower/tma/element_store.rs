//! The non-TMA path of `acopy.copy_smem_to_gmem`, taken where the innermost
//! window start is not 16-byte aligned (tma/start.rs): every thread of the
//! block stores elements of the tile, round-robin (element `e` by thread
//! `e mod n`), with ordinary loads from shared memory and stores (or, for a
//! `reduction_op`, atomic read-modify-writes) to global memory.
//!
//! A swizzled tile (`swizzle = S`) is read where TMA's pattern put each
//! element: its logical byte offset placed in its column panel (rows of
//! several spans) and then moved by the pattern on the absolute shared
//! address (`lower/tile_address.rs`'s `paneled` and `swizzled`, the functions
//! the cp.async loads write with), on a tile aligned to `8 × S` bytes.
//!
//! It keeps the TMA store's observable semantics:
//! - elements whose global coordinate lies outside dst are skipped, as TMA
//!   clips them (unsigned compares, so negative coordinates are outside too);
//! - a false predicate stores nothing;
//! - the caller still commits the (then empty) bulk group on thread 0, so
//!   `pending` of `acopy.wait_smem_to_gmem` counts the same groups, and that
//!   wait's block barrier orders every thread's stores before "written".

use crate::ir::op_names::{arith, llvm};
use acopy_dialect::{CopySmemToGmem, ReductionOp};
use melior::ir::{ShapedTypeLike, Type, TypeLike, Value};

use super::super::{memref_address, tile_address};
use crate::ir::build::{Builder, Cmp, Ix};
use crate::{plan::tma_store::TmaStorePlan, target::Target};

/// LLVM's `AtomicBinOp` numbers, as `llvm.atomicrmw`'s `bin_op` holds them.
/// Only the reductions acopy lowers have one: `umin`, `umax`, `inc` and
/// `dec` support no element type (`crate::plan::shape::reduction_kind`, rule
/// A15), so they never reach the lowering; arms for them could not be tested.
fn atomic_bin_op(op: ReductionOp, float: bool) -> Result<i64, String> {
    Ok(match (op, float) {
        (ReductionOp::Add, false) => 1,
        (ReductionOp::And, false) => 3,
        (ReductionOp::Or, false) => 5,
        (ReductionOp::Xor, false) => 6,
        (ReductionOp::Max | ReductionOp::Smax, false) => 7,
        (ReductionOp::Min | ReductionOp::Smin, false) => 8,
        (ReductionOp::Add, true) => 11,
        (ReductionOp::Max, true) => 13,
        (ReductionOp::Min, true) => 14,
        _ => return Err("internal error: a reduction with no atomic form".to_string()),
    })
}

/// Emits the element-wise store of `view`'s tile (`plan.window`: its
/// window shape in dst, leading 1s included) for the block's threads.
pub(crate) fn lower<'c, 'a>(
    view: &CopySmemToGmem<'c, 'a>,
    plan: &TmaStorePlan<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let (window, element_bytes) = (plan.window.as_slice(), plan.element_bytes);
    if plan.swizzle != 0 {
        // The pattern lies on absolute shared addresses: it starts at the
        // tile once the tile is aligned to its repeat (rule A25).
        tile_address::ensure_aligned(plan.tile, plan.align)?;
    }
    let element: Type<'c> = view.src_type.element();
    let bin_op = match view.reduction_op {
        Some(op) => Some(atomic_bin_op(op, !element.is_integer())?),
        None => None,
    };
    // A plain store moves the element's bits as an integer of its width (as
    // the cp.async path does): LLVM loads and stores no f8 or other type
    // without an LLVM equivalent, which acopy-verify accepts (found by
    // scripts/fuzz.sh). A reduction keeps the element type, which rule A15
    // limits to f16, bf16, f32, i32 and i64.
    let moved = if element.is_integer() || bin_op.is_some() {
        element
    } else {
        b.int_type((element_bytes * 8) as u32)
    };
    let tile = memref_address::read_layout(b, view.src, "src", false)?;
    let dst = memref_address::read_layout(b, view.dst, "dst", true)?;
    let leading = window.len() - tile.strides.len();
    let total: i64 = window.iter().product();
    // Over the threads that reach the store: the block, or a warp-specialized
    // loop's consumers (the producer warp never runs a store).
    let (thread, threads) = crate::lower::issuers::issuing_threads(b, target)?;
    let bytes = Ix::Const(element_bytes as i64);
    let indices: Vec<Ix<'c, 'a>> = view
        .indices
        .iter()
        .map(|index| super::issue::index_ix(*index))
        .collect();
    let dst_pointer = b.global_ptr(dst.base, memref_address::is_generic(view.dst_type))?;
    let tile_pointer = b.int_to_ptr(tile.base, 3)?;

    let start = b.ix(thread)?;
    let end = b.index(total)?;
    let step = b.ix(threads)?;
    b.for_loop(start, end, step, |b, linear| {
        let coordinates = coordinates(b, window, linear)?;
        let mut inside: Option<Value<'c, 'a>> = None;
        let mut dst_offset = dst.offset;
        let mut tile_offset = Ix::Const(0);
        for dim in 0..window.len() {
            let position = b.add(indices[dim], coordinates[dim])?;
            let within = b.cmpi(Cmp::Ult, b.ix(position)?, b.ix(dst.sizes[dim])?)?;
            inside = Some(match inside {
                None => within,
                Some(previous) => b.binary(arith::ANDI, previous, within)?,
            });
            let step = b.mul(position, dst.strides[dim])?;
            dst_offset = b.add(dst_offset, step)?;
            if dim >= leading {
                let step = b.mul(coordinates[dim], tile.strides[dim - leading])?;
                tile_offset = b.add(tile_offset, step)?;
            }
        }
        let inside = inside.ok_or_else(|| "internal error: a rank-0 store".to_string())?;
        b.if_then(inside, |b| {
            let source = tile_source(b, plan, (tile_pointer, tile.offset), tile_offset)?;
            let target = b.byte_offset(dst_pointer, b.mul(dst_offset, bytes)?)?;
            let value = b.value(llvm::LOAD, &[source], moved, &[])?;
            write(b, bin_op, value, target, element)
        })
    })
}

/// The shared address of the tile element at logical offset `within`
/// (elements from the tile's start, row-major): in its column panel and
/// moved by the swizzle pattern when the tile is swizzled.
fn tile_source<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &TmaStorePlan<'c, 'a>,
    (pointer, offset): (Value<'c, 'a>, Ix<'c, 'a>),
    within: Ix<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let bytes = Ix::Const(plan.element_bytes as i64);
    let mut within = b.mul(within, bytes)?;
    if let Some(panels) = &plan.panels {
        within = tile_address::paneled(b, within, panels)?;
    }
    let start = b.byte_offset(pointer, b.mul(offset, bytes)?)?;
    let source = b.byte_offset(start, within)?;
    tile_address::swizzled(b, source, plan.swizzle)
}

/// Window coordinates of element `linear`, innermost fastest.
fn coordinates<'c, 'a>(
    b: &Builder<'c, 'a>,
    window: &[i64],
    linear: Value<'c, 'a>,
) -> Result<Vec<Ix<'c, 'a>>, String> {
    let mut rest = Ix::Val(linear);
    let mut coordinates = vec![Ix::Const(0); window.len()];
    for dim in (0..window.len()).rev() {
        if window[dim] == 1 {
            continue;
        }
        coordinates[dim] = b.rem(rest, window[dim] as u64)?;
        rest = b.div(rest, window[dim] as u64)?;
    }
    Ok(coordinates)
}

/// Stores `value` at `target`, or combines it there atomically with `bin_op`.
fn write<'c, 'a>(
    b: &Builder<'c, 'a>,
    bin_op: Option<i64>,
    value: Value<'c, 'a>,
    target: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<(), String> {
    match bin_op {
        None => b.op(llvm::STORE, &[value, target], &[], &[]).map(|_| ()),
        Some(bin_op) => b
            .op(
                llvm::ATOMICRMW,
                &[target, value],
                &[element],
                &[
                    ("bin_op", b.int_attr(64, bin_op)),
                    // monotonic: TMA reductions are relaxed too.
                    ("ordering", b.int_attr(64, 2)),
                ],
            )
            .map(|_| ()),
    }
}
