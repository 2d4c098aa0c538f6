//! `acopy.copy_gmem_to_smem` on sm_90 and newer: one `cp.async.bulk.tensor`
//! issued by thread (0, 0, 0) of the block, tracked by the mbarrier.
//!
//! ```text
//! if (thread == (0,0,0)) {
//!   mbarrier.arrive.expect_tx [bar], pred ? bytes : 0   // leader only, ×2, when leader-tracked
//!   if (pred) cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//!               [dst], [tmap, {coords innermost first}], [bar] (, mask)
//! }
//! ```
//!
//! The plan (`crate::plan::tma_load`) says which of the four shapes a load
//! has; this file builds it:
//! - **single**: the box is the window.
//! - **multicast**: CTA `i` of the group moves its coordinates and tile
//!   address to slice `i` and multicasts it with the group's 16-bit CTA mask.
//! - **partitioned**: CTA `i` of the pair moves its coordinates by `i`
//!   windows along `partition_axis`, with `.cta_group::2` and the leader's
//!   barrier (`mapa` to rank `rank & ~1`); only the leader arrives.
//! - **replicated**: as multicast over the pair, plus `.cta_group::2` and the
//!   leader's barrier.

use crate::ir::op_names::{arith, llvm, nvvm};
use acopy_dialect::CopyGmemToSmem;
use melior::ir::{operation::OperationLike, Value};

use super::{
    cluster,
    issue::{box_coordinates, placed_boxes},
    map_params,
    start::{self, StartAlignment},
};
use crate::ir::{
    build::{Builder, Cmp, Ix},
    spelled,
};
use crate::{
    lower::{cp_async, tile_address},
    plan::tma_load::{Mode, Slice, StartPath, TmaLoadPlan},
    target::Target,
};

/// Lowers one load as `plan` says; `b` inserts before the op, which the
/// caller erases.
pub(crate) fn lower<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    plan: &TmaLoadPlan<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let starts = super::issue::window_start(b, &plan.source.offsets, &view.indices)?;
    let innermost = *starts
        .last()
        .ok_or_else(|| "internal error: a copy without indices".to_string())?;
    let alignment = match plan.start {
        StartPath::Tma => StartAlignment::Proved,
        StartPath::NonTma => StartAlignment::Misaligned,
        StartPath::RunTimeCheck => start::check(b, innermost, plan.element_bytes)?,
    };
    start::branch(
        b,
        alignment,
        |b| emit(view, plan, &starts, target, b),
        |b| {
            tracing::info!(
                "acopy-lower: a TMA load at {} takes the cp.async path where its innermost start is not 16-byte aligned",
                view.op.location()
            );
            let non_tma = plan.non_tma.as_ref().ok_or_else(|| {
                "internal error: a TMA load without a non-TMA plan took the non-TMA path"
                    .to_string()
            })?;
            // The swizzle pattern is laid on absolute shared addresses, as TMA lays it.
            tile_address::ensure_aligned(plan.tile, plan.align)?;
            cp_async::lower_copy(view, non_tma, target, b)
        },
    )
}

/// Where this CTA's part of the load goes (module comment).
struct Spread<'c, 'a> {
    /// Window start, outermost first.
    coordinates: Vec<Ix<'c, 'a>>,
    /// Bytes into the tile.
    dst_extra: Ix<'c, 'a>,
    /// The multicast CTA mask.
    mask: Option<Value<'c, 'a>>,
    /// `(index in the pair, leader's rank)` with `cta_group::2`.
    leader: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
}

fn spread<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &TmaLoadPlan<'c, 'a>,
    starts: &[Ix<'c, 'a>],
) -> Result<Spread<'c, 'a>, String> {
    let mut spread = Spread {
        coordinates: starts.to_vec(),
        dst_extra: Ix::Const(0),
        mask: None,
        leader: None,
    };
    match &plan.mode {
        Mode::Single => {}
        Mode::Multicast(group) => {
            let position = group.position(b)?;
            spread.mask = Some(multicast_slice(
                b,
                plan.slice,
                position,
                group.pattern(),
                &mut spread,
            )?);
        }
        Mode::Replicated => {
            let (index, first) = cluster::pair_position(b)?;
            spread.mask = Some(multicast_slice(
                b,
                plan.slice,
                (index, first),
                0b11,
                &mut spread,
            )?);
            spread.leader = Some((index, first));
        }
        Mode::Partitioned(axis) => {
            let (index, first) = cluster::pair_position(b)?;
            let index_ix = cluster::to_index(b, index)?;
            let moved = b.mul(index_ix, Ix::Const(plan.window[*axis]))?;
            spread.coordinates[*axis] = b.add(spread.coordinates[*axis], moved)?;
            spread.leader = Some((index, first));
        }
    }
    Ok(spread)
}

/// The TMA instruction and its barrier accounting (module comment).
fn emit<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    plan: &TmaLoadPlan<'c, 'a>,
    starts: &[Ix<'c, 'a>],
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let tensor_map = map_params::parameter(b.context, plan.source.kernel, &plan.map)?;
    let spread = spread(b, plan, starts)?;
    let placed = placed_boxes(plan.boxes.as_ref(), spread.coordinates.len());
    let coordinates = placed
        .iter()
        .map(|one| box_coordinates(b, &spread.coordinates, one))
        .collect::<Result<Vec<_>, _>>()?;
    let dst = tile_address::tile_pointer(
        b,
        view.dst,
        plan.tile,
        (plan.element_bytes, plan.align),
        "dst",
        spread.dst_extra,
    )?;
    let mut boxes = Vec::with_capacity(placed.len());
    for (one, coordinates) in placed.iter().zip(coordinates) {
        let dst = b.byte_offset(dst, Ix::Const(one.tile_bytes))?;
        let dst = b.value(llvm::ADDRSPACECAST, &[dst], b.ptr_type(7)?, &[])?;
        boxes.push(BoxIssue { coordinates, dst });
    }
    let bar = super::super::barrier::barrier_pointer(b, plan.barrier)?;
    // With cta_group::2 the transaction bytes land on the pair leader's barrier.
    let (copy_bar, is_leader) = match spread.leader {
        Some((index, first)) => {
            let remote = b.value(nvvm::MAPA, &[bar, first], b.ptr_type(7)?, &[])?;
            let as_int = b.value(llvm::PTRTOINT, &[remote], b.int_type(64), &[])?;
            let remote = b.value(llvm::INTTOPTR, &[as_int], b.ptr_type(3)?, &[])?;
            let zero = b.int(32, 0)?;
            (remote, Some(b.cmpi(Cmp::Eq, index, zero)?))
        }
        None => (bar, None),
    };
    let issue = Issue {
        predicate: view.predicate,
        expect_bytes: plan.expect_bytes,
        bar,
        is_leader,
        tensor_map,
        boxes,
        copy_bar,
        mask: spread.mask,
        cta_pair: spread.leader.is_some(),
    };
    let first_thread = crate::lower::issuers::is_first_issuer(b, target)?;
    // In the previous copy's if, when `merge_ifs` would merge the two.
    b.issue_if(first_thread, |b| issue.emit(b))
}

/// The values thread (0, 0, 0) issues the load with.
struct Issue<'c, 'a> {
    predicate: Option<Value<'c, 'a>>,
    expect_bytes: i64,
    /// This CTA's barrier, which expects the bytes.
    bar: Value<'c, 'a>,
    /// With `cta_group::2`, whether this CTA is the pair leader.
    is_leader: Option<Value<'c, 'a>>,
    tensor_map: Value<'c, 'a>,
    /// Each box's coordinates and tile address (one box unless a wide copy
    /// is split: docs/dialect.md, "Wide tiles").
    boxes: Vec<BoxIssue<'c, 'a>>,
    /// The barrier the copy completes.
    copy_bar: Value<'c, 'a>,
    mask: Option<Value<'c, 'a>>,
    cta_pair: bool,
}

impl<'c, 'a> Issue<'c, 'a> {
    fn emit(&self, b: &Builder<'c, 'a>) -> Result<(), String> {
        let full = b.int(32, self.expect_bytes)?;
        let bytes = match self.predicate {
            Some(predicate) => b.value(
                arith::SELECT,
                &[predicate, full, b.int(32, 0)?],
                b.int_type(32),
                &[],
            )?,
            None => full,
        };
        let expect = |b: &Builder<'c, '_>| {
            b.op(
                nvvm::MBARRIER_ARRIVE_EXPECT_TX,
                &[self.bar, bytes],
                &[],
                &[],
            )
            .map(|_| ())
        };
        match self.is_leader {
            Some(is_leader) => b.if_then(is_leader, |b| expect(b))?,
            None => expect(b)?,
        }
        super::issue::guarded(b, self.predicate, |b| {
            self.boxes.iter().try_for_each(|one| self.issue(b, one))
        })
    }

    /// One `cp.async.bulk.tensor` of one box, on the copy's barrier.
    fn issue(&self, b: &Builder<'c, 'a>, one: &BoxIssue<'c, 'a>) -> Result<(), String> {
        let mut operands = vec![one.dst, self.tensor_map];
        operands.extend(one.coordinates.iter().copied());
        operands.push(self.copy_bar);
        operands.extend(self.mask);
        let segments = b.segments(&[
            1,
            1,
            one.coordinates.len(),
            1,
            0,
            usize::from(self.mask.is_some()),
            0,
            0,
        ]);
        let mut attributes = vec![("operandSegmentSizes", segments)];
        if self.cta_pair {
            attributes.push(("group", spelled::cta_group_pair(b.context)?));
        }
        b.op(nvvm::TMA_LOAD, &operands, &[], &attributes)
            .map(|_| ())
    }
}

/// One box's TMA coordinates (`i32`, innermost first) and its address in
/// the tile (`!llvm.ptr<7>`).
struct BoxIssue<'c, 'a> {
    coordinates: Vec<Value<'c, 'a>>,
    dst: Value<'c, 'a>,
}

/// Moves this CTA's coordinates and tile address to its slice, and returns
/// its CTA mask, `(pattern << first) : i16`. `(index, first)` is the CTA's
/// index in its group and the rank of the group's first CTA (both i32);
/// `pattern` is the group's mask when that rank is 0.
fn multicast_slice<'c, 'a>(
    b: &Builder<'c, 'a>,
    slice: Option<Slice>,
    (index, first): (Value<'c, 'a>, Value<'c, 'a>),
    pattern: u32,
    spread: &mut Spread<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let index = cluster::to_index(b, index)?;
    let Some(slice) = slice else {
        return Err("internal error: a multicast copy without a split".to_string());
    };
    let rows = b.mul(index, Ix::Const(slice.rows))?;
    spread.coordinates[slice.dim] = b.add(spread.coordinates[slice.dim], rows)?;
    spread.dst_extra = b.mul(index, Ix::Const(slice.bytes))?;
    let pattern = b.int(32, i64::from(pattern))?;
    let mask = b.binary(arith::SHLI, pattern, first)?;
    b.value(arith::TRUNCI, &[mask], b.int_type(16), &[])
}
