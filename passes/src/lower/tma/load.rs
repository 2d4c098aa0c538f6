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
//! The four shapes of a load:
//! - **single**: no collective, or a collective group of one CTA. The box is
//!   the window.
//! - **multicast** (`collective_axes` over N > 1 CTAs): the window is split
//!   along its outermost leading dimension longer than 1 (verify's
//!   `multicast_split_dim`, which must divide by N); CTA `i` of the group
//!   loads slice `i` into the same place of every group member's tile, with
//!   the group's 16-bit CTA mask. Each CTA still expects the whole window's
//!   bytes, since all N slices land in its tile.
//! - **partitioned** (`leader_tracked = "partitioned"`, a CTA pair): CTA `i`
//!   of the pair loads the window moved by `i` windows along
//!   `partition_axis` into its own tile, with `.cta_group::2` and the
//!   leader's barrier (`mapa` to rank `rank & ~1`). Only the leader arrives,
//!   expecting twice the window's bytes.
//! - **replicated** (`leader_tracked = "replicated"`, a CTA pair): as
//!   multicast over the pair, plus `.cta_group::2` and the leader's barrier;
//!   the leader expects twice the window's bytes.

use super::super::emitted::{arith, llvm, nvvm};
use acopy_dialect::{AcopyOp, CopyGmemToSmem, LeaderTracked};
use melior::ir::{operation::OperationLike, r#type::MemRefType, ShapedTypeLike, Value};

use super::{
    super::build::{Builder, Ix},
    cluster::{self, Collective},
    maps, smem, source,
    source::Access,
    start::{self, StartAlignment},
    tile_element, window_coordinates,
};
use crate::{
    lower::cp_async, target::Target, verify::shape, verify::tma_facts::tma_fallback_exists,
    PassOptions,
};

/// The largest transaction count of an mbarrier phase (PTX: 2^20 - 1).
const MAX_TX_COUNT: i64 = (1 << 20) - 1;

/// How the copy is spread over the cluster.
enum Mode {
    Single,
    Multicast(Collective),
    Partitioned(usize),
    Replicated,
}

/// Lowers one load; `b` inserts before the op, which the caller erases.
pub(crate) fn lower<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    target: &Target,
    options: &PassOptions,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    // acopy-verify refuses a TMA load without a barrier first (rule E6).
    let barrier = view.barrier.ok_or_else(|| {
        "internal error: a TMA load without a barrier reached the lowering".to_string()
    })?;
    let (element_bytes, element_type) = tile_element(view.dst_type)?;
    let tile = static_shape(view.dst_type)?;
    let window = shape::window_shape(view.src_type.rank(), &tile);
    let source = source::resolve(view.src)?;
    let access = Access::of_load(view.oob_mode_or_default());
    if let Some(dim) = source.window_leaves(&view.indices, &window, access) {
        // acopy-verify refuses this first (rule A22).
        return Err(format!(
            "internal error: {}",
            source::window_message(dim, access, "src")
        ));
    }

    let collective = Collective::new(
        target.cluster,
        view.collective_axes.as_deref().unwrap_or(&[]),
    );
    let mode = match view.leader_tracked {
        Some(tracked) => {
            if !collective.is_pair() {
                // acopy-verify refuses this first (leader_tracked needs a CTA pair).
                return Err(format!(
                    "internal error: leader_tracked copy over collective_axes {} in cluster {}, which is not a CTA pair",
                    axes_text(view),
                    shape::py_tuple(&target.cluster),
                ));
            }
            match tracked {
                LeaderTracked::Partitioned { axis } => {
                    let axis = usize::try_from(axis)
                        .ok()
                        .filter(|&axis| axis < window.len())
                        .ok_or_else(|| {
                            // acopy-verify refuses this first (rule A9).
                            format!(
                                "internal error: partition_axis = {axis} is not a dimension of the copy window, which has rank {}",
                                window.len()
                            )
                        })?;
                    Mode::Partitioned(axis)
                }
                LeaderTracked::Replicated => Mode::Replicated,
            }
        }
        None if collective.size() > 1 => Mode::Multicast(collective.clone()),
        None => Mode::Single,
    };

    let split = match &mode {
        Mode::Multicast(_) | Mode::Replicated => {
            let n = u64::from(collective.size());
            // acopy-verify refuses a window it cannot split first (rule A12).
            let dim = shape::multicast_split_dim(&window, n).ok_or_else(|| {
                format!(
                    "internal error: None of the leading dimensions in the transformed slice shape {} is divisible by the collective size {n}",
                    shape::py_tuple(&window)
                )
            })?;
            Some((dim, n))
        }
        Mode::Single | Mode::Partitioned(_) => None,
    };
    let box_shape = shape::tma_box(&window, split);
    let swizzle = view.swizzle.bytes();
    let align = shape::tma_smem_alignment(swizzle);
    let mut slice = None;
    if let Some((dim, _)) = split {
        let bytes = shape::multicast_slice_bytes(&box_shape, dim, element_bytes);
        // acopy-verify refuses a slice TMA cannot address first (rule A24).
        let bytes = i64::try_from(bytes)
            .ok()
            .filter(|bytes| bytes % align as i64 == 0)
            .ok_or_else(|| {
                format!("internal error: a multicast slice of {bytes} bytes is not {align}-byte aligned")
            })?;
        slice = Some(Slice {
            dim,
            rows: box_shape[dim],
            bytes,
        });
    }
    let window_bytes = window.iter().product::<i64>() * element_bytes as i64;
    let expect_bytes = match mode {
        Mode::Single | Mode::Multicast(_) => window_bytes,
        Mode::Partitioned(_) | Mode::Replicated => 2 * window_bytes,
    };
    if expect_bytes > MAX_TX_COUNT {
        // Unreachable: rule A16 keeps a tile, so twice a window, far below.
        return Err(format!(
            "internal error: this copy makes its barrier expect {expect_bytes} bytes, more than an mbarrier's transaction count can hold ({MAX_TX_COUNT} bytes)"
        ));
    }

    let starts = source.window_start(b, &view.indices, "src")?;
    let innermost = *starts
        .last()
        .ok_or_else(|| "internal error: a copy without indices".to_string())?;
    let alignment = start::classify(b, innermost, element_bytes, view.assume_aligned_start)?;
    if !matches!(alignment, StartAlignment::Proved)
        && !tma_fallback_exists(&AcopyOp::CopyGmemToSmem(view.clone()))
    {
        // acopy-verify refuses these first (the innermost-start rules).
        return Err(
            "internal error: a TMA load whose innermost start is not known to be 16-byte aligned reached the lowering, but it has no non-TMA path"
                .to_string(),
        );
    }
    let mut map = maps::tensor_map(source.arg_index, element_type, &box_shape)?;
    map.swizzle = view.swizzle;
    let issue = TmaLoad {
        view,
        source: &source,
        map,
        mode: &mode,
        window: &window,
        slice,
        starts,
        element_bytes,
        align,
        barrier,
        expect_bytes,
    };
    start::branch(
        b,
        alignment,
        |b| issue.emit(b),
        |b| {
            tracing::info!(
                "acopy-lower: a TMA load at {} takes the cp.async path where its innermost start is not 16-byte aligned",
                view.op.location()
            );
            // The swizzle pattern is laid on absolute shared addresses, as TMA lays it.
            smem::ensure_aligned(view.dst, element_bytes, align, "dst")?;
            let options = PassOptions {
                fallback: true,
                ..options.clone()
            };
            cp_async::lower_copy(view, target, &options, b)
        },
    )
}

/// Everything one TMA issue of a load needs, computed before the branch.
struct TmaLoad<'v, 'c, 'a> {
    view: &'v CopyGmemToSmem<'c, 'a>,
    source: &'v source::GlobalSource<'c, 'a>,
    map: acopy_manifest::TensorMap,
    mode: &'v Mode,
    window: &'v [i64],
    slice: Option<Slice>,
    starts: Vec<Ix<'c, 'a>>,
    element_bytes: u64,
    align: u64,
    barrier: Value<'c, 'a>,
    expect_bytes: i64,
}

impl<'c, 'a> TmaLoad<'_, 'c, 'a> {
    /// The TMA instruction and its barrier accounting (module comment).
    fn emit(&self, b: &Builder<'c, 'a>) -> Result<(), String> {
        let (view, mode, window, slice) = (self.view, self.mode, self.window, self.slice);
        let (element_bytes, align, barrier, expect_bytes) = (
            self.element_bytes,
            self.align,
            self.barrier,
            self.expect_bytes,
        );
        let tensor_map = maps::parameter(b.context, self.source.kernel, &self.map)?;
        let mut coordinates = self.starts.clone();
        let mut dst_extra = Ix::Const(0);
        let mut mask = None;
        let mut leader = None;
        match &mode {
            Mode::Single => {}
            Mode::Multicast(group) => {
                let position = group.position(b)?;
                mask = Some(multicast_slice(
                    b,
                    slice,
                    position,
                    group.pattern(),
                    &mut coordinates,
                    &mut dst_extra,
                )?);
            }
            Mode::Replicated => {
                let (index, first) = cluster::pair_position(b)?;
                mask = Some(multicast_slice(
                    b,
                    slice,
                    (index, first),
                    0b11,
                    &mut coordinates,
                    &mut dst_extra,
                )?);
                leader = Some((index, first));
            }
            Mode::Partitioned(axis) => {
                let (index, first) = cluster::pair_position(b)?;
                let index_ix = cluster::to_index(b, index)?;
                let moved = b.mul(index_ix, Ix::Const(window[*axis]))?;
                coordinates[*axis] = b.add(coordinates[*axis], moved)?;
                leader = Some((index, first));
            }
        }
        let coordinates = window_coordinates(b, &coordinates)?;
        let dst = smem::tile_pointer(b, view.dst, element_bytes, align, "dst", dst_extra)?;
        let dst = b.value(llvm::ADDRSPACECAST, &[dst], b.ptr_type(7)?, &[])?;
        let bar = super::super::barrier::barrier_pointer(b, barrier)?;
        // With cta_group::2 the transaction bytes land on the pair leader's barrier.
        let (copy_bar, is_leader) = match leader {
            Some((index, first)) => {
                let remote = b.value(nvvm::MAPA, &[bar, first], b.ptr_type(7)?, &[])?;
                let as_int = b.value(llvm::PTRTOINT, &[remote], b.int_type(64), &[])?;
                let remote = b.value(llvm::INTTOPTR, &[as_int], b.ptr_type(3)?, &[])?;
                let zero = b.int(32, 0)?;
                (
                    remote,
                    Some(b.cmpi(super::super::build::Cmp::Eq, index, zero)?),
                )
            }
            None => (bar, None),
        };

        let first_thread = super::first_thread(b)?;
        let predicate = view.predicate;
        b.if_then(first_thread, |b| {
            let full = b.int(32, expect_bytes)?;
            let bytes = match predicate {
                Some(predicate) => b.value(
                    arith::SELECT,
                    &[predicate, full, b.int(32, 0)?],
                    b.int_type(32),
                    &[],
                )?,
                None => full,
            };
            let expect = |b: &Builder<'c, '_>| {
                b.op(nvvm::MBARRIER_ARRIVE_EXPECT_TX, &[bar, bytes], &[], &[])
                    .map(|_| ())
            };
            match is_leader {
                Some(is_leader) => b.if_then(is_leader, |b| expect(b))?,
                None => expect(b)?,
            }
            super::guarded(b, predicate, |b| {
                let mut operands = vec![dst, tensor_map];
                operands.extend(coordinates.iter().copied());
                operands.push(copy_bar);
                operands.extend(mask);
                let segments = format!(
                    "array<i32: 1, 1, {}, 1, 0, {}, 0, 0>",
                    coordinates.len(),
                    usize::from(mask.is_some())
                );
                let mut attributes = vec![("operandSegmentSizes", b.attr(&segments)?)];
                if leader.is_some() {
                    attributes.push(("group", b.attr("#nvvm.cta_group<cta_2>")?));
                }
                b.op(nvvm::TMA_LOAD, &operands, &[], &attributes)
                    .map(|_| ())
            })
        })
    }
}

/// One CTA's slice of a multicast box, along the split dimension.
#[derive(Clone, Copy)]
struct Slice {
    dim: usize,
    /// Its extent along `dim`.
    rows: i64,
    /// The bytes it takes in the tile: later slices start there.
    bytes: i64,
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
    coordinates: &mut [Ix<'c, 'a>],
    dst_extra: &mut Ix<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let index = cluster::to_index(b, index)?;
    let Some(slice) = slice else {
        return Err("internal error: a multicast copy without a split".to_string());
    };
    let rows = b.mul(index, Ix::Const(slice.rows))?;
    coordinates[slice.dim] = b.add(coordinates[slice.dim], rows)?;
    *dst_extra = b.mul(index, Ix::Const(slice.bytes))?;
    let pattern = b.int(32, i64::from(pattern))?;
    let mask = b.binary(arith::SHLI, pattern, first)?;
    b.value(arith::TRUNCI, &[mask], b.int_type(16), &[])
}

fn static_shape(memref: MemRefType) -> Result<Vec<i64>, String> {
    crate::ir::shape(memref)
        .into_iter()
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(|| format!("internal error: the shared tile {memref} has a dynamic shape"))
}

fn axes_text(view: &CopyGmemToSmem) -> String {
    let axes: Vec<String> = view
        .collective_axes
        .iter()
        .flatten()
        .map(|axis| format!("\"{}\"", axis.as_str()))
        .collect();
    format!("[{}]", axes.join(", "))
}
