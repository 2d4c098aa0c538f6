//! `acopy.copy_smem_to_gmem` and `acopy.wait_smem_to_gmem` on sm_90 and newer.
//!
//! ```text
//! fence.proxy.async.shared::cta          // every thread: its smem writes, to the async proxy
//! barrier                                // the whole tile is written
//! if (thread == (0,0,0)) {
//!   if (pred) cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tmap, {coords}], [src]
//!             (or cp.reduce.async.bulk.tensor.Nd.global.shared::cta.<op>.tile.bulk_group)
//!   cp.async.bulk.commit_group           // when commit_group (the default), predicate or not
//! }
//! ```
//! With `swizzle = S` the tensor map carries the swizzle, so TMA reads the
//! src tile (aligned to `8 × S` bytes) in its swizzled layout; the
//! element-wise path reads each element from where the pattern put it.
//! The commit does not depend on the predicate, so `pending` counts the same
//! groups on every CTA. Bulk groups belong to the thread that commits them;
//! `wait_smem_to_gmem` runs `cp.async.bulk.wait_group[.read] pending` on every
//! thread (only thread (0,0,0) has groups) and then a block barrier, so the
//! whole block knows the tile may be reused (`read_only`) or the data is in
//! global memory.

use crate::ir::op_names::nvvm;
use acopy_dialect::{CopySmemToGmem, WaitSmemToGmem};
use melior::ir::{operation::OperationLike, Attribute, Value};

use super::{
    element_store,
    issue::{box_coordinates, placed_boxes},
    map_params, start,
};
use crate::ir::{
    build::{Builder, Ix},
    spelled,
};
use crate::{plan::tma_store::TmaStorePlan, target::Target};

/// Lowers one store as `plan` says; `b` inserts before the op, which the
/// caller erases.
pub(crate) fn lower<'c, 'a>(
    view: &CopySmemToGmem<'c, 'a>,
    plan: &TmaStorePlan<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let (element_bytes, reduction) = (plan.element_bytes, plan.reduction);
    b.proxy_fence()?;
    b.block_barrier()?;
    let first_thread = crate::lower::issuers::first_thread(b)?;
    let predicate = view.predicate;

    let starts = super::issue::window_start(b, &plan.destination.offsets, &view.indices)?;
    let alignment = start::classify_store(b, &starts, element_bytes, view.assume_aligned_start)?;
    start::branch(
        b,
        alignment,
        |b| {
            let tensor_map = map_params::parameter(b.context, plan.destination.kernel, &plan.map)?;
            // One box, or each box of a window longer than 256 elements
            // (docs/dialect.md, "Wide tiles"), all in the one bulk group.
            let placed = placed_boxes(plan.boxes.as_ref(), starts.len());
            let coordinates = placed
                .iter()
                .map(|one| box_coordinates(b, &starts, one))
                .collect::<Result<Vec<_>, _>>()?;
            let src = crate::lower::tile_address::tile_pointer(
                b,
                view.src,
                plan.tile,
                (element_bytes, plan.align),
                "src",
                Ix::Const(0),
            )?;
            let mut boxes = Vec::with_capacity(placed.len());
            for (one, coordinates) in placed.iter().zip(coordinates) {
                boxes.push((b.byte_offset(src, Ix::Const(one.tile_bytes))?, coordinates));
            }
            b.if_then(first_thread, |b| {
                super::issue::guarded(b, predicate, |b| {
                    boxes.iter().try_for_each(|(src, coordinates)| {
                        issue(b, tensor_map, *src, coordinates, reduction)
                    })
                })
            })
        },
        |b| {
            tracing::info!(
                "acopy-lower: a TMA store at {} takes the element-wise path where its start is not 16-byte aligned or is negative",
                view.op.location()
            );
            super::issue::guarded(b, predicate, |b| {
                element_store::lower(view, plan, target, b)
            })
        },
    )?;
    if view.commit_group {
        b.if_then(first_thread, |b| {
            b.op(nvvm::BULK_COMMIT_GROUP, &[], &[], &[]).map(|_| ())
        })?;
    }
    Ok(())
}

/// The bulk tensor store (or reduction) itself, on thread (0, 0, 0).
fn issue<'c, 'a>(
    b: &Builder<'c, 'a>,
    tensor_map: Value<'c, 'a>,
    src: Value<'c, 'a>,
    coordinates: &[Value<'c, 'a>],
    reduction: Option<&str>,
) -> Result<(), String> {
    let mut operands = vec![tensor_map, src];
    operands.extend(coordinates.iter().copied());
    match reduction {
        None => {
            let segments = b.segments(&[1, 1, coordinates.len(), 0, 0]);
            b.op(
                nvvm::TMA_STORE,
                &operands,
                &[],
                &[("operandSegmentSizes", segments)],
            )?;
        }
        Some(kind) => {
            let segments = b.segments(&[1, 1, coordinates.len(), 0]);
            b.op(
                nvvm::TMA_REDUCE,
                &operands,
                &[],
                &[
                    ("operandSegmentSizes", segments),
                    ("redKind", spelled::tma_redux_kind(b.context, kind)?),
                ],
            )?;
        }
    }
    Ok(())
}

/// Lowers `acopy.wait_smem_to_gmem`.
pub(crate) fn lower_wait<'c, 'a>(
    view: &WaitSmemToGmem<'c, 'a>,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let pending = i32::try_from(view.pending)
        .map_err(|_| "internal error: a wait count beyond i32".to_string())?;
    let mut attributes = vec![("group", b.int_attr(32, i64::from(pending)))];
    if view.read_only {
        attributes.push(("read", Attribute::unit(b.context)));
    }
    b.op(nvvm::BULK_WAIT_GROUP, &[], &[], &attributes)?;
    b.block_barrier()
}
