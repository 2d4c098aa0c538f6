#!/usr/bin/env python3
"""Writes a FlashAttention-2 style forward kernel with acopy copies: out = softmax(Q Kᵀ /
sqrt(D)) V per (batch x head), what a frontend builds with acopy for attention.

q, k, v are memref<BH x S x D x f16> (or bf16) (batch and heads flattened), out is
memref<BH x S x D x f32> (--out=bf16: bf16, as SDPA's backends write it). A block of 4 warps (128 threads) takes 64 query rows of one
(batch, head) (--rows=128: 8 warps take 128 rows, so each K and V tile feeds twice the
work): it copies its Q tile once, ldmatrix-loads its 16 rows per warp into
registers, then a K loop marked acopy.pipeline copies K and V tiles of 64 keys per
iteration (cp.async on sm_80; TMA if compiled for sm_90) and, per warp,
  S = Q Kᵀ with nvgpu.mma.sync (m16n8k16; K read by ldmatrix as the N x K operand),
  masked (keys past S_len; with CAUSAL keys past the query row), the online softmax
  (running row max and partial row sum per thread, the max shared across the 4 lanes of
  a row by gpu.shuffle; P = exp2(x s - m s), the scale s = log2(e) / sqrt(D) folded
  into one FMA per score, --softmax=mul: multiplied in first), P cast to f16 and reused
  from registers as the A operand of P V (V read by ldmatrix transposed), and the output
  accumulators rescaled by exp2((m_old - m_new) s).
After the loop the row sums are added across the 4 lanes and out = O / l is stored for
the rows below S_len. Ragged S_len: the copies zero-fill what lies past the end
(oob_mode = "zeros", which cp.async chips do in fallback mode: acopy-opt
--acopy-fallback), and the masks keep those keys out. With CAUSAL the loop stops at
the block of the diagonal, and only the steps that can hold a masked key (the diagonal's,
the last ragged one) mask (--mask=all: every step). exp2 is ex2.approx.ftz.f32 (inline
PTX: no libdevice). --persistent=W (sm_90): W blocks loop over the (query block, head)
tiles instead of a block per tile (launch grid: examples/attention/choose.py's grid);
--prefetch-q loads the next tile's Q during this tile's epilogue.
--spread-loads (with --prefetch-q --peel-last) loads each of the next tile's inputs once
this tile has read its own. --wide-stores (with --out=bf16) stores O 16 bytes a lane: the 4
lanes of a row trade their column pairs by shuffles first (quad_transpose). --tma-out (with
--rows=128 --qk=wgmma --out=bf16, not --persistent) writes O into each warpgroup's Q tile
and stores it with one TMA store each (epilogue_tma). --pdl=1 (sm_90): programmatic
dependent launch, as examples/gemm/gen.py's: the kernel waits for the one before it after
its prologue, so its start overlaps that kernel's tail (launched with programmatic stream
serialization, which acopy-opt's manifest asks for). --lpt (causal, not persistent): a
one-dimensional grid of BH x S/ROWS blocks, heaviest query blocks first over groups of
heads whose K and V fit a third of L2 (lpt_heads; launch grid: choose.py's grid).
Which flags are fastest at which shape on an H100: bench/RESULTS.md, "2026-12-06
(near midnight)" and "2026-12-07"; examples/attention/choose.py picks them.
f16 or bf16 (--dtype; bf16 through nvvm.mma.sync, examples/gemm/mma_sync.py's mma).

Usage: python3 examples/attention/gen.py BH S D [STAGES] [--causal] [--chip=sm_80|sm_90] [--dtype=f16|bf16] [--swizzle=128] [--rows=64|128] [--qk=mma|wgmma] [--pv=mma|wgmma] [--keys=32|64|128] [--out=f32|bf16] [--overlap[=pv]] [--mask=edge|all] [--ctas-per-sm=N] [--producer=block|warp|warpgroup] [--producer-registers=R] [--pingpong] [--peel-last] [--persistent=W] [--prefetch-q] [--spread-loads] [--wide-stores] [--tma-out] [--warp-rows=16|32] [--softmax=fma|mul] [--pv-in-flight] [--pdl=1] [--lpt] > attn.mlir
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import emitter as e  # noqa: E402  (examples/emitter.py: the text of each construct)

BM = 64   # query rows per block (16 per warp)
BN = 64   # keys per iteration
ACC = e.MMA_ACC
M_TILES = ('', '_1')   # the name suffixes of a warp's m-tiles (--warp-rows=32 has two)
ROWS = ('%row0', '%row1')   # this thread's two query rows (of its first m-tile)
NEG_INF = '0xFF800000'


class Kernel(e.Names):
    def mma(self, a, b, c, dtype, indent):
        name = self.fresh('mma')
        e.mma(self.lines, name, a, b, c, dtype, ' ' * indent)
        return name


def attention(bh, s_len, d, stages='2', causal=False, chip='sm_80', dtype='f16', swizzle=0, rows=BM, qk='mma', pv='mma',
              keys=BN, out_dtype='f32', overlap=False, mask='edge', ctas_per_sm=0,
              producer='block', pingpong=False, persistent=0, softmax='fma', pv_in_flight=False,
              producer_registers=0, peel_last=False, prefetch_q=False, warp_rows=16, spread_loads=False,
              wide_stores=False, tma_out=False, pdl=False, lpt=False):
    e.require(d in (64, 128), 'D: 64 or 128')
    e.require(swizzle in (0, 128), 'swizzle: 0 or 128')
    e.require(rows in (64, 128), 'rows: 64 or 128 query rows per block (4 or 8 warps)')
    # qk = wgmma (sm_90): S = Q Kᵀ by one warpgroup's wgmma m64n64k16 from the swizzled Q
    # and K tiles (acopy.wgmma_descriptor; the pass keeps the K slot until the wgmma that
    # read it completes), P V by mma.sync as before: wgmma's accumulator fragment of each
    # warp is mma.sync's, so the softmax code is shared.
    e.require(qk in ('mma', 'wgmma'), 'qk: mma or wgmma')
    # With 128 rows, warpgroup w (threads 128w..128w+127) computes rows 64w..64w+63 from
    # its own Q tile (a wgmma descriptor starts at a tile's first row): both warpgroups
    # read each K and V tile, so a tile copied feeds twice the work.
    e.require(qk == 'mma' or (chip == 'sm_90' and swizzle == 128), 'qk = wgmma: sm_90, swizzle 128')
    # keys = 128: S is 64 x 128 per warpgroup (wgmma m64n128k16), so each wgmma reads its
    # shared A tile (Q) once per 128 keys instead of per 64: at 64 keys, Q Kᵀ's shared
    # memory reads (A and B, 4 KB a step) take as long as its tensor-core work.
    # keys = 32 (the mma.sync path): half the S registers, as FlashAttention-2 uses at D = 128
    # on sm_80, where two m-tiles a warp (--warp-rows=32) spill with 64 keys.
    e.require(keys in (32, 64, 128) and (keys > 32 or qk == 'mma'), 'keys: 64 or 128 per iteration (32 on the mma.sync path)')
    e.require(out_dtype in ('f32', 'bf16'), 'out: f32 or bf16')
    # mask = edge (the default): causal and ragged masks only on the steps that can need
    # them; all: on every step (what the example did before; 0.85-0.90 of edge's speed on
    # causal shapes on an H100, bench/RESULTS.md).
    e.require(mask in ('all', 'edge'), 'mask: all or edge')
    # ctas_per_sm = N: the PTX asks ptxas for N blocks per SM (.maxntid and .minnctapersm),
    # which caps the registers: 2 blocks of 256 threads need at most 128 each.
    e.require(ctas_per_sm in (0, 1, 2, 3, 4), 'ctas-per-sm: 0 (unset) to 4')
    # producer = warp: the pass adds a producer warp that issues the K and V copies
    # (docs/pipelining.md, "Warp specialization"); the consumers release each slot on an
    # mbarrier instead of meeting at a barrier of the whole block every step.
    # producer = warpgroup (sm_90): a whole producer warpgroup instead, which hands its
    # registers to the consumers through setmaxnreg (docs/pipelining.md, "A producer
    # warpgroup"): at D = 128 the 128-key tiles then fit without spilling.
    e.require(producer in ('block', 'warp', 'warpgroup'), 'producer: block, warp or warpgroup')
    e.require(producer != 'warpgroup' or chip == 'sm_90', 'producer = warpgroup: sm_90 (setmaxnreg)')
    # producer_registers = R: what the producer warpgroup keeps (the pass's default 40;
    # FlashAttention-3 keeps 24, leaving the consumers 240 instead of 232).
    e.require(not producer_registers or producer == 'warpgroup', '--producer-registers: --producer=warpgroup')
    # pingpong with overlap (FlashAttention-3's two schedules together): a warpgroup's turn
    # is from its P V(j) issue to its S(j+2) issue, so the other's softmax runs meanwhile.
    # The turn spans the wait for tile j + 1, whose slot (with 2 stages, tile j - 1's)
    # the other warpgroup frees at its iteration j's wait for S(j+1), between its turns:
    # the pass releases a slot at the first wait that completes its wgmma groups
    # (docs/pipelining.md, "Asynchronous consumers"), not at the body's end.
    e.require(not pingpong or (rows == 128 and qk == 'wgmma'), 'pingpong: --rows=128 --qk=wgmma')
    # persistent = W: W blocks (the launch grid's x, any count) loop over the (query block,
    # head) tiles, each loading its next tile's Q after the last one's K loop; the K and V
    # loop is entered once per tile. Causal tiles go heaviest first over all heads.
    # With a producer warp or warpgroup the Q load, its wait and the barrier before it
    # (and with --overlap K(0) and S(0)) run on the consumers alone (docs/pipelining.md,
    # "Code only the consumers run").
    e.require(not persistent or chip == 'sm_90', 'persistent: sm_90')
    # overlap (FlashAttention-3's intra-warpgroup pipelining): iteration j issues S(j+1) =
    # Q K(j+1)ᵀ, then runs the softmax of S(j) (carried from the iteration before) while
    # the tensor cores compute it, and leaves P(j) V(j) in flight into the next iteration's
    # softmax: K is copied one tile ahead of V, K(0) once before the loop.
    # overlap = 'pv' (FlashAttention-3's order of the same two wgmma groups): iteration j
    # carries P(j) in, issues S(j+1) and then P(j) V(j) back to back, runs the softmax of
    # S(j+1) once S(j+1) is done while P(j) V(j) computes, and rounds P(j+1) after it. Both
    # groups complete in the iteration that issues them, so a slot (K(j+1), V(j)) is free at
    # its end, and the registers live at once are O, S(j+1) and P(j): a 64 x 128 S tile and
    # O at D = 128 fit without spilling where overlap = 'qk' (S(j) and S(j+1) both live)
    # spills. S(0) and its softmax run before the loop; the last iteration's S (past the
    # keys) is never softmaxed.
    if overlap is True:
        overlap = 'qk'
    e.require(overlap in (False, 'qk', 'pv'), 'overlap: --overlap (qk) or --overlap=pv')
    e.require(not overlap or pv == 'wgmma', 'overlap needs qk = pv = wgmma')
    e.require(overlap != 'qk' or int(stages) >= 2, 'overlap: P V stays in flight, so stages >= 2')
    # peel_last (with overlap = 'pv'): the loop runs kstop - 1 iterations and the last P V
    # follows it, its V tile loaded before the loop with Q and K(0) into a tile of its
    # own; no iteration then computes an S it never uses (the last one's S(kstop) and its
    # K tile), which is up to a fifth of a short causal block's tensor work. Making that
    # S conditional instead makes ptxas serialize the causal kernels' wgmma (C7515).
    e.require(not peel_last or overlap == 'pv', '--peel-last: --overlap=pv')
    # prefetch_q (with persistent): the next tile's Q (and K(0), and with peel_last its last V)
    # is loaded right after this tile's K loop, before its epilogue, instead of at the
    # next tile's start: the load runs beside the O rescale and stores, and a tile starts
    # with a wait on tiles already there. The block's first tile is loaded before the tile
    # loop. A block has at most one such load in flight, so Q stays one buffer.
    e.require(not prefetch_q or persistent, '--prefetch-q: --persistent')
    # spread_loads (with prefetch_q and peel_last): each of the next tile's inputs is loaded
    # as soon as this tile has read its own, on a barrier of its own: K(0) once both
    # warpgroups' S(0) has read it (at the tile's start, so it lands under the K loop), Q
    # once the K loop has read it (before the last P V), the last V once the last P V has
    # read it; a tile then starts waiting for Q alone (a third of the bytes, issued a P V
    # earlier) and waits for its last V before its last P V.
    e.require(not spread_loads or (prefetch_q and peel_last), '--spread-loads: --prefetch-q --peel-last')
    # wide_stores (with --out=bf16): the 4 lanes of each row of a fragment (lane / 4) trade
    # their column pairs by shuffles (a 4 x 4 transpose in two xor rounds), so each lane
    # stores 8 neighbouring columns of out as one 16-byte vector instead of 4 pairs of 4
    # bytes: a quarter of the store instructions, each a whole 32-byte sector's half.
    # Nsight Compute (bench/RESULTS.md, 2026-12-07 (fourth session)): the 4-byte stores
    # stall the consumers on the store queue (lg_throttle, a tenth of the samples at
    # 4 x 32 x 1024 x 128; cuDNN's kernel none) and write twice the sectors.
    # out must be 16-byte aligned, as the inputs' TMA copies already need.
    e.require(not wide_stores or out_dtype == 'bf16', '--wide-stores: --out=bf16')
    # warp_rows = 32 (the mma.sync path): each warp computes two 16-row m-tiles (rows 32w ..
    # 32w + 31 of the block), so every K and V fragment it loads by ldmatrix feeds two
    # mma.sync instead of one (FlashAttention-2's tiling: 128 rows on 4 warps); the block
    # has rows / 32 warps.
    e.require(warp_rows in (16, 32), 'warp-rows: 16 or 32')
    e.require(warp_rows == 16 or (qk == 'mma' and pv == 'mma' and not persistent and producer != 'warpgroup'),
              '--warp-rows=32: --qk=mma --pv=mma, not --persistent')
    mt = warp_rows // 16
    threads = rows * 32 // warp_rows
    # pv_in_flight: P V(j) is left in flight into iteration j + 1, whose Q K(j+1) waits for
    # both (the tensor cores run them back to back while the warpgroup waits for its K
    # tile and its turn); the pass then keeps each V slot one iteration longer.
    e.require(not pv_in_flight or (pv == 'wgmma' and not overlap and int(stages) >= 2),
              'pv-in-flight: --pv=wgmma, no --overlap, stages >= 2')
    # pv = wgmma (with qk = wgmma): O += P V by wgmma m64nDk16 with P from registers (the
    # softmax's fragments, in mma.sync's A layout, which is wgmma's register A layout) and V
    # read MN-major from its swizzled tile (acopy.wgmma_descriptor {major = "mn"}). MLIR's
    # nvvm.wgmma.mma_async takes A only from a descriptor, so this one instruction is inline
    # PTX (wgmma_rs below).
    e.require(pv in ('mma', 'wgmma'), 'pv: mma or wgmma')
    e.require(pv == 'mma' or qk == 'wgmma', 'pv = wgmma needs qk = wgmma')
    e.require(dtype in ('f16', 'bf16'), 'dtype: f16 or bf16')
    # softmax = fma (the default): the scale folded into one FMA per score before ex2, max
    # and sum as trees; mul: the scale multiplied into each score first (online_softmax).
    e.require(softmax in ('fma', 'mul'), 'softmax: fma or mul')
    name = f'attn_{dtype}_{bh}x{s_len}x{d}' + ('_causal' if causal else '')
    qkv = f'memref<{bh}x{s_len}x{d}x{dtype}>'
    out = f'memref<{bh}x{s_len}x{d}x{out_dtype}>'
    tile = f'memref<{keys}x{d}x{dtype}, 3>'
    halves = qk == 'wgmma' and rows == 128
    qtile = f'memref<{64 if halves else rows}x{d}x{dtype}, 3>'
    qnames = ['%tq0', '%tq1'] if halves else ['%tq']
    # tma_out: O goes out through shared memory and one TMA store per warpgroup's 64 rows
    # (epilogue_tma) instead of each thread's stores: the consumers stalled on the store
    # queue (lg_throttle) and the block's exit on its stores (drain) at the short, causal
    # D = 128 shapes (bench/RESULTS.md, 2026-12-07, fourth session, item 6). O is written
    # into the warpgroup's own Q tile, which its last Q K wgmma has read by then, so it
    # needs no more shared memory; a persistent block loads the next tile's Q there.
    # (halves means --qk=wgmma, which already keeps --warp-rows at 16.)
    e.require(not tma_out or (halves and out_dtype == 'bf16' and not persistent and not wide_stores),
              '--tma-out: --rows=128 --qk=wgmma --out=bf16, not --persistent or --wide-stores')
    # pdl (--pdl=1, sm_90): programmatic dependent launch, as examples/gemm/gen.py's --pdl=1.
    # The kernel lets the next kernel of the stream be scheduled from its start
    # (griddepcontrol.launch_dependents) and waits for the kernel before it
    # (griddepcontrol.wait, every thread, before the role split of a producer warp) after
    # its index computations and barrier inits and before its first global access (Q's
    # load): what overlaps is a launch's start with the previous kernel's tail. acopy-opt
    # records the wait in the manifest (programmatic_launch) for the launcher.
    e.require(not pdl or chip == 'sm_90', '--pdl=1: sm_90 only')
    # lpt (--lpt, causal, one block per tile): the grid is one-dimensional and its blocks go
    # heaviest first over groups of heads (lpt_heads): the hardware starts blocks in grid
    # order, and with a head's query blocks side by side (the y = head grid) the last
    # heads' heaviest blocks start in the last wave and run alone at the end.
    e.require(not lpt or (causal and not persistent), '--lpt: --causal, not --persistent')
    ragged = s_len % keys != 0
    # Swizzled tiles: every copy writes TMA's 128-byte pattern (a 128-element row of D = 128
    # is two column panels) and every ldmatrix row address goes through
    # acopy.swizzled_index, so the 8 rows one ldmatrix reads fall in 8 bank groups;
    # unswizzled, rows 128 or 256 bytes apart share banks (8-way conflicts).
    layout = dict(oob='zeros' if ragged else 'promise_in_bounds', swizzle=swizzle)
    n_blocks = -(-s_len // keys)
    scale = 1.0 / math.sqrt(d) * math.log2(math.e)
    kn = Kernel()
    # The block ptxas is told of: the B = 2 x rows threads the kernel is written for,
    # and the producer warp the pass adds.
    block = threads + {'block': 0, 'warp': 32, 'warpgroup': 128}[producer]
    # The barriers a tile's inputs land on (sm_90's TMA; --spread-loads: one per input) and
    # each one's arrivals, one per copy.
    bars = dict(q='%qbar', k0='%kbar', vlast='%vbar') if spread_loads else {}
    arrivals = {}
    for part, copies in (('q', len(qnames)), ('k0', int(bool(overlap))), ('vlast', int(peel_last))):
        bar = input_barrier(bars, part)
        arrivals[bar] = arrivals.get(bar, 0) + copies
    qbar = [] if chip == 'sm_80' else [(bar, e.BARRIER) for bar in arrivals]
    kn.lines += e.kernel(
        f'Generated by examples/attention/gen.py {bh} {s_len} {d} {stages}'
        + (' --causal' if causal else '') + f' --chip={chip} --dtype={dtype}'
        + (f' --swizzle={swizzle}' if swizzle else '') + (f' --rows={rows}' if rows != BM else '')
        + (f' --qk={qk}' if qk != 'mma' else '') + (f' --pv={pv}' if pv != 'mma' else '')
        + (f' --keys={keys}' if keys != BN else '') + (f' --out={out_dtype}' if out_dtype != 'f32' else '')
        + ({'qk': ' --overlap', 'pv': ' --overlap=pv'}.get(overlap, '')) + (f' --mask={mask}' if mask != 'edge' else '')
        + (f' --ctas-per-sm={ctas_per_sm}' if ctas_per_sm else '')
        + (f' --producer={producer}' if producer != 'block' else '')
        + (f' --producer-registers={producer_registers}' if producer_registers else '') + (' --pingpong' if pingpong else '')
        + (' --peel-last' if peel_last else '')
        + (f' --persistent={persistent}' if persistent else '') + (' --prefetch-q' if prefetch_q else '')
        + (' --spread-loads' if spread_loads else '') + (' --wide-stores' if wide_stores else '')
        + (' --tma-out' if tma_out else '') + (' --pdl=1' if pdl else '') + (' --lpt' if lpt else '')
        + (f' --warp-rows={warp_rows}' if warp_rows != 16 else '')
        + (f' --softmax={softmax}' if softmax != 'fma' else '') + (' --pv-in-flight' if pv_in_flight else '') + '.',
        name, chip + ('a' if qk == 'wgmma' else ''), [('%q', qkv), ('%k', qkv), ('%v', qkv), ('%out', out)],
        threads, [(q, qtile) for q in qnames] + [('%tk', tile), ('%tv', tile)] + ([('%tk0', tile)] if overlap else []) + ([('%tvl', tile)] if peel_last else [])
        + qbar,
        f', nvvm.maxntid = array<i32: {block}, 1, 1>, nvvm.minctasm = {ctas_per_sm} : i32' if ctas_per_sm else '')
    # --lpt: groups of `group` heads (lpt_heads) in a one-dimensional grid; tile_coords
    # divides by the group and by its tiles.
    group = lpt_heads(bh, s_len, d) if lpt else 0
    kn.lines += e.constants(sorted(set(range(keys + 1)) | {n_blocks, s_len, rows}
                                   | ({bh, -(-s_len // rows)} if persistent else set())
                                   | ({group, group * -(-s_len // rows)} if lpt else set()) | {8 * i for i in range(d // 8 + 1)}
                                   | {16 * i for i in range(d // 16 + 1)}))
    kn.emit('%i1 = arith.constant 1 : i32')
    kn.emit('%i2 = arith.constant 2 : i32')
    kn.emit('%i32 = arith.constant 32 : i32')
    kn.emit(f'%ninf = arith.constant {NEG_INF} : f32')
    kn.emit('%fzero = arith.constant 0.0 : f32')
    kn.emit('%c1f = arith.constant 1.0 : f32')
    kn.emit(f'%scale = arith.constant {scale!r} : f32')
    kn.emit(f'%nscale = arith.constant {-scale!r} : f32')
    kn.emit(f'%zacc = arith.constant dense<0.0> : {ACC}')
    if pdl:
        kn.emit('nvvm.griddepcontrol launch_dependents')
    # What tile_inputs loads for a tile (sm_90: Q, K(0), the last V).
    inputs = dict(qnames=qnames, overlap=overlap, peel_last=peel_last, qkv=qkv, qtile=qtile, tile=tile,
                  layout=layout, causal=causal, rows=rows, keys=keys, n_blocks=n_blocks)
    if persistent:
        thread_values(kn, halves)
        tiles = -(-s_len // rows) * bh
        kn.emit('%bx = gpu.block_id x')
        kn.emit('%gx = gpu.grid_dim x')
        kn.emit(f'%ntiles = arith.constant {tiles} : index')
        for bar, count in arrivals.items():
            kn.emit(e.barrier_init(bar, count))
        if pdl:
            kn.emit('nvvm.griddepcontrol wait')
        if prefetch_q:
            # The grid has at most one block per tile, so %bx is a tile.
            tile_coords(kn, '%bx', causal, s_len, rows, bh, '_f')
            tile_inputs(kn, '_f', **inputs, bars=bars)
        kn.emit('scf.for %tile = %bx to %ntiles step %gx {')
        tile_of_loop(kn, causal, s_len, rows, bh)
        if spread_loads:
            # The next tile's place, for its loads spread over this tile.
            kn.emit('%tnext = arith.addi %tile, %gx : index')
            kn.emit('%more = arith.cmpi ult, %tnext, %ntiles : index')
            tile_coords(kn, '%tnext', causal, s_len, rows, bh, '_n')
    else:
        tile_of_grid(kn, causal, s_len, rows, bh, group)
        thread_values(kn, halves)
        if pdl:
            kn.emit('nvvm.griddepcontrol wait')
    # This thread's two query rows, in the sequence.
    if mt == 2:
        kn.emit('%w32 = arith.muli %warp, %c32 : index')
        kn.emit('%rw = arith.addi %q0, %w32 : index')
    else:
        kn.emit('%rw = arith.addi %q0, %w16 : index')
    kn.emit('%row0 = arith.addi %rw, %r4 : index')
    kn.emit('%row1 = arith.addi %row0, %c8 : index')
    if mt == 2:
        kn.emit('%row0_1 = arith.addi %row0, %c16 : index')
        kn.emit('%row1_1 = arith.addi %row1, %c16 : index')
    # Q once: copy, wait, the warp's 16 rows as D/16 A fragments.
    if chip == 'sm_80':
        kn.emit(e.copy('%q', '%h, %q0, %c0', '%tq', qkv, qtile, **layout))
        kn.emit(e.wait())
    else:
        # TMA: a copy outside a marked loop completes on an mbarrier.
        if prefetch_q:
            if peel_last:
                key_steps(kn, causal, rows, keys, n_blocks)
                kn.emit('%kloop = arith.subi %kstop, %c1 : index')
        else:
            if persistent:
                # Every warp's wgmma has read the last tile's Q (its K loop waited for them).
                kn.emit('gpu.barrier')
            else:
                kn.emit(e.barrier_init('%qbar', arrivals['%qbar']))
            tile_inputs(kn, '', **inputs)
        if persistent:
            kn.emit(e.barrier_wait('%qbar', '%qpar'))
            if spread_loads:
                kn.emit(e.barrier_wait('%kbar', '%qpar'))
        else:
            kn.emit('%first = arith.constant false')
            kn.emit(e.barrier_wait('%qbar', '%first'))
    qf, q_rows = [], None
    for kk in range(d // 16 if qk == 'mma' and mt == 1 else 0):
        col = kn.op(f'arith.addi %acol, %c{16 * kk} : index', 'qc')
        at = swizzled(kn, '%tq', '%arow', col, qtile, swizzle, 4)
        qf.append(kn.op(e.ldmatrix('%tq', at, qtile, 4, dtype), 'qf'))
    if mt == 2:
        # Two m-tiles' Q fragments would hold 64 registers at D = 128 for the whole loop:
        # they stay in shared memory and each step loads them (FlashAttention-2's order),
        # one ldmatrix per 16 columns and m-tile, each feeding bn / 8 mma.sync.
        kn.emit('%arow32 = arith.addi %w32, %l16 : index')
        kn.emit('%arow32_1 = arith.addi %arow32, %c16 : index')
        q_rows = [('%tq', qtile, '%arow32'), ('%tq', qtile, '%arow32_1')]
    if not peel_last:
        key_steps(kn, causal, rows, keys, n_blocks)
    n_o = d // 8
    iter_args = [('%m0', '%ninf'), ('%m1', '%ninf'), ('%l0', '%fzero'), ('%l1', '%fzero')] + [(f'%o{i}', '%zacc') for i in range(n_o)]
    types = ['f32'] * 4 + [ACC] * n_o
    if mt == 2:
        iter_args += [('%m0_1', '%ninf'), ('%m1_1', '%ninf'), ('%l0_1', '%fzero'), ('%l1_1', '%fzero')] + \
            [(f'%o{i}_1', '%zacc') for i in range(n_o)]
        types += ['f32'] * 4 + [ACC] * n_o
    if pingpong:
        # Warpgroup w's turn barrier and the other's (qk_in_turn).
        kn.emit('%true = arith.constant true')
        kn.emit('%pp_n = arith.constant 256 : i32')
        kn.emit('%pp_first = arith.constant 2 : i32')
        kn.emit('%pp_wg = arith.index_cast %wg : index to i32')
        kn.emit('%pp_mine = arith.addi %pp_first, %pp_wg : i32')
        kn.emit('%pp_three = arith.constant 3 : i32')
        kn.emit('%pp_other = arith.subi %pp_three, %pp_wg : i32')
    if overlap == 'pv':
        after_s0 = None
        if spread_loads:
            def after_s0():
                # Both warpgroups' S(0) has read K(0): the next tile's K(0) goes in now.
                kn.emit('gpu.barrier')
                next_inputs(kn, ('k0',), inputs, bars)
        iter_args, types = overlap_pv_prologue(kn, d, tile, qtile, dtype, keys, qnames, causal, ragged, s_len,
                                               mask == 'edge', softmax, iter_args, after_s0)
    elif overlap:
        # S(0) before the loop; each iteration carries S(j) in as wgmma's accumulator.
        s0 = qk_issue(kn, d, '%tk0', tile, qtile, dtype, 4, keys, qnames)
        kn.emit('nvvm.wgmma.wait.group.sync.aligned 0')
        iter_args.append(('%sacc', s0))
        types.append(e.struct(keys // 2))
    loop, end = e.pipelined_for('%j', '%c0', '%kloop' if peel_last else '%kstop', '%c1', stages, producer,
                                results=f'%res:{len(types)}',
                                producer_registers=producer_registers,
                                iter_args=iter_args, types=types)
    kn.emit(loop)
    if overlap == 'pv':
        body_overlap_pv(kn, d, causal, ragged, s_len, qkv, tile, layout, dtype, qtile, keys, qnames, mask == 'edge',
                        pingpong, softmax, peel_last)
    else:
        body(kn, d, qf, causal, ragged, s_len, qkv, tile, layout, dtype, swizzle, qtile if qk == 'wgmma' else None, pv,
             keys, qnames, overlap, mask == 'edge', pingpong, softmax, pv_in_flight, q_rows)
    kn.emit(end)
    if overlap == 'qk' and pingpong:
        overlap_turn_closes(kn, 4)
    if overlap == 'qk' or pv_in_flight:
        kn.emit('nvvm.wgmma.wait.group.sync.aligned 0')
    if spread_loads:
        # Both warpgroups' K loops have read Q; the last V of this tile has landed.
        kn.emit('gpu.barrier')
        next_inputs(kn, ('q',), inputs, bars)
        kn.emit(e.barrier_wait('%vbar', '%qpar'))
    o = last_pv(kn, d, tile, dtype, keys) if peel_last else None
    if spread_loads:
        # Both warpgroups' last P V has read the last V.
        kn.emit('gpu.barrier')
        next_inputs(kn, ('vlast',), inputs, bars)
    elif prefetch_q:
        # Every warpgroup's wgmma has read this tile's Q, K(0) and last V (each waited for
        # its groups); the next tile's load then runs beside this one's epilogue.
        kn.emit('gpu.barrier')
        kn.emit('%tnext = arith.addi %tile, %gx : index')
        kn.emit('%more = arith.cmpi ult, %tnext, %ntiles : index')
        kn.emit('scf.if %more {')
        tile_coords(kn, '%tnext', causal, s_len, rows, bh, '_n')
        tile_inputs(kn, '_n', **inputs)
        kn.emit('}')
    if tma_out:
        epilogue_tma(kn, d, out, qnames, qtile, o)
    else:
        epilogue(kn, d, s_len, out, out_dtype, o, wide=wide_stores)
    if mt == 2:
        # The second m-tile's results follow the first's (m, l, O).
        base = 4 + n_o
        epilogue(kn, d, s_len, out, out_dtype, [f'%res#{base + 4 + n}' for n in range(n_o)],
                 [f'%res#{base + 2}', f'%res#{base + 3}'], ('%row0_1', '%row1_1'), wide=wide_stores)
    if persistent:
        kn.emit('}')
    if tma_out:
        # The stores must have read the Q tiles before the block's shared memory goes.
        kn.emit('acopy.wait_smem_to_gmem {pending = 0 : i64}')
    kn.lines += e.end_kernel()
    return '\n'.join(kn.lines)


def key_steps(kn, causal, rows, keys, n_blocks, sfx=''):
    """%kstop: the key blocks the block's query rows read (all %kend of them, or up to
    its last row when causal); `sfx` names another tile's (%qb<sfx> -> %kstop<sfx>)."""
    kn.emit(f'%kend{sfx} = arith.constant {n_blocks} : index')
    if causal:
        # The key blocks up to the block's last query row: ceil((qb + 1) * rows / keys).
        kn.emit(f'%qnext{sfx} = arith.addi %qb{sfx}, %c1 : index')
        if rows % keys:
            kn.emit(f'%qrows{sfx} = arith.muli %qnext{sfx}, %c{rows} : index')
            kn.emit(f'%qround{sfx} = arith.addi %qrows{sfx}, %c{keys - 1} : index')
            kn.emit(f'%qkeys{sfx} = arith.divui %qround{sfx}, %c{keys} : index')
        else:
            kn.emit(f'%qkeys{sfx} = arith.muli %qnext{sfx}, %c{rows // keys} : index')
        kn.emit(f'%kstop{sfx} = arith.minui %kend{sfx}, %qkeys{sfx} : index')
    else:
        kn.emit(f'%kstop{sfx} = arith.addi %kend{sfx}, %c0 : index')


def tile_inputs(kn, sfx, qnames, overlap, peel_last, qkv, qtile, tile, layout, causal, rows, keys, n_blocks,
                bars=None, parts=('q', 'k0', 'vlast')):
    """The TMA loads, on %qbar, of the tiles a (query block, head) reads before its K loop:
    Q (a tile per warpgroup), with overlap K(0), with peel_last the last V; `sfx` names
    the tile's %h, %q0 and %qb. bars: another barrier per part (--spread-loads); parts:
    only those."""
    bar = lambda part: input_barrier(bars, part)  # noqa: E731
    for half, q in enumerate(qnames if 'q' in parts else []):
        start = f'%q0{sfx}' if half == 0 else kn.op(f'arith.addi %q0{sfx}, %c64 : index', 'qh')
        kn.emit(e.copy('%q', f'%h{sfx}, {start}, %c0', q, qkv, qtile, barrier=bar('q'), **layout))
    if overlap and 'k0' in parts:
        kn.emit(e.copy('%k', f'%h{sfx}, %c0, %c0', '%tk0', qkv, tile, barrier=bar('k0'), **layout))
    if peel_last and 'vlast' in parts:
        key_steps(kn, causal, rows, keys, n_blocks, sfx)
        kn.emit(f'%kloop{sfx} = arith.subi %kstop{sfx}, %c1 : index')
        kn.emit(f'%vlast{sfx} = arith.muli %kloop{sfx}, %c{keys} : index')
        kn.emit(e.copy('%v', f'%h{sfx}, %vlast{sfx}, %c0', '%tvl', qkv, tile, barrier=bar('vlast'), **layout))


def input_barrier(bars, part):
    """The barrier input `part` ('q', 'k0', 'vlast') of a tile lands on: %qbar, or its own
    with --spread-loads (`bars`)."""
    return (bars or {}).get(part, '%qbar')


def next_inputs(kn, parts, inputs, bars):
    """--spread-loads: `parts` of the next tile's inputs (tile_inputs), where there is one."""
    kn.emit('scf.if %more {')
    tile_inputs(kn, '_n', **inputs, bars=bars, parts=parts)
    kn.emit('}')


def last_pv(kn, d, tile, dtype, bn):
    """--peel-last after the loop: O rescaled by the last alpha, then O += P V with the last
    P (the loop's results) and the V tile loaded before the loop; returns O."""
    n_o = d // 8
    av = kn.op(f'vector.from_elements %res#{4 + n_o}, %res#{4 + n_o}, %res#{5 + n_o}, %res#{5 + n_o} : {ACC}', 'av')
    o = [kn.op(f'arith.mulf %res#{4 + n}, {av} : {ACC}', 'os') for n in range(n_o)]
    return pv_wgmma(kn, d, tile, [f'%res#{6 + n_o + t}' for t in range(bn // 16)], o, dtype, 4, 0, '%tvl')


# The K and V bytes a group of heads may keep in L2 while its blocks run (lpt_heads): a
# third of the H100's 50 MB, leaving the rest to Q, out and the other group's tail.
LPT_L2_BYTES = 16 << 20


def lpt_heads(bh, s_len, d):
    """The heads of one group of the --lpt order: the most that divide BH and whose K and V
    together fit LPT_L2_BYTES (at least one). Within a group the blocks go level by level,
    every head's heaviest query block first, so each group's last blocks are its lightest,
    and the group's heads read their K and V from L2 while it runs."""
    kv = 2 * s_len * d * 2    # K and V, 2-byte elements (f16 or bf16)
    fits = [g for g in range(1, bh + 1) if bh % g == 0 and g * kv <= LPT_L2_BYTES]
    return max(fits, default=1)


def tile_of_grid(kn, causal, s_len, rows, bh, group=0):
    """%qb, %h and %q0: the block's query block, head and first query row. group = G > 0
    (--lpt): the grid is one-dimensional and block x is tile x of tile_coords' causal
    order over groups of G heads."""
    if group:
        kn.emit('%bx = gpu.block_id x')
        tile_coords(kn, '%bx', causal, s_len, rows, bh, group=group)
        return
    if causal:
        # Causal blocks grow with the query block: the heaviest (last) query blocks of
        # each head are launched first, so the grid's last wave holds light blocks
        # instead of a tail of heavy ones.
        kn.emit('%bx = gpu.block_id x')
        kn.emit(f'%qlast = arith.constant {-(-s_len // rows) - 1} : index')
        kn.emit('%qb = arith.subi %qlast, %bx : index')
    else:
        kn.emit('%qb = gpu.block_id x')
    kn.emit('%h = gpu.block_id y')
    kn.emit(f'%q0 = arith.muli %qb, %c{rows} : index')


def tile_coords(kn, tile, causal, s_len, rows, bh, sfx='', group=0):
    """%qb<sfx>, %h<sfx> and %q0<sfx> of tile `tile` of the persistent loop or of an --lpt
    grid. Causal: heaviest first, in groups of `group` heads one after another (all BH
    heads one group when 0), each group level by level (query block last to first) with
    its heads side by side in a level."""
    nq = -(-s_len // rows)
    if causal:
        group = group or bh
        rank = tile
        if group < bh:
            # The tile's group, then its place in the group.
            kn.emit(f'%tgrp{sfx} = arith.divui {tile}, %c{group * nq} : index')
            kn.emit(f'%tin{sfx} = arith.remui {tile}, %c{group * nq} : index')
            rank = f'%tin{sfx}'
        kn.emit(f'%tq_rank{sfx} = arith.divui {rank}, %c{group} : index')
        kn.emit(f'%qlast{sfx} = arith.constant {nq - 1} : index')
        kn.emit(f'%qb{sfx} = arith.subi %qlast{sfx}, %tq_rank{sfx} : index')
        if group < bh:
            kn.emit(f'%thg{sfx} = arith.remui {rank}, %c{group} : index')
            kn.emit(f'%th0{sfx} = arith.muli %tgrp{sfx}, %c{group} : index')
            kn.emit(f'%h{sfx} = arith.addi %th0{sfx}, %thg{sfx} : index')
        else:
            kn.emit(f'%h{sfx} = arith.remui {rank}, %c{group} : index')
    else:
        # A head's query blocks side by side: its K and V stay in L2 between them.
        kn.emit(f'%qb{sfx} = arith.remui {tile}, %c{nq} : index')
        kn.emit(f'%h{sfx} = arith.divui {tile}, %c{nq} : index')
    kn.emit(f'%q0{sfx} = arith.muli %qb{sfx}, %c{rows} : index')


def tile_of_loop(kn, causal, s_len, rows, bh):
    """%qb, %h and %q0 of the persistent loop's %tile; %qpar, the parity of this block's
    Q barrier for it (its n-th tile completes phase n)."""
    tile_coords(kn, '%tile', causal, s_len, rows, bh)
    kn.emit('%tdone = arith.subi %tile, %bx : index')
    kn.emit('%tn = arith.divui %tdone, %gx : index')
    kn.emit('%todd = arith.remui %tn, %c2 : index')
    kn.emit('%qpar = arith.cmpi eq, %todd, %c1 : index')


def thread_values(kn, halves):
    """The thread's warp, lane and fragment coordinates (the same for every tile)."""
    kn.emit('%t = gpu.thread_id x')
    kn.emit('%warp = arith.divui %t, %c32 : index')
    if halves:
        kn.emit('%wg = arith.divui %t, %c128 : index')
        kn.emit('%second = arith.cmpi eq, %wg, %c1 : index')
    kn.emit('%lane = arith.remui %t, %c32 : index')
    kn.emit('%w16 = arith.muli %warp, %c16 : index')
    kn.emit('%l16 = arith.remui %lane, %c16 : index')
    kn.emit('%lhi = arith.divui %lane, %c16 : index')
    kn.emit('%acol = arith.muli %lhi, %c8 : index')
    kn.emit('%arow = arith.addi %w16, %l16 : index')
    kn.emit('%l8 = arith.remui %lane, %c8 : index')
    kn.emit('%lq = arith.divui %lane, %c8 : index')
    kn.emit('%lq2 = arith.remui %lq, %c2 : index')
    kn.emit('%bcol = arith.muli %lq2, %c8 : index')
    kn.emit('%r4 = arith.divui %lane, %c4 : index')
    kn.emit('%q4 = arith.remui %lane, %c4 : index')
    kn.emit('%q2 = arith.muli %q4, %c2 : index')


def body(kn, d, qf, causal, ragged, s_len, qkv, tile, layout, dtype, swizzle, wgmma_q=None, pv_by='mma', bn=BN,
         qnames=('%tq',), overlap=False, edge_mask=False, pingpong=False, softmax='fma', pv_in_flight=False,
         q_rows=None):
    i = 6
    kn.emit(f'%k0 = arith.muli %j, %c{bn} : index', i)
    if overlap:
        # K(j+1): past the last tile the copy zero-fills (its S is never used).
        kn.emit(f'%k1 = arith.addi %k0, %c{bn} : index', i)
        kn.emit(e.copy('%k', '%h, %k1, %c0', '%tk', qkv, tile, **dict(layout, oob='zeros')), i)
    else:
        kn.emit(e.copy('%k', '%h, %k0, %c0', '%tk', qkv, tile, **layout), i)
    kn.emit(e.copy('%v', '%h, %k0, %c0', '%tv', qkv, tile, **layout), i)
    kn.emit(e.wait(), i)
    # S = Q Kᵀ: bn / 8 fragments of 16 x 8.
    if overlap:
        if pingpong:
            overlap_turn_opens(kn, i)
        s_next = qk_issue(kn, d, '%tk', tile, wgmma_q, dtype, i, bn, qnames)
        if pingpong:
            # The turn ends with S(j+1) issued: the other warpgroup issues its own pair.
            kn.emit('nvvm.barrier.arrive id = %pp_other number_of_threads = %pp_n', i)
        s = s_fragments(kn, '%sacc', bn, i)
    elif pingpong:
        s = qk_in_turn(kn, d, tile, wgmma_q, dtype, i, bn, qnames)
    else:
        s = qk_wgmma(kn, d, tile, wgmma_q, dtype, i, bn, qnames) if wgmma_q else []
    # qf: the Q fragments held in registers; with --warp-rows=32 instead q_rows, (tile, type,
    # ldmatrix row) of each of the warp's two m-tiles, whose fragments are loaded here per 16
    # columns: each K fragment then feeds both m-tiles.
    mt = len(q_rows) if q_rows else 1
    if mt == 2:
        acc = [['%zacc'] * (bn // 8) for _ in range(mt)]
        for kk in range(d // 16):
            col = kn.op(f'arith.addi %acol, %c{16 * kk} : index', 'qc', i)
            qk_frag = [kn.op(e.ldmatrix(qt, swizzled(kn, qt, row, col, qtype, swizzle, i), qtype, 4, dtype), 'qf', i)
                       for qt, qtype, row in q_rows]
            for j8 in range(bn // 8):
                krow = kn.op(f'arith.addi %l8, %c{8 * j8} : index', 'kr', i)
                kf = k_fragment(kn, krow, kk, tile, swizzle, dtype, i)
                for t in range(mt):
                    acc[t][j8] = kn.mma(qk_frag[t], kf, acc[t][j8], dtype, i)
        s = acc
    else:
        s = [s]
    for j8 in range(bn // 8 if not wgmma_q and mt == 1 else 0):
        acc = '%zacc'
        krow = kn.op(f'arith.addi %l8, %c{8 * j8} : index', 'kr', i)
        for kk in range(d // 16):
            acc = kn.mma(qf[kk], k_fragment(kn, krow, kk, tile, swizzle, dtype, i), acc, dtype, i)
        s[0].append(acc)
    # The scores masked as the step needs, then the online softmax per row half, per m-tile.
    steps = []
    for t, sfx in enumerate(M_TILES[:mt]):
        steps.append(softmax_step(kn, s[t], bn, causal, ragged, s_len, edge_mask, softmax, '%k0',
                                  (f'%m0{sfx}', f'%m1{sfx}'), (f'%l0{sfx}', f'%l1{sfx}'), i,
                                  (f'%row0{sfx}', f'%row1{sfx}')))
    m_new, alpha, p_sum, p = steps[0]
    # O *= alpha (per row half), then O += P V.
    if overlap:
        # O is P(j-1) V(j-1)'s result. Both groups in flight (it and S(j+1)) are waited:
        # with wait_group 1 ptxas cannot tell across the loop's back edge which group is
        # older, and serializes every wgmma of the kernel.
        kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    o_tiles = []
    for (_, alpha_t, _, _), sfx in zip(steps, M_TILES):
        av = kn.op(f'vector.from_elements {alpha_t[0]}, {alpha_t[0]}, {alpha_t[1]}, {alpha_t[1]} : {ACC}', 'av', i)
        o_tiles.append([kn.op(f'arith.mulf %o{n}{sfx}, {av} : {ACC}', 'os', i) for n in range(d // 8)])
    fragments = []
    for t in range(bn // 16):
        pa = [p_fragment(kn, step[3], t, dtype, i) for step in steps]
        fragments.append(pa[0])
        if pv_by == 'wgmma':
            continue
        vrow = kn.op(f'arith.addi %l16, %c{16 * t} : index' if t else 'arith.addi %l16, %c0 : index', 'vr', i)
        for n in range(d // 8):
            at = swizzled(kn, '%tv', vrow, f'%c{8 * n}', tile, swizzle, i)
            vf = kn.op(e.ldmatrix('%tv', at, tile, 2, dtype, True), 'vf', i)
            for m, o_m in enumerate(o_tiles):
                o_m[n] = kn.mma(pa[m], vf, o_m[n], dtype, i)
    o = o_tiles[0]
    if pv_by == 'wgmma':
        if overlap and pingpong:
            # This warpgroup's turn begins with P V(j) (and goes on to S(j+2)).
            kn.emit('nvvm.barrier id = %pp_mine number_of_threads = %pp_n', i)
        o = pv_wgmma(kn, d, tile, fragments, o, dtype, i, 1 if overlap or pv_in_flight else 0)
    yielded = m_new + p_sum + o + [v for step, o_m in zip(steps[1:], o_tiles[1:]) for v in step[0] + step[2] + o_m] + \
        ([s_next] if overlap else [])
    types = (['f32'] * 4 + [ACC] * (d // 8)) * mt + ([e.struct(bn // 2)] if overlap else [])
    kn.emit(f'scf.yield {", ".join(yielded)} : {", ".join(types)}', i)


def overlap_pv_prologue(kn, d, tile, qtile, dtype, bn, qnames, causal, ragged, s_len, edge_mask, softmax,
                        iter_args, after_s0=None):
    """--overlap=pv before the loop: S(0) = Q K(0)ᵀ issued and waited, its softmax, and the
    loop's arguments: the running max and sum from it, O (zero), alpha (its rescale, unused
    by O = 0) and P(0)'s fragments. after_s0: emits what follows S(0)'s wait."""
    i = 4
    acc = qk_issue(kn, d, '%tk0', tile, qtile, dtype, i, bn, qnames)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    if after_s0:
        after_s0()
    m, alpha, l, p = softmax_step(kn, s_fragments(kn, acc, bn, i), bn, causal, ragged, s_len, edge_mask, softmax,
                                  '%c0', ('%ninf', '%ninf'), ('%fzero', '%fzero'), i)
    fragments = [p_fragment(kn, p, t, dtype, i) for t in range(bn // 16)]
    args = [(f'%m{h}', m[h]) for h in range(2)] + [(f'%l{h}', l[h]) for h in range(2)] + iter_args[4:]
    args += [(f'%alpha{h}', alpha[h]) for h in range(2)] + [(f'%pf{t}', f) for t, f in enumerate(fragments)]
    return args, carried_types(d, bn, dtype)


def carried_types(d, bn, dtype):
    """The types of --overlap=pv's loop arguments: m and l per row half, O's D / 8
    accumulators, alpha per row half and P's bn / 16 fragments."""
    return ['f32'] * 4 + [ACC] * (d // 8) + ['f32'] * 2 + [f'vector<4x2x{dtype}>'] * (bn // 16)


def k_fragment(kn, krow, kk, tile, swizzle, dtype, i):
    """The K fragment (mma.sync's B, 16 keys' columns 16 kk ..) at K tile row `krow`, by ldmatrix."""
    kcol = kn.op(f'arith.addi %bcol, %c{16 * kk} : index', 'kc', i)
    at = swizzled(kn, '%tk', krow, kcol, tile, swizzle, i)
    return kn.op(e.ldmatrix('%tk', at, tile, 2, dtype), 'kf', i)


def softmax_step(kn, s, bn, causal, ragged, s_len, edge_mask, softmax, kbase, m_old, l_old, i, rows=ROWS):
    """The scores of S's fragments `s` (keys from `kbase`, for this thread's `rows`) masked as
    the step needs (raw with --softmax=fma, else scaled into log2 units), then one
    online-softmax step from (m_old, l_old): (m_new, alpha, l_new, p)."""
    masked = ragged or causal
    scaled = softmax == 'mul'
    if masked and edge_mask:
        x = edge_masked(kn, s, bn, causal, ragged, s_len, i, scaled, kbase, rows)
    else:
        x = scores(kn, s, bn, causal, ragged, s_len, masked, i, scaled, kbase, rows)
    m_new, alpha, p_sum, p = online_softmax(kn, x, bn, softmax, i, m_old, l_old)
    return m_new, alpha, p_sum, p


def body_overlap_pv(kn, d, causal, ragged, s_len, qkv, tile, layout, dtype, qtile, bn, qnames, edge_mask, pingpong,
                    softmax, peel_last=False):
    """Iteration j of --overlap=pv (FlashAttention-3's intra-warpgroup order): the slot holds
    K(j+1) (zero-filled past the keys) and V(j). S(j+1) and P(j) V(j) are issued back to
    back (with --pingpong, in this warpgroup's turn: qk_in_turn's hand-over), O having been
    rescaled by alpha(j) first; wait_group 1 lets S(j+1)'s softmax run while P V computes;
    wait_group 0 ends the iteration, and P(j+1) is rounded once P(j) is no longer read."""
    i = 6
    kn.emit(f'%k0 = arith.muli %j, %c{bn} : index', i)
    kn.emit(f'%k1 = arith.addi %k0, %c{bn} : index', i)
    kn.emit(e.copy('%k', '%h, %k1, %c0', '%tk', qkv, tile, **dict(layout, oob='zeros')), i)
    kn.emit(e.copy('%v', '%h, %k0, %c0', '%tv', qkv, tile, **layout), i)
    kn.emit(e.wait(), i)
    if pingpong:
        first_turn_given(kn, i)
        kn.emit('nvvm.barrier id = %pp_mine number_of_threads = %pp_n', i)
    s_next = qk_issue(kn, d, '%tk', tile, qtile, dtype, i, bn, qnames)
    av = kn.op(f'vector.from_elements %alpha0, %alpha0, %alpha1, %alpha1 : {ACC}', 'av', i)
    o = [kn.op(f'arith.mulf %o{n}, {av} : {ACC}', 'os', i) for n in range(d // 8)]
    o = pv_wgmma(kn, d, tile, [f'%pf{t}' for t in range(bn // 16)], o, dtype, i, None)
    nxt = kn.op('arith.addi %j, %c1 : index', 'ppn', i)
    more = kn.op(f'arith.cmpi ult, {nxt}, {"%kloop" if peel_last else "%kstop"} : index', 'more', i)
    if pingpong:
        # Warpgroup 1 skips its hand-over after the last S (qk_in_turn).
        first_wg = kn.op('arith.xori %second, %true : i1', 'ppw', i)
        arrive_if(kn, kn.op(f'arith.ori {more}, {first_wg} : i1', 'pph', i), '%pp_other', i)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 1', i)
    if peel_last:
        # Every iteration's S(j+1) is one of the block's keys (the loop stops one short).
        m, alpha, l, p = softmax_step(kn, s_fragments(kn, s_next, bn, i), bn, causal, ragged, s_len, edge_mask,
                                      softmax, '%k1', ('%m0', '%m1'), ('%l0', '%l1'), i)
        kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
        fragments = [p_fragment(kn, p, t, dtype, i) for t in range(bn // 16)]
        kn.emit(f'scf.yield {", ".join(m + l + o + alpha + fragments)} : {", ".join(carried_types(d, bn, dtype))}', i)
        return
    # The last iteration's S(j+1) lies past the keys this block reads: the max, sum and P
    # stay as they are (alpha and P are not read after the loop).
    n_p = bn // 8 * 4
    res = kn.fresh('sm')
    kn.emit(f'{res}:{6 + n_p} = scf.if {more} -> ({", ".join(["f32"] * (6 + n_p))}) {{', i)
    inner = i + 2
    m, alpha, l, p = softmax_step(kn, s_fragments(kn, s_next, bn, inner), bn, causal, ragged, s_len, edge_mask,
                                  softmax, '%k1', ('%m0', '%m1'), ('%l0', '%l1'), inner)
    flat = [p[j8][h][el] for j8 in range(bn // 8) for h in range(2) for el in range(2)]
    kn.emit(f'scf.yield {", ".join(m + l + alpha + flat)} : {", ".join(["f32"] * (6 + n_p))}', inner)
    kn.emit('} else {', i)
    kn.emit(f'scf.yield %m0, %m1, %l0, %l1, %c1f, %c1f, {", ".join(["%fzero"] * n_p)} : '
            f'{", ".join(["f32"] * (6 + n_p))}', inner)
    kn.emit('}', i)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    p = [[[None] * 2 for _ in range(2)] for _ in range(bn // 8)]
    for n, (j8, h, el) in enumerate((j8, h, el) for j8 in range(bn // 8) for h in range(2) for el in range(2)):
        p[j8][h][el] = f'{res}#{6 + n}'
    fragments = [p_fragment(kn, p, t, dtype, i) for t in range(bn // 16)]
    # The loop's arguments: m, l, O, alpha, P.
    yielded = [f'{res}#{n}' for n in range(4)] + o + [f'{res}#{n}' for n in (4, 5)] + fragments
    kn.emit(f'scf.yield {", ".join(yielded)} : {", ".join(carried_types(d, bn, dtype))}', i)


def p_fragment(kn, p, t, dtype, i):
    """Keys 16t..16t+15 of P (p[j8][h][el], f32) rounded to `dtype`: an A fragment in
    mma.sync's layout, which is wgmma's register A layout."""
    parts = []
    for j8, h in ((2 * t, 0), (2 * t, 1), (2 * t + 1, 0), (2 * t + 1, 1)):
        for el in range(2):
            parts.append(kn.op(f'arith.truncf {p[j8][h][el]} : f32 to {dtype}', 'ph', i))
    return kn.op(f'vector.from_elements {", ".join(parts)} : vector<4x2x{dtype}>', 'pa', i)


def online_softmax(kn, x, bn, softmax, i, m_old=('%m0', '%m1'), l_old=('%l0', '%l1')):
    """One step of the online softmax of the scores x[j8][h][el] per row half h: the new
    running max m_new (in x's units), alpha = 2^((m_old - m_new) s) that rescales O and l,
    the new partial row sum l and P = 2^((x - m_new) s), s the log2-unit scale. The
    running max and sum so far are m_old and l_old (the loop's, by default).

    softmax = 'fma' (x raw; FlashAttention-3's form): the max and sum as balanced trees
    (short dependency chains: max is exact in any order, and pairwise summation is no
    less accurate than a chain) and each P one FMA, x s - m_new s, before ex2.
    softmax = 'mul' (x already scaled): chains of max and add, and each P a subtraction,
    the kernel before the fused form (kept to time one against the other)."""
    fused = softmax == 'fma'
    reduce = tree if fused else chain
    m_new, alpha, p_sum, offset = [], [], [], []
    for h in range(2):
        row = [x[j8][h][el] for j8 in range(bn // 8) for el in range(2)]
        cur = reduce(kn, row, 'arith.maximumf', 'mx', i)
        for lanes in ('%i1', '%i2'):
            other = shuffle(kn, cur, lanes, i)
            cur = kn.op(f'arith.maximumf {cur}, {other} : f32', 'mx', i)
        mn = kn.op(f'arith.maximumf {m_old[h]}, {cur} : f32', 'mn', i)
        diff = kn.op(f'arith.subf {m_old[h]}, {mn} : f32', 'dm', i)
        if fused:
            diff = kn.op(f'arith.mulf {diff}, %scale : f32', 'dm', i)
            # -m_new s, the FMA's addend: m_new is -inf only if the row's every key so far
            # was masked, which no step allows (key 0 is kept by every row's first step).
            offset.append(kn.op(f'arith.mulf {mn}, %nscale : f32', 'mo', i))
        alpha.append(exp2(kn, diff, i))
        m_new.append(mn)
    p = [[[None] * 2 for _ in range(2)] for _ in range(bn // 8)]
    for h in range(2):
        for j8 in range(bn // 8):
            for el in range(2):
                if fused:
                    # llvm.intr.fma, not math.fma: the GPU lowering turns math.fma into a
                    # libdevice call, which the emitted PTX cannot link.
                    arg = kn.op(f'llvm.intr.fma({x[j8][h][el]}, %scale, {offset[h]}) : (f32, f32, f32) -> f32', 'dp', i)
                else:
                    arg = kn.op(f'arith.subf {x[j8][h][el]}, {m_new[h]} : f32', 'dp', i)
                p[j8][h][el] = exp2(kn, arg, i)
        total = reduce(kn, [p[j8][h][el] for j8 in range(bn // 8) for el in range(2)], 'arith.addf', 'ps', i)
        scaled = kn.op(f'arith.mulf {l_old[h]}, {alpha[h]} : f32', 'ls', i)
        p_sum.append(kn.op(f'arith.addf {scaled}, {total} : f32', 'ln', i))
    return m_new, alpha, p_sum, p


def chain(kn, values, op, prefix, i):
    """((v0 op v1) op v2) ...: one dependent chain."""
    acc = values[0]
    for v in values[1:]:
        acc = kn.op(f'{op} {acc}, {v} : f32', prefix, i)
    return acc


def tree(kn, values, op, prefix, i):
    """The values combined pairwise, level by level (a chain of log2(n) ops)."""
    while len(values) > 1:
        pairs = [kn.op(f'{op} {a}, {b} : f32', prefix, i) for a, b in zip(values[0::2], values[1::2])]
        values = pairs + values[len(pairs) * 2:]
    return values[0]


def scores(kn, s, bn, causal, ragged, s_len, masked, i, scaled=True, kbase='%k0', rows=ROWS):
    """The scores of S's fragments `s` as x[j8][h][el], `scaled` into log2 units (else
    raw: the softmax folds the scale in); with `masked`, keys past S_len (ragged) or past
    the row (causal) are -inf. The step's first key is `kbase`."""
    x = [[[None] * 2 for _ in range(2)] for _ in range(bn // 8)]
    for j8 in range(bn // 8):
        for el in range(2):
            col = None
            if masked:
                base = kn.op(f'arith.addi {kbase}, %q2 : index', 'kb', i)
                col = kn.op(f'arith.addi {base}, %c{8 * j8 + el} : index' if 8 * j8 + el else f'arith.addi {base}, %c0 : index', 'col', i)
            for h in range(2):
                v = kn.op(f'vector.extract {s[j8]}[{h}, {el}] : f32 from {ACC}', 'e', i)
                if scaled:
                    v = kn.op(f'arith.mulf {v}, %scale : f32', 'y', i)
                if masked:
                    ok = kept(kn, col, rows[h], causal, ragged, s_len, i)
                    v = kn.op(f'arith.select {ok}, {v}, %ninf : f32', 'mk', i)
                x[j8][h][el] = v
    return x


def kept(kn, col, row, causal, ragged, s_len, i):
    """The i1 that keeps key `col` for query row `row`: below S_len (ragged), at or before
    the row (causal)."""
    ok = None
    if ragged:
        ok = kn.op(f'arith.cmpi ult, {col}, %c{s_len} : index', 'in', i)
    if causal:
        c = kn.op(f'arith.cmpi ule, {col}, {row} : index', 'cz', i)
        ok = c if ok is None else kn.op(f'arith.andi {ok}, {c} : i1', 'ok', i)
    return ok


def edge_masked(kn, s, bn, causal, ragged, s_len, i, scaled=True, kbase='%k0', rows=ROWS):
    """scores() masked only where a key of this step can be masked for the warp's rows:
    the step holds a key past the warp's first row (causal; the diagonal's steps) or past
    S_len (ragged; the last step). Elsewhere the scores pass unmasked, so most steps of a
    causal or ragged kernel skip the compares and selects (a warp-uniform branch)."""
    step_end = kn.op(f'arith.addi {kbase}, %c{bn} : index', 'kse', i)
    need = None
    if causal:
        first = kn.op('arith.addi %rw, %c1 : index', 'rw1', i)
        need = kn.op(f'arith.cmpi ugt, {step_end}, {first} : index', 'nc', i)
    if ragged:
        past = kn.op(f'arith.cmpi ugt, {step_end}, %c{s_len} : index', 'nr', i)
        need = past if need is None else kn.op(f'arith.ori {need}, {past} : i1', 'nm', i)
    plain = scores(kn, s, bn, causal, ragged, s_len, False, i, scaled, kbase, rows)
    flat = [plain[j8][h][el] for j8 in range(bn // 8) for h in range(2) for el in range(2)]
    result = kn.fresh('xm')
    types = ', '.join(['f32'] * len(flat))
    kn.emit(f'{result}:{len(flat)} = scf.if {need} -> ({types}) {{', i)
    inner = i + 2
    masked = []
    for j8 in range(bn // 8):
        for h in range(2):
            for el in range(2):
                base = kn.op(f'arith.addi {kbase}, %q2 : index', 'kb', inner)
                col = kn.op(f'arith.addi {base}, %c{8 * j8 + el} : index', 'col', inner)
                ok = kept(kn, col, rows[h], causal, ragged, s_len, inner)
                masked.append(kn.op(f'arith.select {ok}, {plain[j8][h][el]}, %ninf : f32', 'mk', inner))
    kn.emit(f'scf.yield {", ".join(masked)} : {types}', inner)
    kn.emit('} else {', i)
    kn.emit(f'scf.yield {", ".join(flat)} : {types}', inner)
    kn.emit('}', i)
    x = [[[None] * 2 for _ in range(2)] for _ in range(bn // 8)]
    for n, (j8, h, el) in enumerate((j8, h, el) for j8 in range(bn // 8) for h in range(2) for el in range(2)):
        x[j8][h][el] = f'{result}#{n}'
    return x


def qk_wgmma(kn, d, tile, qtile, dtype, i, bn, qnames):
    """S = Q Kᵀ, issued and waited at once, as bn / 8 fragments of 16 x 8."""
    acc = qk_issue(kn, d, '%tk', tile, qtile, dtype, i, bn, qnames)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    return s_fragments(kn, acc, bn, i)


def qk_in_turn(kn, d, tile, qtile, dtype, i, bn, qnames):
    """S = Q Kᵀ issued in this warpgroup's turn (ping-pong, FlashAttention-3's warpgroup
    schedule): the two warpgroups take turns issuing, on named barriers 2 and 3 of 256
    threads, so one's softmax runs while the other's wgmma does. Warpgroup w waits on
    barrier 2 + w, issues, and lets the other go (arrives on 3 - w). Warpgroup 1 opens
    the first turn for warpgroup 0, and skips its last hand-over, so every wait has
    exactly one arrival from the other warpgroup."""
    first_turn_given(kn, i)
    kn.emit('nvvm.barrier id = %pp_mine number_of_threads = %pp_n', i)
    acc = qk_issue(kn, d, '%tk', tile, qtile, dtype, i, bn, qnames)
    nxt = kn.op('arith.addi %j, %c1 : index', 'ppn', i)
    more = kn.op(f'arith.cmpi ult, {nxt}, %kstop : index', 'ppm', i)
    first_wg = kn.op('arith.xori %second, %true : i1', 'ppw', i)
    arrive_if(kn, kn.op(f'arith.ori {more}, {first_wg} : i1', 'pph', i), '%pp_other', i)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    return s_fragments(kn, acc, bn, i)


def overlap_turn_opens(kn, i):
    """Ping-pong turns with --overlap: a warpgroup's turn runs from its P V(j) issue
    (the end of iteration j) to its S(j+2) issue (the start of iteration j + 1), both
    wgmma groups back to back while the other warpgroup runs its softmax. Iteration 0
    has no P V before its S(1), so its turn opens here: warpgroup 1 first lets warpgroup
    0 go (the one arrival no S issue gives). Every wait then has exactly one arrival from
    the other warpgroup: warpgroup 0's last comes after the loop (overlap_turn_closes)."""
    first = first_turn_given(kn, i)
    kn.emit(f'scf.if {first} {{', i)
    kn.emit('nvvm.barrier id = %pp_mine number_of_threads = %pp_n', i + 2)
    kn.emit('}', i)


def first_turn_given(kn, i):
    """In iteration 0, warpgroup 1 lets warpgroup 0 take the first turn (arrives on its
    barrier); returns the i1 that holds in iteration 0."""
    first = kn.op('arith.cmpi eq, %j, %c0 : index', 'pp0', i)
    arrive_if(kn, kn.op(f'arith.andi {first}, %second : i1', 'ppo', i), '%pp_first', i)
    return first


def overlap_turn_closes(kn, i):
    """After the loop: warpgroup 0 hands over the turn of its last P V, for which
    warpgroup 1 waits (warpgroup 1 gave its extra arrival when the loop began)."""
    arrive_if(kn, kn.op('arith.xori %second, %true : i1', 'ppl', i), '%pp_other', i)


def arrive_if(kn, condition, barrier, i):
    """When `condition` holds, this warpgroup's arrival on the named `barrier` (256 threads)."""
    kn.emit(f'scf.if {condition} {{', i)
    kn.emit(f'nvvm.barrier.arrive id = {barrier} number_of_threads = %pp_n', i + 2)
    kn.emit('}', i)


def qk_issue(kn, d, ktile, tile, qtile, dtype, i, bn, qnames):
    """S = Q Kᵀ as D / 16 wgmma m64n{bn}k16 steps (A = the warpgroup's Q tile, B = the K
    tile `ktile`, both K-major) in one committed group; returns the accumulator."""
    acc_type = e.struct(bn // 2)
    # The first step writes S without reading it (scale-d 0): no zeroed registers.
    acc = kn.op(f'llvm.mlir.undef : {acc_type}', 'sz', i)
    kn.emit('nvvm.wgmma.fence.aligned', i)
    for kk in range(d // 16):
        dq = kn.op(e.descriptor(qnames[0], f'%c{16 * kk}', qtile), 'dq', i)
        if len(qnames) == 2:
            # The second warpgroup's rows are the second Q tile.
            dq1 = kn.op(e.descriptor(qnames[1], f'%c{16 * kk}', qtile), 'dq', i)
            dq = kn.op(f'arith.select %second, {dq1}, {dq} : i64', 'dq', i)
        dk = kn.op(e.descriptor(ktile, f'%c{16 * kk}', tile), 'dk', i)
        acc = kn.op(e.wgmma(dq, dk, acc, bn, dtype, acc_type, accumulate=kk > 0), 'sw', i)
    kn.emit('nvvm.wgmma.commit.group.sync.aligned', i)
    return acc


def s_fragments(kn, acc, bn, i):
    """wgmma's S accumulator as mma.sync fragments: accumulator i of a lane is row l/4 + 8
    ((i/2) mod 2), column 2 (l mod 4) + (i mod 2) + 8 (i/4) of the warp's 16 rows, which is
    mma.sync's [h][e] of fragment j8 = i/4."""
    acc_type = e.struct(bn // 2)
    s = []
    for j8 in range(bn // 8):
        parts = [kn.op(f'llvm.extractvalue {acc}[{4 * j8 + n}] : {acc_type}', 'sv', i) for n in range(4)]
        s.append(kn.op(f'vector.from_elements {", ".join(parts)} : {ACC}', 'sf', i))
    return s


def pv_wgmma(kn, d, tile, fragments, o, dtype, i, pending=0, vtile='%tv'):
    """O += P V as bn / 16 wgmma m64nDk16, A = P's registers (fragment t: keys 16t..16t+15),
    B = the V tile's K step t read MN-major; the accumulators go in and come out in
    mma.sync's fragment order (accumulator j of a lane is o[j / 4][(j / 2) mod 2][j mod 2]);
    `pending` groups stay in flight after it (None: no wait; the caller waits)."""
    n = d // 2
    acc = [kn.op(f'vector.extract {o[j // 4]}[{(j // 2) % 2}, {j % 2}] : f32 from {ACC}', 'oa', i) for j in range(n)]
    kn.emit('nvvm.wgmma.fence.aligned', i)
    for t, pa in enumerate(fragments):
        regs = []
        for r in range(4):
            half = kn.op(f'vector.extract {pa}[{r}] : vector<2x{dtype}> from vector<4x2x{dtype}>', 'pr', i)
            word = kn.op(f'vector.bitcast {half} : vector<2x{dtype}> to vector<1xi32>', 'pw', i)
            regs.append(kn.op(f'vector.extract {word}[0] : i32 from vector<1xi32>', 'pi', i))
        dv = kn.op(e.descriptor(vtile, f'%c{16 * t}', tile, 'mn'), 'dv', i)
        acc = wgmma_rs(kn, d, dtype, regs, dv, acc, i)
    kn.emit('nvvm.wgmma.commit.group.sync.aligned', i)
    if pending is not None:
        kn.emit(f'nvvm.wgmma.wait.group.sync.aligned {pending}', i)
    return [kn.op(f'vector.from_elements {", ".join(acc[4 * j:4 * j + 4])} : {ACC}', 'of', i) for j in range(d // 8)]


def wgmma_rs(kn, d, dtype, regs, desc, acc, i):
    """One wgmma.mma_async m64nDk16 with A from four 32-bit registers and B (MN-major,
    transpose flag 1) from a descriptor, accumulating into `acc` (D / 2 f32), as inline PTX."""
    n = d // 2
    outs = ', '.join(f'${j}' for j in range(n))
    a = ', '.join(f'${n + r}' for r in range(4))
    ptx = ('{ .reg .pred p; setp.ne.b32 p, 1, 0; '
           f'wgmma.mma_async.sync.aligned.m64n{d}k16.f32.{dtype}.{dtype} {{{outs}}}, {{{a}}}, ${n + 4}, p, 1, 1, 1; }}')
    constraints = ','.join(['=f'] * n + ['r'] * 4 + ['l'] + [str(j) for j in range(n)])
    struct = e.struct(n)
    types = ', '.join(['i32'] * 4 + ['i64'] + ['f32'] * n)
    result = kn.op(f'llvm.inline_asm has_side_effects "{ptx}", "{constraints}" {", ".join(regs + [desc] + acc)} : ({types}) -> {struct}', 'rs', i)
    return [kn.op(f'llvm.extractvalue {result}[{j}] : {struct}', 'ra', i) for j in range(n)]


def swizzled(kn, tile_name, row, col, tile, swizzle, indent):
    """The (row, col) pair at which an ldmatrix reads logical (row, col) of the tile."""
    if not swizzle:
        return f'{row}, {col}'
    at = kn.fresh('sw')
    kn.emit(e.swizzled_index(at, tile_name, f'{row}, {col}', tile), indent)
    return f'{at}#0, {at}#1'


def shuffle(kn, value, lanes, indent):
    """The value of the lane `lanes` away (xor) in the warp."""
    other = kn.fresh('sh')
    kn.emit(f'{other}, {other}_ok = gpu.shuffle xor {value}, {lanes}, %i32 : f32', indent)
    return other


def exp2(kn, value, indent):
    """2^value, as the PTX instruction (no libdevice call)."""
    return kn.op(f'llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" {value} : (f32) -> f32', 'ex', indent)


def epilogue(kn, d, s_len, out, out_dtype='f32', o=None, l=None, rows=ROWS, wide=False):
    """l summed over the 4 lanes of each row; out = O / l for rows below S_len (rounded to
    bf16 with out_dtype = 'bf16', the anchors' output type). o, l: O's and l's values (the
    loop's first results by default); rows: this thread's two rows of out. wide
    (--wide-stores): 16-byte stores after a transpose within each row's 4 lanes
    (quad_transpose)."""
    n_o = d // 8
    inv = row_inverses(kn, l)
    if not wide:
        for h in range(2):
            keep = kn.op(f'arith.cmpi ult, {rows[h]}, %c{s_len} : index', 'keep')
            kn.emit(f'scf.if {keep} {{')
            for n in range(n_o):
                acc = o[n] if o else f'%res#{4 + n}'
                val = scaled_row(kn, acc, inv[h], h, out_dtype, 6)
                col = kn.op(f'arith.addi %q2, %c{8 * n} : index' if n else 'arith.addi %q2, %c0 : index', 'oc', 6)
                # Two bf16 at an even column are 4-byte aligned; said so, the pair is one
                # 32-bit store (else LLVM splits it into two 16-bit stores).
                aligned = ' {alignment = 4 : i64}' if out_dtype == 'bf16' else ''
                kn.emit(f'vector.store {val}, %out[%h, {rows[h]}, {col}]{aligned} : {out}, vector<2x{out_dtype}>', 6)
            kn.emit('}')
        return
    bits = quad_bits(kn)
    for h in range(2):
        # The shuffles run in every lane (outside the row guard); only the stores are guarded.
        words = []
        for n in range(n_o):
            val = scaled_row(kn, o[n] if o else f'%res#{4 + n}', inv[h], h, out_dtype, 4)
            word = kn.op(f'vector.bitcast {val} : vector<2x{out_dtype}> to vector<1xi32>', 'ow')
            words.append(kn.op(f'vector.extract {word}[0] : i32 from vector<1xi32>', 'oi'))
        vectors = []
        for g in range(n_o // 4):
            lanes = quad_transpose(kn, words[4 * g:4 * g + 4], bits)
            packed = kn.op('vector.from_elements ' + ', '.join(lanes) + ' : vector<4xi32>', 'op')
            vectors.append(kn.op(f'vector.bitcast {packed} : vector<4xi32> to vector<8x{out_dtype}>', 'o8'))
        keep = kn.op(f'arith.cmpi ult, {rows[h]}, %c{s_len} : index', 'keep')
        kn.emit(f'scf.if {keep} {{')
        for g, vec in enumerate(vectors):
            # Lane q of the row's quad holds columns 8 (4 g + q) .. + 7: 16-byte aligned.
            col = kn.op(f'arith.addi {bits[2]}, %c{32 * g} : index', 'oc', 6)
            kn.emit(f'vector.store {vec}, %out[%h, {rows[h]}, {col}] {{alignment = 16 : i64}} : {out}, '
                    f'vector<8x{out_dtype}>', 6)
        kn.emit('}')


def row_inverses(kn, l=None):
    """1 / l of the thread's two rows, l summed over the 4 lanes of each row (l: the two
    rows' partial sums, the loop's results 2 and 3 by default)."""
    inv = []
    for h in range(2):
        total = l[h] if l else f'%res#{2 + h}'
        for lanes in ('%i1', '%i2'):
            other = shuffle(kn, total, lanes, 4)
            total = kn.op(f'arith.addf {total}, {other} : f32', 'lt')
        inv.append(kn.op(f'arith.divf %c1f, {total} : f32', 'inv'))
    return inv


def epilogue_tma(kn, d, out, qnames, qtile, o=None):
    """--tma-out: out = O / l rounded to bf16, written by each warpgroup into its own Q
    tile (64 x D, 128-byte swizzle: each value pair at the acopy.swizzled_index position
    of its logical place, so TMA un-swizzles it as it reads), then stored by one TMA
    store per tile at out[h, q0 + 64 w, 0] (acopy.copy_smem_to_gmem, which fences the
    writes to the async proxy and meets the consumers first). TMA clips the rows past
    S_len, so a ragged tile needs no guard. o: O's values (the loop's results by default)."""
    inv = row_inverses(kn)
    # The thread's rows in its warpgroup's tile: warp w of the block holds rows 16 (w mod
    # 4) .. + 15 of warpgroup w / 4's 64.
    kn.emit('%ew = arith.remui %w16, %c64 : index')
    kn.emit('%erow0 = arith.addi %ew, %r4 : index')
    kn.emit('%erow8 = arith.addi %erow0, %c8 : index')
    stores = []
    for h, row in enumerate(('%erow0', '%erow8')):
        for n in range(d // 8):
            val = scaled_row(kn, o[n] if o else f'%res#{4 + n}', inv[h], h, 'bf16', 4)
            col = kn.op(f'arith.addi %q2, %c{8 * n} : index', 'ec')
            # Both Q tiles have one type, so one position serves either.
            stores.append((val, swizzled(kn, qnames[0], row, col, qtile, 128, 4)))
    for w, branch in enumerate(('scf.if %second {', '} else {')):
        kn.emit(branch)
        for val, at in stores:
            # An even column's pair is 4-byte aligned: one 32-bit store.
            kn.emit(f'vector.store {val}, {qnames[1 - w]}[{at}] {{alignment = 4 : i64}} : {qtile}, vector<2xbf16>', 6)
    kn.emit('}')
    kn.emit('%eq64 = arith.addi %q0, %c64 : index')
    for q, start in zip(qnames, ('%q0', '%eq64')):
        kn.emit(f'acopy.copy_smem_to_gmem {q} -> %out[%h, {start}, %c0] {{assume_aligned_start, swizzle = 128 : i64}} '
                f': {qtile} -> {out}')


def scaled_row(kn, acc, inv, h, out_dtype, indent):
    """Row half h of O's fragment `acc` times 1 / l (`inv`), rounded to out_dtype."""
    row = kn.op(f'vector.extract {acc}[{h}] : vector<2xf32> from {ACC}', 'ov', indent)
    scaled = kn.op(f'vector.broadcast {inv} : f32 to vector<2xf32>', 'ib', indent)
    val = kn.op(f'arith.mulf {row}, {scaled} : vector<2xf32>', 'ot', indent)
    if out_dtype != 'f32':
        val = kn.op(f'arith.truncf {val} : vector<2xf32> to vector<2x{out_dtype}>', 'ob', indent)
    return val


def quad_bits(kn):
    """The lane's place q in its row's quad (lane mod 4) as two i1 bits and 8 q (its
    16-byte column offset in a group of four 8-column blocks)."""
    b0 = kn.op('arith.andi %q4, %c1 : index', 'qa')
    b1 = kn.op('arith.andi %q4, %c2 : index', 'qb')
    bit0 = kn.op(f'arith.cmpi ne, {b0}, %c0 : index', 'qb0')
    bit1 = kn.op(f'arith.cmpi ne, {b1}, %c0 : index', 'qb1')
    col = kn.op('arith.muli %q4, %c8 : index', 'q8')
    return bit0, bit1, col


def quad_transpose(kn, words, bits):
    """A 4 x 4 transpose across the 4 lanes of a quad: lane q's words[k] (columns 8 k +
    2 q, + 1 of a group of four 8-column blocks) goes to lane k's place q, so lane q ends
    with block q's 8 columns in order. Two xor rounds (1, then 2): a word whose lane and
    index differ in that bit moves to the partner lane and to the index with the bit
    flipped, one shuffle per pair of indices."""
    v = list(words)
    for m, bit in ((1, bits[0]), (2, bits[1])):
        for a in ((0, 2) if m == 1 else (0, 1)):
            send = kn.op(f'arith.select {bit}, {v[a]}, {v[a + m]} : i32', 'ts')
            got = kn.fresh('tr')
            kn.emit(f'{got}, {got}_ok = gpu.shuffle xor {send}, %i{m}, %i32 : i32')
            v[a], v[a + m] = (kn.op(f'arith.select {bit}, {got}, {v[a]} : i32', 'tv'),
                              kn.op(f'arith.select {bit}, {v[a + m]}, {got} : i32', 'tw'))
    return v


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    flags = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    causal = '--causal' in sys.argv[1:]
    chip = flags.get('chip', 'sm_80')
    if len(args) not in (3, 4) or chip not in ('sm_80', 'sm_90'):
        sys.exit(__doc__.strip().splitlines()[-1])
    bh, s_len, d = (int(v) for v in args[:3])
    stages = args[3] if len(args) == 4 else '2'
    try:
        text = attention(bh, s_len, d, stages, causal, chip, flags.get('dtype', 'f16'), int(flags.get('swizzle', '0')), int(flags.get('rows', str(BM))), flags.get('qk', 'mma'),
                       flags.get('pv', 'mma'), int(flags.get('keys', str(BN))), flags.get('out', 'f32'),
                       flags.get('overlap') or '--overlap' in sys.argv[1:], flags.get('mask', 'edge'), int(flags.get('ctas-per-sm', '0')),
                       flags.get('producer', 'block'), '--pingpong' in sys.argv[1:],
                       int(flags.get('persistent', '0')), flags.get('softmax', 'fma'),
                       '--pv-in-flight' in sys.argv[1:], int(flags.get('producer-registers', '0')),
                       '--peel-last' in sys.argv[1:], '--prefetch-q' in sys.argv[1:],
                       int(flags.get('warp-rows', '16')), '--spread-loads' in sys.argv[1:],
                       '--wide-stores' in sys.argv[1:], '--tma-out' in sys.argv[1:], flags.get('pdl', '0') == '1',
                       '--lpt' in sys.argv[1:])
    # Options the kernel does not take or combine (emitter.require): named, nothing written.
    except ValueError as error:
        sys.exit(f'gen.py: error: {error}')
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
