//! The cp.async path (sm_80..sm_89): `acopy.copy_gmem_to_smem` and
//! `acopy.wait_gmem_to_smem`. docs/lowering-cp-async.md explains it with
//! examples.
//!
//! A copy is block-collective. Every thread computes its linear id
//! `t = x + dx·(y + dy·z)` and the block's thread count `n`, and the copy's
//! chunks `0..T` are dealt out round-robin: thread `t` issues chunks
//! `t, t+n, t+2n, …` (an `scf.for` with step `n`, correct for any block size).
//! With a known block size (`gpu.known_block_size` / `nvvm.reqntid`) and at
//! most [`MAX_UNROLLED_ROUNDS`] rounds, the rounds are unrolled and only a
//! final partial round is guarded.
//!
//! Chunk `c` is byte `(c mod R)·C` of row `c div R`, where `R` is the chunks per
//! row and `C` the chunk size (`crate::plan::chunk`); the row number is split into
//! window coordinates `j`, and each address is
//! `base + (offset + Σ (index_k + j_k)·stride_k)·element_bytes` with the
//! memref's own strides (static, or from `memref.extract_strided_metadata`).
//! A window narrower than src's rows is therefore read row by row, never as
//! if it were contiguous.
//!
//! Each copy ends with one `nvvm.cp.async.commit.group`, so `pending` in
//! `acopy.wait_gmem_to_smem` counts copy ops. The wait becomes
//! `nvvm.cp.async.wait.group N` and a block barrier.
//!
//! The plan (`crate::plan::cp_async_load`) holds what the IR says of a copy: its
//! window and rows, and what its base pointers are proved aligned to; this
//! file builds the addresses and the chunks.
//!
//! Fallback mode (`PassOptions::fallback`; `acopy-verify` decides what it
//! admits) adds:
//! - a predicate: it guards the issue; the commit group is still formed;
//! - `oob_mode` `"zeros"` (and `"undefined"`, which zeros satisfy): each chunk
//!   passes the cp.async source size, the bytes of the chunk inside src (0 for
//!   a row outside src), and the hardware fills the rest with zeros. The
//!   window's innermost start then joins the alignment proof, so that no chunk
//!   straddles column 0;
//! - a barrier: instead of a commit group, every thread makes the barrier
//!   track its cp.asyncs (`nvvm.cp.async.mbarrier.arrive`, which adds a pending
//!   arrival and removes it when they land); after a block barrier, so that
//!   every thread's increment is in, thread 0 arrives once for the copy;
//! - `collective_axes` / `leader_tracked` on a 1×1×1 cluster: ignored.
//!
//! A copy with `swizzle = S` puts each chunk (or element) where TMA's
//! `S`-byte pattern puts it: its shared address gets bits 7.. XORed into
//! bits 4.. ([`swizzled`]), on a tile aligned to the pattern's repeat.

use crate::ir::op_names::{arith, llvm, nvvm};
use acopy_dialect::{CopyGmemToSmem, WaitGmemToSmem};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, OperationRef, ShapedTypeLike, Type,
    TypeLike, Value, ValueLike,
};

use super::memref_address::{self, Strided};
use super::tile_address::{paneled, swizzled};
use crate::ir::build::{Builder, Cmp, Ix};
use crate::{
    plan::{
        chunk::{self, AlignTerm, ChunkChoice, ChunkError, Slow},
        cp_async_load::{CpAsyncPlan, MAX_ALIGN},
        wide_tile::Panels,
    },
    raise_alignment as alignment,
    target::Target,
};

/// Rounds of chunks per thread up to which a known block size unrolls.
pub(crate) const MAX_UNROLLED_ROUNDS: u64 = 16;

/// Lowers `acopy.copy_gmem_to_smem` to cp.async, as `plan` says.
pub(super) fn lower_copy<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    plan: &CpAsyncPlan<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let element_bytes = plan.element_bytes;
    let src = memref_address::read_layout(b, view.src, "src", plan.zero_fill)?;
    let dst = memref_address::read_layout(b, view.dst, "dst", false)?;
    let indices: Vec<Ix<'c, 'a>> = view
        .indices
        .iter()
        .map(|index| constant_or_value(*index))
        .collect();
    if src.strides.len() != plan.window.len() || indices.len() != plan.window.len() {
        return Err("internal error: the copy's ranks differ from its plan".to_string());
    }

    // Window start, in elements, then in bytes.
    let bytes = Ix::Const(element_bytes as i64);
    let mut src_start = src.offset;
    for (index, stride) in indices.iter().zip(&src.strides) {
        let scaled = b.mul(*index, *stride)?;
        src_start = b.add(src_start, scaled)?;
    }
    let src_start_bytes = b.mul(src_start, bytes)?;
    let dst_start_bytes = b.mul(dst.offset, bytes)?;

    let (proof, strides) = prove(
        b,
        plan,
        (&src, src_start_bytes),
        (&dst, dst_start_bytes),
        &indices,
    )?;
    // A constant part of an address that is not 4-byte aligned (an odd f16
    // column, say) leaves no cp.async size: the copy then goes element by
    // element, as a run-time misalignment does.
    let choice = match chunk::choose_chunk(plan.row_bytes, &proof.terms) {
        Ok(choice) => Some(choice),
        Err(ChunkError::Misaligned) => None,
        Err(ChunkError::RowBytes) => {
            return Err("internal error: the plan's rows have no cp.async size".to_string())
        }
    };
    let zeros = zero_fill(b, plan, &indices, &src)?;
    let chunks = Chunks::new(
        b,
        (view, plan, target),
        (&src, src_start_bytes),
        (&dst, dst_start_bytes),
        &strides,
        zeros,
    )?;
    let thread = chunks.thread;
    match (plan.fallback, view.predicate) {
        (true, Some(predicate)) => b.if_then(predicate, |b| chunks.issue(b, choice, &proof))?,
        _ => chunks.issue(b, choice, &proof)?,
    }
    match (plan.fallback, view.barrier) {
        (true, Some(barrier)) => arrive_when_done(b, barrier, thread, target),
        _ => b.op(nvvm::CP_ASYNC_COMMIT_GROUP, &[], &[], &[]).map(|_| ()),
    }
}

/// What alignment the addresses of a copy are proved to have, and what only
/// a run-time check can show; with the byte strides `(src, dst)` of each
/// window dimension. `src` and `dst` are each a layout and its start in bytes.
fn prove<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &CpAsyncPlan<'c, 'a>,
    (src, src_start_bytes): (&Strided<'c, 'a>, Ix<'c, 'a>),
    (dst, dst_start_bytes): (&Strided<'c, 'a>, Ix<'c, 'a>),
    indices: &[Ix<'c, 'a>],
) -> Result<(Proof<'c, 'a>, Vec<(Ix<'c, 'a>, Ix<'c, 'a>)>), String> {
    let element_bytes = plan.element_bytes;
    let bytes = Ix::Const(element_bytes as i64);
    let mut proof = Proof::default();
    for (base, value, start) in [
        (plan.src, src.base, src_start_bytes),
        (plan.dst, dst.base, dst_start_bytes),
    ] {
        if base.align.is_some() {
            alignment::raise(base.root.origin, MAX_ALIGN);
        }
        proof.address(base.align, value, start, element_bytes);
    }
    if plan.swizzle != 0 {
        // The pattern is laid on absolute shared addresses, as TMA lays it:
        // it starts at the tile once the tile is aligned to its repeat
        // (rule A4 proved it can be).
        super::tile_address::ensure_aligned(plan.dst.root, plan.tile_alignment())?;
    }
    let mut strides = Vec::with_capacity(plan.window.len());
    for dim in 0..plan.window.len() {
        let src_stride = b.mul(src.strides[dim], bytes)?;
        let dst_stride = if dim >= plan.leading {
            b.mul(dst.strides[dim - plan.leading], bytes)?
        } else {
            Ix::Const(0)
        };
        strides.push((src_stride, dst_stride));
    }
    for dim in &plan.rows.dims {
        proof.value(strides[dim.window_dim].0);
        proof.value(strides[dim.window_dim].1);
    }
    if let (true, Some(row_dim)) = (plan.zero_fill, plan.rows.row_dim) {
        // Chunks must not straddle column 0: the row's start index is a whole
        // number of chunks.
        let start = b.mul(indices[row_dim], bytes)?;
        proof.value(start);
    }
    Ok((proof, strides))
}

/// Zero-fill needs each dimension's start and size.
fn zero_fill<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &CpAsyncPlan<'c, 'a>,
    indices: &[Ix<'c, 'a>],
    src: &Strided<'c, 'a>,
) -> Result<Option<ZeroFill<'c, 'a>>, String> {
    if !plan.zero_fill {
        return Ok(None);
    }
    let mut fixed = None;
    let mut dims = vec![None; plan.window.len()];
    for (dim, window_dim) in plan.window.iter().enumerate() {
        let (start, size) = (indices[dim], src.sizes[dim]);
        if window_dim.size == 1 {
            let inside = b.cmpi(Cmp::Ult, b.ix(start)?, b.ix(size)?)?;
            fixed = Some(match fixed {
                None => inside,
                Some(previous) => b.binary(arith::ANDI, previous, inside)?,
            });
        } else {
            dims[dim] = Some((start, size));
        }
    }
    Ok(Some(ZeroFill { fixed, dims }))
}

/// Lowers `acopy.wait_gmem_to_smem {pending = N}`.
pub(super) fn lower_wait(view: &WaitGmemToSmem, b: &Builder) -> Result<(), String> {
    let pending = i32::try_from(view.pending)
        .map(i64::from)
        .map_err(|_| "internal error: a wait count beyond i32".to_string())?;
    b.op(
        nvvm::CP_ASYNC_WAIT_GROUP,
        &[],
        &[],
        &[("n", IntegerAttribute::new(b.int_type(32), pending).into())],
    )?;
    b.block_barrier()
}

/// The alignment facts of a copy's addresses.
#[derive(Default)]
struct Proof<'c, 'a> {
    terms: Vec<AlignTerm>,
    /// Values only known at run time, with the alignment proved for each.
    runtime: Vec<(u64, Ix<'c, 'a>)>,
}

impl<'c, 'a> Proof<'c, 'a> {
    /// A quantity in bytes.
    fn value(&mut self, value: Ix<'c, 'a>) {
        let proved = memref_address::pow2_divisor_ix(value);
        let constant = value.constant().is_some();
        self.terms.push(AlignTerm { proved, constant });
        if !constant {
            self.runtime.push((proved, value));
        }
    }

    /// A memref's start address: its aligned base plus `start` bytes. An
    /// unknown base is checked as part of the address.
    fn address(
        &mut self,
        base: Option<u64>,
        base_value: Value<'c, 'a>,
        start: Ix<'c, 'a>,
        element_bytes: u64,
    ) {
        match base {
            Some(align) => {
                self.terms.push(AlignTerm {
                    proved: align,
                    constant: true,
                });
                self.value(start);
            }
            None => {
                self.terms.push(AlignTerm {
                    proved: element_bytes,
                    constant: false,
                });
                self.runtime.push((element_bytes, Ix::Val(base_value)));
                self.value(start);
            }
        }
    }

    /// `i1`: every run-time part not proved `chunk`-aligned is `chunk`-aligned.
    fn check(&self, b: &Builder<'c, 'a>, chunk: u64) -> Result<Value<'c, 'a>, String> {
        let mut bits: Option<Value<'c, 'a>> = None;
        for (proved, value) in &self.runtime {
            if *proved % chunk == 0 {
                continue;
            }
            let value = b.ix(*value)?;
            bits = Some(match bits {
                None => value,
                Some(previous) => b.binary(arith::ORI, previous, value)?,
            });
        }
        let bits = match bits {
            Some(bits) => bits,
            None => return b.int(1, 1),
        };
        let mask = b.index(chunk as i64 - 1)?;
        let low = b.binary(arith::ANDI, bits, mask)?;
        let zero = b.index(0)?;
        b.cmpi(Cmp::Eq, low, zero)
    }
}

/// Fallback barrier completion (see the module comment).
fn arrive_when_done<'c, 'a>(
    b: &Builder<'c, 'a>,
    barrier: Value<'c, 'a>,
    thread: Ix<'c, 'a>,
    target: &Target,
) -> Result<(), String> {
    let pointer = super::barrier::barrier_pointer(b, barrier)?;
    b.op(nvvm::CP_ASYNC_MBARRIER_ARRIVE, &[pointer], &[], &[])?;
    // A producer of one thread (a warp-specialized TMA loop) made its own
    // increments; a block barrier there would wait for the consumers forever.
    match target.issuers {
        None => b.block_barrier()?,
        Some(issuers) if issuers.count == 1 => {}
        Some(_) => {
            return Err("internal error: a barrier-tracked copy with several issuers".into())
        }
    }
    let thread = b.ix(thread)?;
    let zero = b.index(0)?;
    let first = b.cmpi(Cmp::Eq, thread, zero)?;
    b.if_then(first, |b| {
        b.op(nvvm::MBARRIER_ARRIVE, &[pointer], &[b.int_type(64)], &[])
            .map(|_| ())
    })
}

/// What one chunk turns into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leaf {
    CpAsync,
    /// One element, loaded and stored synchronously.
    Elements,
}

/// A row dimension the copy walks.
struct Row<'c, 'a> {
    size: u64,
    window_dim: usize,
    src_stride: Ix<'c, 'a>,
    dst_stride: Ix<'c, 'a>,
}

/// Zero-fill facts: the start and size of each walked window dimension, and
/// whether the size-1 dimensions are inside src.
struct ZeroFill<'c, 'a> {
    fixed: Option<Value<'c, 'a>>,
    /// Per window dimension: (start index, src size), for walked dimensions.
    dims: Vec<Option<(Ix<'c, 'a>, Ix<'c, 'a>)>>,
}

/// Everything needed to issue the chunks of one copy.
struct Chunks<'c, 'a> {
    /// Outermost first.
    rows: Vec<Row<'c, 'a>>,
    row_bytes: u64,
    element_bytes: u64,
    /// The window dimension rows run along, when they hold several elements.
    row_dim: Option<usize>,
    /// The window start: `!llvm.ptr<1>` in src, `!llvm.ptr<3>` in dst.
    src: Value<'c, 'a>,
    dst: Value<'c, 'a>,
    /// An integer type of one element's width, for element-wise copies.
    element: Type<'c>,
    thread: Ix<'c, 'a>,
    threads: Ix<'c, 'a>,
    zeros: Option<ZeroFill<'c, 'a>>,
    /// The dst tile's byte swizzle (0 for none): each chunk lands where
    /// TMA's pattern puts it, on cp.async chips and on a TMA load's non-TMA
    /// path alike.
    swizzle: u32,
    /// The column panels of a swizzled row of several spans: each chunk's
    /// tile offset goes to its panel before the swizzle moves it.
    panels: Option<Panels>,
}

impl<'c, 'a> Chunks<'c, 'a> {
    /// The chunks of `view` (planned as `plan`, for `target`): `src` and `dst`
    /// are each a layout and the window's start in bytes, `strides` the byte
    /// strides `(src, dst)` of each window dimension.
    fn new(
        b: &Builder<'c, 'a>,
        (view, plan, target): (&CopyGmemToSmem<'c, 'a>, &CpAsyncPlan<'c, 'a>, &Target),
        (src, src_start_bytes): (&Strided<'c, 'a>, Ix<'c, 'a>),
        (dst, dst_start_bytes): (&Strided<'c, 'a>, Ix<'c, 'a>),
        strides: &[(Ix<'c, 'a>, Ix<'c, 'a>)],
        zeros: Option<ZeroFill<'c, 'a>>,
    ) -> Result<Self, String> {
        // The memrefs' base pointers are converted first and the window start is
        // a byte offset from them: the conversions are then the same for every
        // copy of a kernel (built once, `super::hoist`), and the NVPTX backend folds a constant
        // start into the instruction's address instead of a cvta and an add per copy.
        let src_base = b.global_ptr(src.base, memref_address::is_generic(view.src_type))?;
        let src_pointer = b.byte_offset(src_base, src_start_bytes)?;
        let dst_base = b.int_to_ptr(dst.base, 3)?;
        let dst_pointer = b.byte_offset(dst_base, dst_start_bytes)?;
        let (thread, threads) = super::issuers::issuing_threads(b, target)?;
        let element = view.src_type.element();
        let element_bytes = plan.element_bytes;
        Ok(Self {
            rows: plan
                .rows
                .dims
                .iter()
                .map(|dim| Row {
                    size: dim.size,
                    window_dim: dim.window_dim,
                    src_stride: strides[dim.window_dim].0,
                    dst_stride: strides[dim.window_dim].1,
                })
                .collect(),
            row_bytes: plan.row_bytes,
            element_bytes,
            row_dim: plan.rows.row_dim,
            src: src_pointer,
            dst: dst_pointer,
            element: if element.is_integer() {
                element
            } else {
                b.int_type((element_bytes * 8) as u32)
            },
            thread,
            threads,
            zeros,
            swizzle: plan.swizzle,
            panels: plan.panels,
        })
    }

    /// Issues the chunks with the sizes `choice` picked (element by element
    /// without one), behind the run-time check of `proof` when the fast size
    /// needs it.
    fn issue(
        &self,
        b: &Builder<'c, 'a>,
        choice: Option<ChunkChoice>,
        proof: &Proof<'c, 'a>,
    ) -> Result<(), String> {
        let element_bytes = self.element_bytes;
        let Some(choice) = choice else {
            return self.emit(b, element_bytes, Leaf::Elements);
        };
        let Some(slow) = choice.slow else {
            return self.emit(b, choice.fast, Leaf::CpAsync);
        };
        let aligned = proof.check(b, choice.fast)?;
        b.if_then_else(
            aligned,
            |b| self.emit(b, choice.fast, Leaf::CpAsync),
            |b| match slow {
                Slow::Chunk(size) => self.emit(b, size, Leaf::CpAsync),
                Slow::Elements => self.emit(b, element_bytes, Leaf::Elements),
            },
        )
    }

    /// Deals the chunks of `chunk` bytes out to the block's threads.
    fn emit(&self, b: &Builder<'c, 'a>, chunk: u64, leaf: Leaf) -> Result<(), String> {
        let per_row = self.row_bytes / chunk;
        let total = self.rows.iter().map(|row| row.size).product::<u64>() * per_row;
        let total_ix =
            // Unreachable: rule A16 bounds a tile, so its chunks, far below.
            i64::try_from(total).map_err(|_| format!("internal error: the copy has too many chunks ({total})"))?;
        match self.threads.constant() {
            Some(threads)
                if threads > 0 && total.div_ceil(threads as u64) <= MAX_UNROLLED_ROUNDS =>
            {
                let threads = threads as u64;
                for round in 0..total.div_ceil(threads) {
                    let first = Ix::Const((round * threads) as i64);
                    let index = b.add(self.thread, first)?;
                    if (round + 1) * threads <= total {
                        self.chunk(b, index, chunk, per_row, leaf)?;
                    } else {
                        let bound = b.index(total_ix)?;
                        let inside = b.cmpi(Cmp::Ult, b.ix(index)?, bound)?;
                        b.if_then(inside, |b| self.chunk(b, index, chunk, per_row, leaf))?;
                    }
                }
                Ok(())
            }
            _ => {
                let start = b.ix(self.thread)?;
                let end = b.index(total_ix)?;
                let step = b.ix(self.threads)?;
                b.for_loop(start, end, step, |b, index| {
                    self.chunk(b, Ix::Val(index), chunk, per_row, leaf)
                })
            }
        }
    }

    /// Issues chunk number `index`.
    fn chunk(
        &self,
        b: &Builder<'c, 'a>,
        index: Ix<'c, 'a>,
        chunk: u64,
        per_row: u64,
        leaf: Leaf,
    ) -> Result<(), String> {
        let in_row = b.rem(index, per_row)?;
        let mut row = b.div(index, per_row)?;
        let column = b.mul(in_row, Ix::Const(chunk as i64))?;
        let mut src = column;
        let mut dst = column;
        let mut coordinates = Vec::with_capacity(self.rows.len());
        for (position, dim) in self.rows.iter().enumerate().rev() {
            let coordinate = if position == 0 {
                row
            } else {
                b.rem(row, dim.size)?
            };
            if position != 0 {
                row = b.div(row, dim.size)?;
            }
            coordinates.push((dim.window_dim, coordinate));
            let step = b.mul(coordinate, dim.src_stride)?;
            src = b.add(src, step)?;
            let step = b.mul(coordinate, dim.dst_stride)?;
            dst = b.add(dst, step)?;
        }
        let src = b.byte_offset(self.src, src)?;
        let dst = match &self.panels {
            Some(panels) => paneled(b, dst, panels)?,
            None => dst,
        };
        let dst = swizzled(b, b.byte_offset(self.dst, dst)?, self.swizzle)?;
        let elements = chunk / self.element_bytes;
        let valid = match &self.zeros {
            Some(zeros) => Some(self.valid_bytes(b, zeros, &coordinates, in_row, elements)?),
            None => None,
        };
        self.leaf(b, leaf, chunk, (src, dst), valid)
    }

    /// One chunk of `chunk` bytes from `src` to `dst`, of which `valid` bytes
    /// are inside src under zero fill.
    fn leaf(
        &self,
        b: &Builder<'c, 'a>,
        leaf: Leaf,
        chunk: u64,
        (src, dst): (Value<'c, 'a>, Value<'c, 'a>),
        valid: Option<Value<'c, 'a>>,
    ) -> Result<(), String> {
        match leaf {
            Leaf::CpAsync => {
                let cache = if chunk == 16 { "cg" } else { "ca" };
                let mut operands = vec![dst, src];
                if let Some(valid) = valid {
                    operands.push(b.index_cast(valid, b.int_type(32))?);
                }
                b.op(
                    nvvm::CP_ASYNC,
                    &operands,
                    &[],
                    &[
                        ("size", b.int_attr(32, chunk as i64)),
                        (
                            "modifier",
                            crate::ir::spelled::load_cache_modifier(b.context, cache)?,
                        ),
                    ],
                )?;
            }
            Leaf::Elements => match valid {
                None => {
                    let value = b.value(llvm::LOAD, &[src], self.element, &[])?;
                    b.op(llvm::STORE, &[value, dst], &[], &[])?;
                }
                Some(valid) => {
                    let zero = b.index(0)?;
                    let inside = b.cmpi(Cmp::Ne, valid, zero)?;
                    let element = self.element;
                    b.if_then_else(
                        inside,
                        |b| {
                            let value = b.value(llvm::LOAD, &[src], element, &[])?;
                            b.op(llvm::STORE, &[value, dst], &[], &[]).map(|_| ())
                        },
                        |b| {
                            let bits = (self.element_bytes * 8) as u32;
                            let value = b.int(bits, 0)?;
                            b.op(llvm::STORE, &[value, dst], &[], &[]).map(|_| ())
                        },
                    )?;
                }
            },
        }
        Ok(())
    }

    /// The bytes of a chunk that lie inside src (`index`): 0 when a
    /// coordinate is outside, fewer than the chunk at the end of a row.
    fn valid_bytes(
        &self,
        b: &Builder<'c, 'a>,
        zeros: &ZeroFill<'c, 'a>,
        coordinates: &[(usize, Ix<'c, 'a>)],
        in_row: Ix<'c, 'a>,
        elements: u64,
    ) -> Result<Value<'c, 'a>, String> {
        // Unsigned compares also reject negative coordinates.
        let mut inside = zeros.fixed;
        let mut and = |condition: Value<'c, 'a>| -> Result<(), String> {
            inside = Some(match inside {
                None => condition,
                Some(previous) => b.binary(arith::ANDI, previous, condition)?,
            });
            Ok(())
        };
        for (window_dim, coordinate) in coordinates {
            if let Some((start, size)) = zeros.dims[*window_dim] {
                let position = b.add(start, *coordinate)?;
                and(b.cmpi(Cmp::Ult, b.ix(position)?, b.ix(size)?)?)?;
            }
        }
        let mut valid = None;
        if let Some(row_dim) = self.row_dim {
            if let Some((start, size)) = zeros.dims[row_dim] {
                let first = b.mul(in_row, Ix::Const(elements as i64))?;
                let first = b.add(start, first)?;
                let (first, size) = (b.ix(first)?, b.ix(size)?);
                and(b.cmpi(Cmp::Ult, first, size)?)?;
                let left = b.binary(arith::SUBI, size, first)?;
                let count = b.binary(arith::MINUI, left, b.index(elements as i64)?)?;
                valid = Some(b.binary(arith::MULI, count, b.index(self.element_bytes as i64)?)?);
            }
        }
        let valid = match valid {
            Some(valid) => valid,
            None => b.index((elements * self.element_bytes) as i64)?,
        };
        match inside {
            None => Ok(valid),
            Some(inside) => {
                let zero = b.index(0)?;
                b.value(arith::SELECT, &[inside, valid, zero], b.index_type(), &[])
            }
        }
    }
}

/// An index operand, folded to a constant when `arith.constant` defines it.
fn constant_or_value<'c, 'a>(value: Value<'c, 'a>) -> Ix<'c, 'a> {
    let constant = crate::ir::as_result(value).and_then(|result| {
        let op: OperationRef = result.owner();
        let is_constant = crate::ir::is(&op, crate::ir::op_names::arith::CONSTANT);
        is_constant
            .then(|| op.attribute("value").ok())
            .flatten()
            .and_then(|value| IntegerAttribute::try_from(value).ok())
            .map(|value| value.value())
    });
    match constant {
        Some(constant) if value.r#type().is_index() => Ix::Const(constant),
        _ => Ix::Val(value),
    }
}
