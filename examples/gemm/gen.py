#!/usr/bin/env python3
"""Writes a GEMM kernel (bf16 or f16 in; bf16 by default on sm_90a), out = A Bᵀ in f32: what a frontend builds with
acopy for Hopper tensor cores (docs/pipelining.md, "Asynchronous consumers").

src holds A (M x K, row-major) in its first M rows and B (N x K, K-major: the Bᵀ of a
row-major K x N B) in the next N rows. Each block computes a 128 x 128 tile of out with
two warpgroups of 128 threads (rows 0-63 and 64-127): a K loop marked acopy.pipeline
TMA-copies A's two 64 x 64 halves and B's 128 x 64 tile per 64-wide K step into
128-byte swizzled tiles, issues four wgmma m64n128k16 per step through
acopy.wgmma_descriptor (each warpgroup picks its A half's descriptor), and leaves one
wgmma group in flight; the pass refills each slot only after the wgmma that read it.
Any M and N, and K a multiple of 8 (TMA needs 16-byte row strides; the sm_80 kernel
takes any K): ragged edges are zero-filled by the copies (oob_mode = "zeros") and the
stores past M or N are skipped.

With PRODUCER = warp, the loop is warp-specialized: the pass adds a producer warp
(threads 256..287) that issues the TMA copies while the two warpgroups compute, with
full and empty barrier rings (docs/pipelining.md, "Warp specialization").

With --chip=sm_80 the same tile and the same marked loop of acopy copies feed
nvgpu.ldmatrix + nvgpu.mma.sync instead (f16; examples/gemm/mma_sync.py): one frontend,
both chips.

Faster variants (options; the default kernel is unchanged): --tile=128x256 (sm_90a:
wgmma m64n256k16 per warpgroup), --tile=128x192 (m64n192k16: more, smaller tiles where
128 x 256 tiles leave a persistent grid's last wave part empty; measured slower than
128 x 256 at every swept shape, bench/RESULTS.md), --tile=128x64 (sm_90a: m64n64k16, twice the tiles where
one wave of 128 x 128 tiles leaves SMs idle; with --epilogue=tma one 64-column panel), --tile=64x64|64x128|64x256 (sm_90a: one consumer warpgroup, m64nBNk16, twice the tiles of the
128-row tile of that width; a tile loop; --cluster=2 pairs share B, with --pair=n A), --raster=G (L2-grouped tile order), --persistent=W
(sm_90a: W blocks loop over the tiles), --vstore=1 (st.global.v2 epilogue), --epilogue=tma
(sm_90a, with --out=bf16: the tile through 128-byte swizzled shared memory and a TMA store
that overlaps the next tile's K loop; N a multiple of 8), --ring=1 (with --epilogue=tma: its
panels as a ring), --split-k=S|auto (sm_90a: K ranges per tile for shapes with fewer tiles than
SMs; the last range sums the partials; direct epilogue; --split-reduce=dsmem: the ranges of a tile
are a cluster that sums them through distributed shared memory; --split-reduce=spread: each range
sums a column band of its tile, waiting a bounded time for the others), --cluster=2 with a tile loop (two
blocks share B's tile by multicast; --multicast=0: the same pairs without it; --pair=n: the
pair takes two tiles of one tile row and shares A's tile instead), --release=warp (with a
producer: the consumers release each slot a warp at a time; sm_90a); on sm_80
--tile, --bk=64 with --swizzle=128, --warp=64x64 (mma_sync.gemm_tiled). --b-major=n: B is
a second argument, K x N row-major (gemm() says how each chip reads it); the module is
named gemm_<dtype>_MxNxK_bn.
bench/gemm_variants_prepare.sh builds the ones worth measuring.

Usage: python3 examples/gemm/gen.py M N K [STAGES [PRODUCER]] [--chip=sm_80|sm_90a] [--swizzle=64] [--dtype=bf16|f16] [--tile=BMxBN] [--raster=G] [--persistent=W] [--vstore=1] [--bk=32|64] [--warp=WMxWN] [--b-major=k|n] [--cluster=2] [--multicast=0] [--out=f32|bf16] [--epilogue=direct|tma] [--ring=1] [--split-k=S|auto] [--split-reduce=serial|dsmem|spread] [--split-sync=fence|release] [--pair=m|n] [--release=thread|warp] [--pdl=1] > gemm.mlir   (STAGES: a number or auto; PRODUCER: block or warp; --swizzle, --bk, --warp: sm_80 only; --persistent, --out, --epilogue, --ring, --split-k, --pdl: sm_90a only; a persistent build's launch grid is launch_grid's, or choose.py's grid)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import emitter as e  # noqa: E402  (examples/emitter.py: the text of each construct)


# The sm_90a block tiles (--tile): 64 rows (one consumer warpgroup) or 128 (two), 64 to 256 columns.
SM90_TILES = ('64x64', '64x128', '64x256', '128x64', '128x128', '128x192', '128x256')
TILE_LIMIT = ', '.join(SM90_TILES[:-1]) + ' or ' + SM90_TILES[-1]


def tile_loop(lines, m, n, bm, bn, raster, persistent, indent='    ', split=1, pair=False, pair_axis='m'):
    """Opens `scf.for %tile` over the work units of an M x N out and binds %m0 and %n0 to
    the unit's first row and column. A unit is an output tile (bm x bn) times one of
    `split` K ranges (split-K: %ks is the unit's range, %tix its tile; split = 1 has one
    range per tile). Block L (x fastest, L = y * grid x + x, from the launched grid)
    takes unit L, and L >= units runs no trip. persistent = W > 0: blocks L < W' =
    min(W, units) loop over units L, L + W', ... (W = the SM count: one block per SM,
    whose next tile's loads overlap the epilogue) and the others run no trip; any W is
    exact. launch_grid gives the grid a launcher should use: W' blocks when persistent
    (a larger grid is exact too, its extra blocks idle), else a block per unit. A tile's K ranges are neighbouring units, so they run side by side.
    Tiles go in groups of `raster` rows of bm down the N tiles (the last group takes the
    rows left), so the blocks that run together share A and B in L2. pair: the two
    blocks of a 2 x 1 x 1 cluster (neighbours along x, %rank = block x mod 2) take the
    tiles of one N column and two neighbouring rows (a unit is such a pair of tiles,
    and both blocks loop over the same units), so that they can share B's tile
    (multicast). pair_axis = 'n': the pair takes two neighbouring tiles of one tile row
    instead (a unit is a pair of tile columns), the same rows of A, which they share.
    The caller closes the loop."""
    per_unit = 2 if pair else 1
    by_n = pair and pair_axis == 'n'
    rows, tn = unit_grid(m, n, bm, bn, per_unit, pair_axis)
    units = rows * tn * split
    gx, gy = launch_grid(m, n, split, per_unit, persistent, bn, pair_axis=pair_axis, bm=bm)[:2]
    assert persistent or units * per_unit <= gx * gy, 'the grid must have a block per unit'
    group = max(1, min(raster, rows))
    lines += [
        f'{indent}%gx = gpu.grid_dim x',
        f'{indent}%ntiles = arith.constant {units} : index',
        f'{indent}%cgroup = arith.constant {group} : index',
        f'{indent}%cgroupt = arith.constant {group * tn} : index',
        f'{indent}%ctm = arith.constant {rows} : index',
        f'{indent}%csplit = arith.constant {split} : index',
        f'{indent}%cbm = arith.constant {bm} : index',
        f'{indent}%cbn = arith.constant {bn} : index',
        f'{indent}%lrow = arith.muli %bm, %gx : index',
        f'{indent}%lin = arith.addi %lrow, %bn : index',
    ]
    if pair:
        # A cluster is two blocks along x (gx is even): the pair's index and the rank.
        lines += [f'{indent}%worker = arith.divui %lin, %c2 : index',
                  f'{indent}%rank = arith.remui %lin, %c2 : index']
    worker = '%worker' if pair else '%lin'
    if persistent:
        # The SM count is a constant: rule P18 refuses nvvm.read.ptx.sreg.nsmid before a
        # warp-specialized loop (the producer runs that code too).
        lines += [
            f'{indent}%workers = arith.constant {min(persistent // per_unit, units)} : index',
            f'{indent}%isworker = arith.cmpi ult, {worker}, %workers : index',
            f'{indent}%first = arith.select %isworker, {worker}, %ntiles : index',
        ]
        first, step = '%first', '%workers'
    else:
        # Every launched block's unit first, then the next grid's worth (a block per unit
        # in launch_grid: one trip each).
        lines += [f'{indent}%gyd = gpu.grid_dim y',
                  f'{indent}%cgridb = arith.muli %gx, %gyd : index',
                  f'{indent}%cgrid = arith.divui %cgridb, %c{per_unit} : index']
        first, step = worker, '%cgrid'
    lines += [
        f'{indent}scf.for %tile = {first} to %ntiles step {step} {{',
        f'{indent}  %tix = arith.divui %tile, %csplit : index',
        f'{indent}  %ks = arith.remui %tile, %csplit : index',
        f'{indent}  %tgroup = arith.divui %tix, %cgroupt : index',
        f'{indent}  %twithin = arith.remui %tix, %cgroupt : index',
        f'{indent}  %tgm = arith.muli %tgroup, %cgroup : index',
        # The last group has the rows left: min(group, tm - its first row).
        f'{indent}  %tleft = arith.subi %ctm, %tgm : index',
        f'{indent}  %tgsize = arith.minui %tleft, %cgroup : index',
        f'{indent}  %twm = arith.remui %twithin, %tgsize : index',
        f'{indent}  %tmi{"p" if pair and not by_n else ""} = arith.addi %tgm, %twm : index',
        f'{indent}  %tni{"p" if by_n else ""} = arith.divui %twithin, %tgsize : index',
    ] + ([f'{indent}  %tni2 = arith.muli %tnip, %c2 : index',
          f'{indent}  %tni = arith.addi %tni2, %rank : index'] if by_n else
         [f'{indent}  %tmi2 = arith.muli %tmip, %c2 : index',
          f'{indent}  %tmi = arith.addi %tmi2, %rank : index'] if pair else []) + [
        f'{indent}  %m0 = arith.muli %tmi, %cbm : index',
        f'{indent}  %n0 = arith.muli %tni, %cbn : index',
    ]


def unit_grid(m, n, bm, bn, cluster=1, pair_axis='m'):
    """(unit rows, unit columns) of the tile loop: its tiles, or with a cluster of 2 the
    pairs of them, of tile rows (pair_axis = 'm') or of tile columns ('n'); a pair's
    second tile may lie past M or N."""
    rows, cols = -(-m // bm), -(-n // bn)
    if cluster > 1 and pair_axis == 'n':
        return rows, -(-cols // cluster)
    return -(-rows // cluster), cols


def launch_grid(m, n, split=1, cluster=1, persistent=0, bn=128, reduce='serial', pair_axis='m', bm=128):
    """The grid a launcher gives a kernel of this generator. Persistent (W > 0): its
    min(W, units) workers in x (a cluster's blocks in pairs of units when cluster = 2),
    no idle blocks to start and retire. Otherwise one block per 128 x 128 tile of out, or
    per 128 x 64 tile with bn = 64 (x along N, rounded up to whole clusters), times `split`
    along x for split-K. reduce = 'dsmem': the workers are a whole number of clusters of
    `split` blocks (each cluster one tile's K ranges). pair_axis = 'n': a persistent
    cluster's pair of units is two tile columns (tile_loop). bm = 64: tiles of 64 rows."""
    if persistent:
        rows, cols = unit_grid(m, n, bm, bn, cluster, pair_axis)
        units = rows * cols * split
        if reduce == 'dsmem':
            return (min(persistent, units) // split * split, 1, 1)
        return (min(persistent // cluster, units) * cluster, 1, 1)
    gx = -(-(-(-n // min(bn, 128))) // cluster) * cluster
    return (gx * split, -(-m // bm), 1)


def split_count(m, n, k, bn, split, sms=132, reduce='serial', bm=128):
    """The K ranges per tile of --split-k: `split` itself when it is a number, and for
    'auto' the count that fills one wave of `sms` blocks with the tiles' K steps (at least
    four 64-wide steps per range), the least count among those with the fewest steps per
    range. 1 means no split. reduce = 'dsmem': 'auto' rounds down to a cluster size, 2, 4
    or 8 (1 when it is below 2)."""
    if split != 'auto':
        return max(1, int(split))
    tiles, steps = -(-m // bm) * -(-n // bn), -(-k // 64)
    most = max(1, min(sms // tiles, steps // 4))
    count = min(range(1, most + 1), key=lambda s: (-(-steps // s), s))
    if reduce == 'dsmem':
        return max((size for size in (1, 2, 4, 8) if size <= count))
    return count


# The split-K workspace: each unit's partial tile, as each consumer thread holds it (the
# consumer threads, 256 or 128, x bn/8 vectors of 4 f32, thread-fastest, so a warp's
# stores are whole lines); and one arrival counter per tile, back at 0 when its tile is done.
SPLIT_WS, SPLIT_COUNT = '@acopy_splitk_ws', '@acopy_splitk_count'


def split_globals(units, tiles, bn, reduce='serial', split=1, threads=256):
    """The module globals of a split-K kernel (memref.global in global memory). reduce =
    'spread': the arrival counters count on across launches (i64), and each tile has a
    claim word per slice (spread_fixup)."""
    if reduce == 'spread':
        slices = spread_slices(split, bn)[0]
        return [f'  memref.global "private" {SPLIT_WS} : memref<{units * bn * threads // 2}xf32, 1> {{alignment = 16 : i64}}',
                f'  memref.global "private" {SPLIT_COUNT} : memref<{tiles}xi64, 1> = dense<0> {{alignment = 16 : i64}}',
                f'  memref.global "private" {SPLIT_CLAIM} : memref<{tiles * slices}xi64, 1> = dense<0> '
                '{alignment = 16 : i64}']
    return [f'  memref.global "private" {SPLIT_WS} : memref<{units * bn * threads // 2}xf32, 1> {{alignment = 16 : i64}}',
            f'  memref.global "private" {SPLIT_COUNT} : memref<{tiles}xi32, 1> = dense<0> {{alignment = 16 : i64}}']


def partial_store(acc_type, ws, nvec, unit, threads=256, release=False):
    """Every consumer thread stores its accumulators to unit `unit`'s partial tile in the
    workspace (%ws, %cunit and %uoff are bound here), then releases them at GPU scope and
    meets the other consumers: after these lines one thread may count the arrival.
    threads: the consumer threads (a vector index spans 4 threads f32 of the workspace).
    release: no fence per thread (the caller's leader fences once after the barrier)."""
    lines = [f'%ws = memref.get_global {SPLIT_WS} : {ws}',
             f'%cunit = arith.constant {nvec * 4 * threads} : index',
             '%t4 = arith.muli %t, %c4 : index',
             f'%ubase = arith.muli {unit}, %cunit : index',
             '%uoff = arith.addi %ubase, %t4 : index']
    for j in range(nvec):
        lines += [f'%pv{j}_{q} = llvm.extractvalue %acc[{4 * j + q}] : {acc_type}' for q in range(4)]
        lines += [f'%pvec{j} = vector.from_elements ' + ', '.join(f'%pv{j}_{q}' for q in range(4)) + ' : vector<4xf32>',
                  f'%pj{j} = arith.constant {j * 4 * threads} : index',
                  f'%po{j} = arith.addi %uoff, %pj{j} : index',
                  f'vector.store %pvec{j}, %ws[%po{j}] {{alignment = 16}} : {ws}, vector<4xf32>']
    if release:
        return lines + ['gpu.barrier']
    return lines + [
        # Release: this thread's stores are visible at GPU scope before the count moves.
        'nvvm.memory.barrier #nvvm.mem_scope<gpu>',
        'gpu.barrier',
    ]


def own_unit(pair):
    """(lines, tile, unit): the SSA names of the block's own tile and unit for the split-K
    workspace and counters. A pair's unit is two tiles (tile_loop): the block's own tile is
    the pair's tile 2 %tix + %rank, its unit that tile's range %ks."""
    if not pair:
        return [], '%tix', '%tile'
    return (['%ptix = arith.muli %tix, %c2 : index', '%otix = arith.addi %ptix, %rank : index',
             '%osplit = arith.muli %otix, %csplit : index', '%ounit = arith.addi %osplit, %ks : index'],
            '%otix', '%ounit')


def split_fixup(acc_type, units, tiles, split, bn, pair=False, threads=256):
    """After the K loop of a split-K unit: every unit stores its partial tile to the
    workspace, then one thread counts the tile's arrivals; the unit that arrives last
    (no unit waits for another, so any launch order is safe) sums the tile's `split`
    partials in K order, so the result does not depend on which unit came last, and
    resets the counter for the next launch. Returns the lines up to and including
    `scf.if %last {` (inside it %facc is the summed accumulator); the caller writes the
    epilogue from %facc and closes the scf.if. pair: the block's own tile and unit are
    own_unit's."""
    nvec = bn // 8
    ws, cnt = f'memref<{units * nvec * 4 * threads}xf32, 1>', f'memref<{tiles}xi32, 1>'
    own, otix, ounit = own_unit(pair)
    lines = own + partial_store(acc_type, ws, nvec, ounit, threads) + [
        f'%cnt = memref.get_global {SPLIT_COUNT} : {cnt}',
        '%one32 = arith.constant 1 : i32',
        f'%lastcount = arith.constant {split - 1} : i32',
        '%leader = arith.cmpi eq, %t, %c0 : index',
        'scf.if %leader {',
        f'  %arrived = memref.atomic_rmw addi %one32, %cnt[{otix}] : (i32, {cnt}) -> i32',
        '  memref.store %arrived, %flag[%c0] : memref<1xi32, 3>',
        '}',
        'gpu.barrier',
        '%seen = memref.load %flag[%c0] : memref<1xi32, 3>',
        '%last = arith.cmpi eq, %seen, %lastcount : i32',
        'scf.if %last {',
        # Acquire: the other units' partials, made visible before their arrivals.
        '  nvvm.memory.barrier #nvvm.mem_scope<gpu>',
        f'  %tbase = arith.muli {otix}, %csplit : index',
        '  %tubase = arith.muli %tbase, %cunit : index',
        '  %tuoff = arith.addi %tubase, %t4 : index',
    ]
    # Unrolled, so that each vector's loads from all ranges are in flight together.
    for j in range(nvec):
        for r in range(split):
            lines += [f'  %so{j}_{r} = arith.constant {(r * nvec + j) * 4 * threads} : index',
                      f'  %sa{j}_{r} = arith.addi %tuoff, %so{j}_{r} : index',
                      f'  %sp{j}_{r} = vector.load %ws[%sa{j}_{r}] {{alignment = 16}} : {ws}, vector<4xf32>']
            if r:
                prev = f'%sp{j}_0' if r == 1 else f'%sn{j}_{r - 1}'
                lines.append(f'  %sn{j}_{r} = arith.addf {prev}, %sp{j}_{r} : vector<4xf32>')
    lines.append('  %facc0 = llvm.mlir.undef : ' + acc_type)
    for j in range(nvec):
        for q in range(4):
            i = 4 * j + q
            into = '%facc' if i == 4 * nvec - 1 else f'%facc{i + 1}'
            lines += [f'  %fe{i} = vector.extract %sn{j}_{split - 1}[{q}] : f32 from vector<4xf32>',
                      f'  {into} = llvm.insertvalue %fe{i}, %facc{i}[{i}] : {acc_type}']
    lines += ['  scf.if %leader {',
              '    %zero32 = arith.constant 0 : i32',
              f'    memref.store %zero32, %cnt[{otix}] : {cnt}',
              '  }']
    return lines


# --split-reduce=spread: a unit that is not its tile's last arrival polls the arrival
# count this many times (an atomic read each, about a microsecond) before it leaves its
# slice to the last one: bounded, so a tile whose units are not all resident at once (a
# grid larger than the SMs free for it) is slower, never hung.
SPREAD_POLLS = 4096
SPLIT_CLAIM = '@acopy_splitk_claim'
# --split-sync=release (spread_fixup): one GPU-scope acq_rel fence by the leader after the
# consumers' barrier, where the default makes every thread fence its own partial stores
# (membar.gl); PTX fences are cumulative over what the barrier ordered (CUTLASS's split-K
# semaphore: a barrier, then one releasing thread).
FENCE_ACQ_REL = 'llvm.inline_asm has_side_effects "fence.acq_rel.gpu;", "" : () -> ()'


def spread_slices(split, bn):
    """(slices, vectors per slice) of --split-reduce=spread: a thread's bn / 8 partial
    vectors (8 columns of the tile each) cut into at most `split` column bands."""
    nvec = bn // 8
    per = -(-nvec // min(split, nvec))
    return -(-nvec // per), per


def spread_sum(tag, slice_, split, bn, ws, out, out_dtype, ragged, vstore, threads=256):
    """The lines that sum slice `slice_` (an index SSA value) of the tile's `split`
    partials in K order and store it to out: each consumer thread its own fragment's
    vectors of that band (fragment_rows' rows, 8 columns a vector)."""
    nvec = bn // 8
    per = spread_slices(split, bn)[1]
    # The last slice is short when the slices do not divide the vectors.
    guard = nvec % per != 0
    lines = [f'%{tag}jlo = arith.muli {slice_}, %cper : index']
    for jj in range(per):
        j = f'%{tag}j{jj}'
        lines += [f'{j} = arith.addi %{tag}jlo, %c{jj}i : index']
        inner = [f'%{tag}jo{jj} = arith.muli {j}, %c{4 * threads} : index',
                  f'%{tag}jb{jj} = arith.addi %sbase, %{tag}jo{jj} : index']
        for r in range(split):
            inner += [f'%{tag}o{jj}_{r} = arith.addi %{tag}jb{jj}, %sr{r} : index',
                      f'%{tag}p{jj}_{r} = vector.load %ws[%{tag}o{jj}_{r}] {{alignment = 16}} : {ws}, vector<4xf32>']
            if r:
                prev = f'%{tag}p{jj}_0' if r == 1 else f'%{tag}s{jj}_{r - 1}'
                inner.append(f'%{tag}s{jj}_{r} = arith.addf {prev}, %{tag}p{jj}_{r} : vector<4xf32>')
        total = f'%{tag}s{jj}_{split - 1}' if split > 1 else f'%{tag}p{jj}_0'
        # Vector j holds columns 8 j + c2l + {0, 1} of rows prow0 (elements 0, 1) and
        # prow8 (2, 3): fragment_rows.
        inner += [f'%{tag}c8_{jj} = arith.muli {j}, %c8 : index',
                  f'%{tag}col{jj} = arith.addi %colbase, %{tag}c8_{jj} : index',
                  f'%{tag}col{jj}b = arith.addi %{tag}col{jj}, %c1 : index']
        for half, row in ((0, '%row0'), (1, '%row8')):
            values = [f'%{tag}x{jj}_{half}{q}' for q in range(2)]
            inner += [f'{values[q]} = vector.extract {total}[{2 * half + q}] : f32 from vector<4xf32>' for q in range(2)]
            if vstore and not ragged:
                inner += store_pair(f'{tag}{jj}_{half}', *values, row, f'%{tag}col{jj}', out, out_dtype)
                continue
            for q, col in enumerate((f'%{tag}col{jj}', f'%{tag}col{jj}b')):
                inrow = ('%in8' if half else '%in0') if ragged else None
                inner += store_value(f'{tag}{jj}_{half}{q}', values[q], row, col, out, out_dtype, inrow)
        if guard:
            lines += [f'%{tag}in{jj} = arith.cmpi ult, {j}, %cnvec : index', f'scf.if %{tag}in{jj} {{'] + \
                ['  ' + line for line in inner] + ['}']
        else:
            lines += inner
    return lines


def spread_fixup(acc_type, units, tiles, split, bn, out, out_dtype, ragged, vstore, threads=256, release=False,
                 pair=False):
    """After the K loop of a split-K unit (--split-reduce=spread): every unit stores its
    partial tile (partial_store) and counts its arrival; the tile's `split` units then sum
    it a column band (slice) each, every element in K order as split_fixup does. The
    arrival count runs on across launches, so launch e's arrivals are e split .. (e + 1)
    split - 1: a unit learns its launch and its place. The last arrival sums the last
    slice at once; an earlier arrival with a slice of its own polls until the count shows
    every arrival, at most SPREAD_POLLS times, and then claims its slice with an atomic
    max of e + 1 on the slice's claim word (claimed when the word was below it: once per
    launch, with no reset). The last arrival then claims every other slice at once, one
    thread each, and sums those it won: the slices of units that gave up or are late. A
    unit waits for one that has not arrived only that bounded time, and the last arrival
    waits for none, so any launch order and any grid (even one larger than the SMs free
    for it) is correct, if slower; the tile's reads are spread over its units instead of one unit
    reading every partial (serial: split x 64 KiB for a 128 x 128 tile). pair: the block's
    own tile and unit are own_unit's."""
    nvec = bn // 8
    slices, per = spread_slices(split, bn)
    ws = f'memref<{units * nvec * 4 * threads}xf32, 1>'
    cnt, claim = f'memref<{tiles}xi64, 1>', f'memref<{tiles * slices}xi64, 1>'
    flag = f'memref<{slices}xi32, 3>'
    own, otix, ounit = own_unit(pair)
    lines = own + partial_store(acc_type, ws, nvec, ounit, threads, release) + fragment_place(ragged) + [
        f'%cnt = memref.get_global {SPLIT_COUNT} : {cnt}',
        f'%claim = memref.get_global {SPLIT_CLAIM} : {claim}',
        f'%cper = arith.constant {per} : index',
        f'%cnvec = arith.constant {nvec} : index',
        f'%c{4 * threads} = arith.constant {4 * threads} : index',
    ] + [f'%c{jj}i = arith.constant {jj} : index' for jj in range(per)] + [
        # The tile's partials: unit r of the tile at %sbase + r %cunit (this thread's vectors).
        f'%stile = arith.muli {otix}, %csplit : index',
        '%sunit = arith.muli %stile, %cunit : index',
        '%sbase = arith.addi %sunit, %t4 : index',
    ] + [f'%sr{r} = arith.constant {r * nvec * 4 * threads} : index' for r in range(split)] + [
        f'%cslices = arith.constant {slices} : index',
        f'%cslice0 = arith.muli {otix}, %cslices : index',
        '%one64 = arith.constant 1 : i64',
        '%zero64 = arith.constant 0 : i64',
        f'%csplit64 = arith.constant {split} : i64',
        f'%clast64 = arith.constant {split - 1} : i64',
        f'%cmine64 = arith.constant {slices - 1} : i64',
        '%one32 = arith.constant 1 : i32',
        '%zero32 = arith.constant 0 : i32',
        f'%polls = arith.constant {SPREAD_POLLS} : i32',
        '%nothing = arith.constant -1 : i32',
        f'%lastslice = arith.constant {slices - 1} : i32',
        '%leader = arith.cmpi eq, %t, %c0 : index',
        'scf.if %leader {',
    ] + (['  ' + FENCE_ACQ_REL] if release else []) + [
        f'  %old = memref.atomic_rmw addi %one64, %cnt[{otix}] : (i64, {cnt}) -> i64',
        '  %place = arith.remui %old, %csplit64 : i64',
        '  %launch = arith.divui %old, %csplit64 : i64',
        '  %mark = arith.addi %launch, %one64 : i64',
        '  memref.store %mark, %epoch[%c0] : memref<1xi64, 3>',
        '  %all = arith.muli %mark, %csplit64 : i64',
        '  %islast = arith.cmpi eq, %place, %clast64 : i64',
        # Slices 0 .. slices - 2 belong to the first arrivals; the last slice to the last.
        '  %hasone = arith.cmpi ult, %place, %cmine64 : i64',
        # %role: the slice this unit sums first, or -1.
        '  %role = scf.if %islast -> (i32) {',
        '    scf.yield %lastslice : i32',
        '  } else {',
        '    %mine = scf.if %hasone -> (i32) {',
        '      %seen:2 = scf.while (%now = %old, %polled = %zero32) : (i64, i32) -> (i64, i32) {',
        '        %short = arith.cmpi ult, %now, %all : i64',
        '        %left = arith.cmpi ult, %polled, %polls : i32',
        '        %again = arith.andi %short, %left : i1',
        '        scf.condition(%again) %now, %polled : i64, i32',
        '      } do {',
        '      ^bb0(%was: i64, %times: i32):',
        f'        %read = memref.atomic_rmw addi %zero64, %cnt[{otix}] : (i64, {cnt}) -> i64',
        '        %times1 = arith.addi %times, %one32 : i32',
        '        scf.yield %read, %times1 : i64, i32',
        '      }',
        '      %ready = arith.cmpi uge, %seen#0, %all : i64',
        '      %got = scf.if %ready -> (i32) {',
        '        %placei = arith.index_cast %place : i64 to index',
        '        %slot = arith.addi %cslice0, %placei : index',
        f'        %before = memref.atomic_rmw maxs %mark, %claim[%slot] : (i64, {claim}) -> i64',
        '        %won = arith.cmpi slt, %before, %mark : i64',
        '        %place32 = arith.trunci %place : i64 to i32',
        '        %pick = arith.select %won, %place32, %nothing : i32',
        '        scf.yield %pick : i32',
        '      } else {',
        '        scf.yield %nothing : i32',
        '      }',
        '      scf.yield %got : i32',
        '    } else {',
        '      scf.yield %nothing : i32',
        '    }',
        '    scf.yield %mine : i32',
        '  }',
    ] + (
        # Acquire: what the leader's atomics read (every arrival) orders the partials
        # before the barrier below, for every thread.
        ['  ' + FENCE_ACQ_REL] if release else []) + [
        f'  memref.store %role, %flag[%c0] : {flag}',
        '}',
        'gpu.barrier',
        f'%role = memref.load %flag[%c0] : {flag}',
        '%sumone = arith.cmpi sge, %role, %zero32 : i32',
        '%sumlast = arith.cmpi eq, %role, %lastslice : i32',
        'scf.if %sumone {',
    ] + ([] if release else [
        # Acquire: the partials, made visible before their arrivals.
        '  nvvm.memory.barrier #nvvm.mem_scope<gpu>',
    ]) + [
        '  %sone = arith.index_cast %role : i32 to index',
    ] + ['  ' + line for line in spread_sum('a', '%sone', split, bn, ws, out, out_dtype, ragged, vstore, threads)] + [
        '}',
        'scf.if %sumlast {',
        # The last arrival's other slices, claimed at once (thread s claims slice s) after
        # its own slice is summed, so the units polling have that long to claim theirs;
        # summed where won.
        '  %markl = memref.load %epoch[%c0] : memref<1xi64, 3>',
        f'  %cothers = arith.constant {slices - 1} : index',
        '  %claimer = arith.cmpi ult, %t, %cothers : index',
        '  scf.if %claimer {',
        '    %cslot = arith.addi %cslice0, %t : index',
        f'    %cbefore = memref.atomic_rmw maxs %markl, %claim[%cslot] : (i64, {claim}) -> i64',
        '    %cwon = arith.cmpi slt, %cbefore, %markl : i64',
        '    %cwon32 = arith.extui %cwon : i1 to i32',
        '    %cat = arith.addi %t, %c1 : index',
        f'    memref.store %cwon32, %flag[%cat] : {flag}',
        '  }',
        '  gpu.barrier',
        '  scf.for %sother = %c0 to %cothers step %c1 {',
        '    %sat = arith.addi %sother, %c1 : index',
        f'    %swon = memref.load %flag[%sat] : {flag}',
        '    %sdo = arith.cmpi ne, %swon, %zero32 : i32',
        '    scf.if %sdo {',
    ] + ['      ' + line for line in spread_sum('c', '%sother', split, bn, ws, out, out_dtype, ragged, vstore, threads)] + [
        '    }',
        '  }',
        '}',
    ]
    return lines


def fragment_rows():
    """The lines that name this thread's place in the block tile (a thread's accumulators,
    wgmma's fragment): %prow0 and %prow8, its two rows, and %c2l, its first column."""
    return [
        # Lane l of warp v of warpgroup w holds, for accumulator i, row 64w + 16v + l/4
        # + 8 ((i/2) mod 2) and column 2 (l mod 4) + (i mod 2) + 8 (i/4) of the tile.
        '%local = arith.remui %t, %c128 : index',
        '%warp = arith.divui %local, %c32 : index',
        '%lane = arith.remui %local, %c32 : index',
        '%wgrow = arith.muli %wg, %c64 : index',
        '%w16 = arith.muli %warp, %c16 : index',
        '%l4 = arith.divui %lane, %c4 : index',
        '%r_a = arith.addi %wgrow, %w16 : index',
        '%prow0 = arith.addi %r_a, %l4 : index',
        '%prow8 = arith.addi %prow0, %c8 : index',
        '%lm = arith.remui %lane, %c4 : index',
        '%c2l = arith.muli %lm, %c2 : index',
    ]



def fragment_place(ragged):
    """fragment_rows moved to the block tile's (%m0, %n0): %row0, %row8 and %colbase of
    out, and on ragged shapes %in0 and %in8 (whether each row lies below M)."""
    lines = fragment_rows() + [
        '%row0 = arith.addi %m0, %prow0 : index',
        '%row8 = arith.addi %row0, %c8 : index',
        '%colbase = arith.addi %n0, %c2l : index',
    ]
    if ragged:
        lines += ['%in0 = arith.cmpi ult, %row0, %rows : index',
                  '%in8 = arith.cmpi ult, %row8, %rows : index']
    return lines


def store_pair(name, lo, hi, row, col, out, out_dtype):
    """The direct epilogue's vector store: f32 `lo` and `hi` to columns `col` and `col` + 1
    of `row` (8-byte aligned: an even column of an even N), rounded to bf16 for a bf16 out.
    `name` suffixes the SSA names."""
    lines = [f'%pair{name} = vector.from_elements {lo}, {hi} : vector<2xf32>']
    stored, width = f'%pair{name}', 8
    if out_dtype == 'bf16':
        lines.append(f'%hpair{name} = arith.truncf %pair{name} : vector<2xf32> to vector<2xbf16>')
        stored, width = f'%hpair{name}', 4
    return lines + [f'vector.store {stored}, %out[{row}, {col}] {{alignment = {width}}} : {out}, vector<2x{out_dtype}>']


def store_value(name, value, row, col, out, out_dtype, inrow=None):
    """The direct epilogue's scalar store: f32 `value` to out[row, col], rounded to bf16 for
    a bf16 out; `inrow` (ragged shapes: %in0 or %in8) guards it to rows below M and columns
    below N."""
    lines = []
    if out_dtype == 'bf16':
        lines.append(f'%h{name} = arith.truncf {value} : f32 to bf16')
        value = f'%h{name}'
    store = f'memref.store {value}, %out[{row}, {col}] : {out}'
    if inrow is None:
        return lines + [store]
    return lines + [f'%inc{name} = arith.cmpi ult, {col}, %cols : index',
                    f'%ok{name} = arith.andi {inrow}, %inc{name} : i1',
                    f'scf.if %ok{name} {{', f'  {store}', '}']

# The half tile of --split-reduce=dsmem: 128 rows x 64 f32 columns, 32 KiB of static shared
# memory (a whole 128 x 128 f32 tile would pass the 48 KiB that static shared memory has).
PART = 'memref<128x64xf32, 3>'


def dsmem_fixup(acc_type, split, n, out, out_dtype, ragged, signals=False, bn=128):
    """After the K loop of a unit of --split-reduce=dsmem: the `split` blocks of a cluster
    (split x 1 x 1, block rank r = K range r of the same 128 x bn tile) sum their partial
    tiles through distributed shared memory instead of a workspace in global memory, in
    bn / 64 rounds of 64 columns: every block writes its accumulators of the round's
    columns to its %part (8-column chunks swizzled by row); a cluster barrier (release,
    acquire); block r reads rows r 128/split .. (r + 1)
    128/split of every block's %part (mapa, ld.shared::cluster), adds them in rank order
    (the result does not depend on timing), and stores them to out; a second barrier keeps
    each %part until every peer has read it. A cluster's blocks run together, so no block
    waits for one that is not running; none reads global memory another wrote.
    signals: the consumers run this alone (a producer warp's loop goes on beside it, and a
    cluster barrier would wait for it), so the two barriers are mbarriers of the consumers
    (dsmem_signal, dsmem_await): %rdy, whose phase completes when every block's %part of
    the round is written, and %dne, when every block has read this block's %part."""
    rows = 128 // split
    vectors = rows * 64 // 4 // 256       # vector<4xf32> per thread per round
    lines = fragment_rows() + [
        '%dt4 = arith.muli %t, %c4 : index',
        '%crank = nvvm.read.ptx.sreg.cluster.ctarank : i32',
        '%rank_i = arith.index_cast %crank : i32 to index',
        f'%slice = arith.muli %rank_i, %c{rows} : index',
    ] + shared_pointer('%part', PART, '%pptr')
    if signals:
        # The barriers' addresses, per tile: rule P18 lets only value computations and shared
        # loads stand before the tile loop, which memref.extract_aligned_pointer_as_index is not.
        lines += shared_pointer('%rdy', e.BARRIER, '%rdyp') + shared_pointer('%dne', e.BARRIER, '%dnep')
    for half in range(bn // 64):
        # Round `half` of a tile is round (bn / 64) i + half of the block (an even count
        # of rounds a tile), whose parity is half's: before writing %part, the last
        # round's readers are done with it (parity 1 at the block's first round passes at
        # once, as the phase before the first has).
        lines += dsmem_await('%dnep', 1 - half % 2, f'dw{half}') if signals else []
        for i in range(32 * half, 32 * half + 32, 2):
            row = '%prow8' if (i // 2) % 2 else '%prow0'
            # %part's 8-column chunks are swizzled by row (chunk ^ row mod 8): a warp's
            # 8-byte stores cover rows l/4 = 0..7 of one chunk, which unswizzled share
            # banks (rows 256 bytes apart): 8-way conflicts on every store.
            lines += [f'%dc{i} = arith.constant {i // 4 - 8 * half} : index',
                      f'%dk{i} = arith.xori %dc{i}, %l4 : index',
                      f'%dk8_{i} = arith.muli %dk{i}, %c8 : index',
                      f'%dcol{i} = arith.addi %c2l, %dk8_{i} : index',
                      f'%dv{i} = llvm.extractvalue %acc[{i}] : {acc_type}',
                      f'%dw{i} = llvm.extractvalue %acc[{i + 1}] : {acc_type}',
                      f'%dp{i} = vector.from_elements %dv{i}, %dw{i} : vector<2xf32>',
                      f'vector.store %dp{i}, %part[{row}, %dcol{i}] {{alignment = 8}} : {PART}, vector<2xf32>']
        if signals:
            lines += dsmem_signal('%rdyp', split, f'rs{half}') + dsmem_await('%rdyp', half % 2, f'rw{half}')
        else:
            lines += ['nvvm.cluster.arrive {aligned}', 'nvvm.cluster.wait {aligned}']
        for v in range(vectors):
            q = f'{half}_{v}'
            lines += [f'%de{q} = arith.constant {v * 1024} : index',
                      f'%dflat{q} = arith.addi %dt4, %de{q} : index',
                      f'%drow{q} = arith.divui %dflat{q}, %c64 : index',
                      f'%dcl{q} = arith.remui %dflat{q}, %c64 : index',
                      f'%dr{q} = arith.addi %slice, %drow{q} : index',
                      f'%dr64{q} = arith.muli %dr{q}, %c64 : index',
                      # The element's place in the swizzled %part (the stores' chunk ^ row mod 8).
                      f'%dch{q} = arith.divui %dcl{q}, %c8 : index',
                      f'%drm{q} = arith.remui %dr{q}, %c8 : index',
                      f'%dsw{q} = arith.xori %dch{q}, %drm{q} : index',
                      f'%dsw8{q} = arith.muli %dsw{q}, %c8 : index',
                      f'%dlo{q} = arith.remui %dcl{q}, %c8 : index',
                      f'%dpc{q} = arith.addi %dsw8{q}, %dlo{q} : index',
                      f'%del{q} = arith.addi %dr64{q}, %dpc{q} : index',
                      f'%dei{q} = arith.index_cast %del{q} : index to i64',
                      f'%dptr{q} = llvm.getelementptr %pptr[%dei{q}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32']
            total = None
            for peer in range(split):
                lines += [f'%dpr{q}_{peer} = arith.constant {peer} : i32',
                          f'%dpp{q}_{peer} = nvvm.mapa %dptr{q}, %dpr{q}_{peer} : !llvm.ptr<3> -> !llvm.ptr<7>',
                          f'%dld{q}_{peer} = llvm.load %dpp{q}_{peer} {{alignment = 16 : i64}} : !llvm.ptr<7> -> vector<4xf32>']
                if total is None:
                    total = f'%dld{q}_{peer}'
                else:
                    lines.append(f'%dsum{q}_{peer} = arith.addf {total}, %dld{q}_{peer} : vector<4xf32>')
                    total = f'%dsum{q}_{peer}'
            lines += [f'%dgr{q} = arith.addi %m0, %dr{q} : index',
                      f'%dh{q} = arith.constant {64 * half} : index',
                      f'%dgc0{q} = arith.addi %n0, %dh{q} : index',
                      f'%dgc{q} = arith.addi %dgc0{q}, %dcl{q} : index']
            value, vtype = total, 'vector<4xf32>'
            if out_dtype == 'bf16':
                lines.append(f'%dbf{q} = arith.truncf {total} : vector<4xf32> to vector<4xbf16>')
                value, vtype = f'%dbf{q}', 'vector<4xbf16>'
            if not ragged and n % 4 == 0:
                width = 8 if out_dtype == 'bf16' else 16
                lines.append(f'vector.store {value}, %out[%dgr{q}, %dgc{q}] {{alignment = {width}}} : {out}, {vtype}')
                continue
            lines.append(f'%din{q} = arith.cmpi ult, %dgr{q}, %rows : index')
            for el in range(4):
                lines += [f'%dce{q}_{el} = arith.constant {el} : index',
                          f'%dco{q}_{el} = arith.addi %dgc{q}, %dce{q}_{el} : index',
                          f'%dcin{q}_{el} = arith.cmpi ult, %dco{q}_{el}, %cols : index',
                          f'%dok{q}_{el} = arith.andi %din{q}, %dcin{q}_{el} : i1',
                          f'scf.if %dok{q}_{el} {{',
                          f'  %dx{q}_{el} = vector.extract {value}[{el}] : {out_dtype} from {vtype}',
                          f'  memref.store %dx{q}_{el}, %out[%dgr{q}, %dco{q}_{el}] : {out}',
                          '}']
        lines += dsmem_signal('%dnep', split, f'ds{half}') if signals else \
            ['nvvm.cluster.arrive {aligned}', 'nvvm.cluster.wait {aligned}']
    return lines


def shared_pointer(memref, memref_type, pointer):
    """`pointer`: the address of the shared-memory `memref` as !llvm.ptr<3> (what mapa and
    the nvvm mbarrier ops take)."""
    name = pointer[1:]
    return [f'%{name}i = memref.extract_aligned_pointer_as_index {memref} : {memref_type} -> index',
            f'%{name}64 = arith.index_cast %{name}i : index to i64',
            f'{pointer} = llvm.inttoptr %{name}64 : i64 to !llvm.ptr<3>']


def dsmem_signal(pointer, split, tag):
    """Every consumer's work so far is done (their barrier), then thread 0 arrives on the
    mbarrier at `pointer` in each of the cluster's `split` blocks (mapa), releasing at
    cluster scope what the consumers wrote or read before: one arrival per block."""
    lines = ['gpu.barrier', f'%{tag}t0 = arith.cmpi eq, %t, %c0 : index', f'scf.if %{tag}t0 {{']
    for peer in range(split):
        lines += [f'  %{tag}r{peer} = arith.constant {peer} : i32',
                  f'  %{tag}p{peer} = nvvm.mapa {pointer}, %{tag}r{peer} : !llvm.ptr<3> -> !llvm.ptr<7>',
                  f'  nvvm.mbarrier.arrive %{tag}p{peer} {{scope = #nvvm.mem_scope<cluster>}} : !llvm.ptr<7>']
    return lines + ['}']


def dsmem_await(pointer, parity, tag):
    """Every consumer waits (acquiring at cluster scope) until the phase of parity `parity`
    of the mbarrier at `pointer` completes."""
    return [f'%{tag}par = arith.constant {parity} : i32',
            'scf.while : () -> () {',
            f'  %{tag}ok = nvvm.mbarrier.try_wait {pointer}, %{tag}par {{scope = #nvvm.mem_scope<cluster>}}'
            ' : !llvm.ptr<3>, i32 -> i1',
            f'  %{tag}no = arith.xori %{tag}ok, %true : i1',
            f'  scf.condition(%{tag}no)',
            '} do {',
            '  scf.yield',
            '}']


# The epilogue tiles of --epilogue=tma: two 128 x 64 bf16 column panels (rows of 128 bytes,
# TMA's 128-byte swizzle), 32 KiB of static shared memory beside the rings.
TE = 'memref<128x64xbf16, 3>'


def epilogue_tma(bn, acc_type, out, ring=False, te=None):
    """The consumers' epilogue through shared memory (--epilogue=tma): the block tile's
    128 x bn accumulators, rounded to bf16, go to the two 128 x 64 panels %te0 and %te1
    in rounds of 128 columns (bn = 256: two rounds; bn = 192: a round of two panels and
    one of one), each round TMA-stored
    (acopy.copy_smem_to_gmem, swizzle = 128) at out[m0, n0 + 128 r + 64 p]. TMA clips
    what lies past M or N, so ragged tiles need no guard. Before a round overwrites the
    panels, `wait_smem_to_gmem {read_only}` waits until the previous round's stores (the
    previous tile's, in a persistent loop) have read them; nothing waits for the data to
    reach memory, so the store runs under the next tile's K loop (the producer warp has
    started its loads). Each thread writes its column pairs as one 4-byte vector.store
    at the swizzled position: 128-byte swizzle puts logical (r, c) at (r, c xor 8 (r mod
    8)) of a 64-column bf16 panel (docs/dialect.md, "acopy.swizzled_index"; that op reads
    only tiles copies write, so the pattern is written out here, as
    tests/gpu/kernels/tma_store_swz128_f16_threads.mlir does). A warp's eight rows l/4
    then fall in eight different 16-byte units: no bank conflict. The starts are
    multiples of 64 columns and never negative (assume_aligned_start).
    ring (--ring=1): the two panels are a ring instead: each 64-column panel is stored
    as soon as it is written, and before a panel is written only the store that last
    read it is waited for (pending = 1), so one panel's store runs while the next is
    written. (A third panel would not fit: static shared memory stops at 48 KiB.)
    bn = 64: one round of one panel, %te0 (the only one declared). te: the panels' type (a
    64-row tile's are 64 x 64)."""
    te = te or TE
    lines = fragment_rows() + [
        # Both rows are l/4 mod 8: their 16-byte units move by l/4.
        '%swz = arith.muli %l4, %c8 : index',
    ]
    for j in range(8):
        lines += [f'%u{j} = arith.constant {8 * j} : index',
                  f'%su{j} = arith.xori %u{j}, %swz : index',
                  f'%pc{j} = arith.addi %su{j}, %c2l : index']
    # A group: the panels written before their stores go out (a round of two, or one; a
    # 128 x 64 tile is one panel, %te0, whose previous store is waited for in full).
    per_group = 1 if ring or bn == 64 else 2
    count = bn // 64
    for group in range(-(-count // per_group)):
        lines.append(f'acopy.wait_smem_to_gmem {{pending = {1 if ring else 0} : i64, read_only = true}}')
        panels = range(group * per_group, min((group + 1) * per_group, count))
        for i in range(32 * panels[0], 32 * (panels[-1] + 1), 2):
            j = i // 4                      # the 8-column unit of the block tile
            panel, unit = f'%te{(j // 8) % 2}', j % 8
            row = '%prow8' if (i // 2) % 2 else '%prow0'
            lines += [
                f'%v{i} = llvm.extractvalue %acc[{i}] : {acc_type}',
                f'%v{i + 1} = llvm.extractvalue %acc[{i + 1}] : {acc_type}',
                f'%pair{i} = vector.from_elements %v{i}, %v{i + 1} : vector<2xf32>',
                f'%hpair{i} = arith.truncf %pair{i} : vector<2xf32> to vector<2xbf16>',
                f'vector.store %hpair{i}, {panel}[{row}, %pc{unit}] : {te}, vector<2xbf16>',
            ]
        for q in panels:
            lines += [f'%sc{q} = arith.constant {64 * q} : index',
                      f'%scol{q} = arith.addi %n0, %sc{q} : index',
                      f'acopy.copy_smem_to_gmem %te{q % 2} -> %out[%m0, %scol{q}] '
                      f'{{assume_aligned_start, swizzle = 128 : i64}} : {te} -> {out}']
    return lines


def refuse(m, n, k, epilogue='direct'):
    """Raises ValueError naming the limit when the sm_90a kernel cannot take the shape: TMA
    describes each global operand with 16-byte row strides (cuTensorMapEncodeTiled), so K
    (src's rows) must be a multiple of 8 bf16/f16 elements; and every dimension is at most
    2^32 (a tensor map's global dims). With epilogue = 'tma' out is stored through a tensor
    map too, so N must be a multiple of 8. (With --b-major=n, N must be a multiple of 8 too:
    acopy-opt refuses that one, and build.sh lists it in refused.log.)"""
    if min(m, n, k) < 1:
        raise ValueError(f'M, N, K = {m}, {n}, {k}: every dimension must be at least 1')
    if k % 8:
        raise ValueError(f'K = {k}: TMA needs 16-byte row strides, so K must be a multiple of 8 (16-bit elements)')
    if max(m + n, k) > 1 << 32:
        raise ValueError(f'M + N = {m + n}, K = {k}: a tensor map\'s dimensions are at most 2^32')
    if epilogue == 'tma' and n % 8:
        raise ValueError(f'N = {n}: the TMA store of out (--epilogue=tma) needs 16-byte row strides, so N must be '
                         'a multiple of 8 (bf16)')


def gemm(m, n, k, stages='4', producer='block', dtype='bf16', bn=128, raster=0, persistent=0, vstore=False,
         b_major='k', cluster=1, out_dtype='f32', epilogue='direct', split='1', ring=False, multicast=True,
         reduce='serial', pair_axis='m', bm=128, sync='fence', release='thread', pdl=False):
    """pdl (--pdl=1): programmatic dependent launch. The kernel signals at its start that the
    next kernel of the stream may be scheduled (`nvvm.griddepcontrol launch_dependents`) and
    waits for the kernel before it to complete and flush its memory (`... wait`) after its
    prologue (shared memory, barriers, index computations) and before its first access to
    global memory: what overlaps is a launch's start with the previous kernel's tail, and
    nothing changes what any kernel computes. acopy-opt records the wait in the manifest
    (`programmatic_launch`), and a launcher that reads it launches the kernel with
    programmatic stream serialization; launched without it, the wait returns at once.
    epilogue = 'tma' (out_dtype bf16; a cluster only with a tile loop): the consumers round the tile to bf16 into
    shared memory and TMA-store it (epilogue_tma), so the store runs while the next tile's
    K loop does; 'direct' (the default) stores each value from registers.
    out_dtype = 'bf16': the epilogue rounds the f32 accumulators to bf16
    (arith.truncf, round to nearest even) and stores half the bytes, as cuBLAS's bf16
    matmul does; the kernel is named gemm_<dtype>_MxNxK[_bn]_ob16.
    cluster = 2: the two blocks of a 2 x 1 x 1 cluster (neighbours along N, the same
    rows of A) share A: each K step's two A halves are multicast copies
    (collective_axes = ["x"]: each block issues half of each and both receive all of it),
    so A crosses L2 once per pair (docs/pipelining.md, "Multicast slots"). The launcher
    rounds the grid's x up to a whole cluster; a block past N computes nothing it
    stores. Block schedule, 128 x 128 tiles. With a tile loop (--tile=128x256,
    --raster, --persistent) the pair takes two neighbouring tile rows of one N column
    instead (tile_loop's pair) and shares B's tile: B's copy multicasts, each block
    issuing half of it; with PRODUCER = warp the slots are released to both blocks
    (docs/pipelining.md, "Multicast slots with a producer warp"). multicast = False
    (--multicast=0): the same pairs and cluster, each block loading all of B's tile: the
    build to compare multicast with. pair_axis = 'n' (--pair=n, a tile loop): the
    pair takes two neighbouring tiles of one tile row instead and shares A's tile (the
    larger one of a 128 x 64 tile: a third of each block's K-step reads instead of a
    sixth), each block issuing half of each A copy.
    b_major = 'n': B is a second argument %bsrc, K x N row-major (N-major), and the
    kernel is named gemm_<dtype>_MxNxK_bn: each K step copies B's 64 x bn window into a
    tile of bn / 64 column panels (128-byte swizzle; fallback mode splits the copy,
    docs/dialect.md "Wide tiles") and wgmma reads it MN-major (acopy.wgmma_descriptor
    {major = "mn"}, B[..., <row>]); N must be a multiple of 8 (TMA's 16-byte strides).
    bn = 256: each warpgroup computes 64 x 256 with wgmma m64n256k16 (a 128 x 256
    block tile: a quarter less global and a sixth less shared traffic per multiply than
    128 x 128; 48 KiB per stage, S = 4 fits 227 KiB). bn = 192: m64n192k16, 40 KiB per
    stage (S = 4 beside the TMA epilogue's 32 KiB); its TMA epilogue stores three
    64-column panels, the third after the first two have been read (epilogue_tma).
    raster, persistent: tile_loop.
    vstore: the epilogue stores column pairs as one 8-byte st.global.v2 (half the store
    instructions); ragged shapes keep the guarded scalar stores.
    split: --split-k (a count or 'auto', split_count): each tile's K steps are cut into
    that many ranges, each range one unit of the tile loop with its own block, and the
    last unit of a tile to finish sums the partials (split_fixup) and writes the
    epilogue: for shapes with fewer tiles than SMs. The launcher's grid is
    launch_grid(m, n, split_count(..)); direct epilogue, K-major B; with --cluster=2
    the pair of a cluster runs each range of two neighbouring tiles, sharing B's.
    reduce = 'spread': the tile's units sum a column band of it each (spread_fixup). The
    workspace and counters are the module's own globals: two launches of one loaded
    module must not overlap (one stream, as the sweep launches them); a frontend that
    runs it on several streams at once loads a module per stream."""
    e.require(dtype in ('bf16', 'f16'), 'dtype: bf16 or f16')
    refuse(m, n, k)
    e.require(f'{bm}x{bn}' in SM90_TILES, f'tile: {TILE_LIMIT}')
    # bm = 64 (--tile=64xBN): one consumer warpgroup computes the 64-row tile (wgmma
    # m64nBNk16 from one 64 x 64 A tile), 128 consumer threads: twice the tiles of the
    # 128-row tile where one wave of those leaves SMs idle, each wgmma as wide as a
    # 128 x BN tile's. A tile loop, K-major B; split-K with the serial or spread fix-up (a
    # vector index of the workspace spans the 128 consumer threads: partial_store). In
    # pairs (--cluster=2) along M the two blocks share B's tile of each K step as the
    # 128-row pairs do; along N (--pair=n) the one 64 x 64 A tile, each issuing half of it.
    e.require(bm == 128 or (b_major == 'k' and reduce in ('serial', 'spread')),
              '--tile=64xBN: no --b-major=n or --split-reduce=dsmem')
    e.require(b_major in ('k', 'n'), '--b-major: k or n')
    b_n = b_major == 'n'
    e.require(reduce in ('serial', 'dsmem', 'spread'), '--split-reduce: serial, dsmem or spread')
    # 'auto' fills the persistent workers (two an SM with --persistent=264), else 132 SMs.
    splits = split_count(m, n, k, bn, split, persistent or 132, reduce=reduce, bm=bm)
    dsmem = reduce == 'dsmem'
    # --split-reduce=dsmem: a cluster of `splits` blocks per tile sums the partials through
    # distributed shared memory (dsmem_fixup); a persistent grid of whole clusters. With
    # the block schedule its barriers are cluster barriers; with a producer warp (rule P18
    # refuses cluster barriers after a warp-specialized loop: the producer warp would not
    # reach them) mbarriers of the consumers (%rdy, %dne).
    e.require(not dsmem or (splits in (2, 4, 8) and bn in (128, 256) and cluster == 1
                            and persistent and epilogue == 'direct' and b_major == 'k'),
              '--split-reduce=dsmem: 2, 4 or 8 K ranges, 128 x 128 or 128 x 256 tiles, --persistent, no --cluster')
    # --split-reduce=spread: the tile's units sum a slice of it each (spread_fixup).
    spread = reduce == 'spread' and splits > 1
    e.require(sync in ('fence', 'release'), '--split-sync: fence or release')
    e.require(sync == 'fence' or reduce == 'spread', '--split-sync=release: --split-reduce=spread')
    # With --cluster=2 (split-K has a tile loop, so the blocks are pairs of tiles) each
    # block sums its own tile's bands (own_unit), the pair sharing only the K loop's copies.
    e.require(not spread or (epilogue == 'direct' and b_major == 'k'),
              '--split-reduce=spread: --epilogue=direct, --b-major=k')
    signals = dsmem and producer != 'block'
    ksteps = -(-k // 64)
    range_steps = -(-ksteps // splits)
    remap = bn != 128 or bm != 128 or raster or persistent or splits > 1
    e.require(cluster in (1, 2), '--cluster: 1 or 2')
    # With a tile loop (--persistent, --raster, --tile=128x256) the pair of a cluster
    # shares B's tile instead (tile_loop's pair), with either schedule.
    pair = cluster == 2 and bool(remap)
    e.require(pair_axis in ('m', 'n'), '--pair: m or n')
    e.require(pair_axis == 'm' or pair, '--pair=n: --cluster=2 with a tile loop')
    by_n = pair and pair_axis == 'n'
    # Split-K with a cluster: the pair runs each K range of two tiles, sharing B's (A's
    # with --pair=n), and each block fixes up its own tile (own_unit).
    e.require(splits == 1 or (epilogue == 'direct' and b_major == 'k' and (cluster == 1 or pair)),
              '--split-k: --epilogue=direct, --b-major=k, no cluster without a tile loop')
    e.require(cluster == 1 or pair or not (b_n or producer != 'block'),
              '--cluster=2 without a tile loop: B stored N x K, the block schedule')
    e.require(not pair or not b_n, '--cluster=2 with a tile loop: B stored N x K')
    acc_type = e.struct(bn // 2)
    # A grid of an odd number of column tiles gets one more block per cluster: its B rows
    # lie past N (zero-filled) and its stores are skipped, as on a ragged edge.
    # A pair's second tile row lies past M when the tile rows are odd (zero-filled rows).
    ragged = m % bm or n % bn or k % 64 or (cluster > 1 and not pair and -(-n // 128) % cluster) or \
        (pair and not by_n and -(-m // bm) % 2) or (by_n and -(-n // bn) % 2)
    # Ragged edges: the copies zero-fill what lies outside src (K past its end, the
    # last B rows), so the sums are exact; rows of A past M read B's first rows,
    # which only reach rows of out that are not stored.
    # The last K range of a split may run past K: zero-filled too.
    oob = 'zeros' if ragged or splits * range_steps > ksteps else 'promise_in_bounds'
    e.require(out_dtype in ('f32', 'bf16'), '--out: f32 or bf16')
    e.require(epilogue in ('direct', 'tma'), '--epilogue: direct or tma')
    tma_out = epilogue == 'tma'
    # With 128 x 64 tiles the tile is one 64-column panel: where a wave of larger tiles leaves
    # SMs idle and the shape is ragged (scalar stores of the direct epilogue), this keeps
    # the stores off the consumers' path.
    e.require(not (ring and bn == 64), '--ring=1: a 128 x 128 or 128 x 256 tile (a 128 x 64 tile is one panel)')
    e.require(not tma_out or (out_dtype == 'bf16' and (cluster == 1 or pair)),
              '--epilogue=tma: --out=bf16, no cluster without a tile loop')
    if tma_out:
        refuse(m, n, k, epilogue)
    name = f'gemm_{dtype}_{m}x{n}x{k}' + ('_bn' if b_n else '') + ('_ob16' if out_dtype == 'bf16' else '')
    src = f'memref<{m if b_n else m + n}x{k}x{dtype}>'
    bsrc = f'memref<{k}x{n}x{dtype}>'
    out = f'memref<{m}x{n}x{out_dtype}>'
    ta = f'memref<64x64x{dtype}, 3>'
    tb = f'memref<64x{bn}x{dtype}, 3>' if b_n else f'memref<{bn}x64x{dtype}, 3>'
    args = [('%src', src), ('%bsrc', bsrc), ('%out', out)] if b_n else [('%src', src), ('%out', out)]
    # warpgroup: a producer warpgroup that gives the consumers its registers (setmaxnreg;
    # docs/pipelining.md, "A producer warpgroup").
    e.require(producer in ('block', 'warp', 'warpgroup'), 'PRODUCER: block, warp or warpgroup')
    # release = 'warp': the consumers release each slot a warp at a time (the K loop's
    # acopy.pipeline release = "warp"): 3-11 % for the 64 x 128 tile at long K on the H100,
    # slower for others (bench/RESULTS.md, 2026-12-07, sixth session, item 3).
    e.require(release in ('thread', 'warp'), '--release: thread or warp')
    e.require(release == 'thread' or producer != 'block', '--release=warp: PRODUCER warp or warpgroup')
    options = ''.join([f' --tile={bm}x{bn}' if bn != 128 or bm != 128 else '', f' --raster={raster}' if raster else '',
                       f' --persistent={persistent}' if persistent else '', ' --vstore=1' if vstore else '',
                       ' --b-major=n' if b_n else '', f' --cluster={cluster}' if cluster > 1 else '',
                       ' --out=bf16' if out_dtype == 'bf16' else '', ' --epilogue=tma' if tma_out else '',
                       f' --split-k={split}' if str(split) != '1' else '', ' --ring=1' if ring else '', ' --multicast=0' if not multicast else '',
                       ' --split-reduce=dsmem' if dsmem else '', ' --split-reduce=spread' if reduce == 'spread' else '',
                       ' --pair=n' if by_n else '', ' --split-sync=release' if sync == 'release' else '',
                       ' --release=warp' if release == 'warp' else '', ' --pdl=1' if pdl else ''])
    cluster_attr = f', nvvm.cluster_dim = array<i32: {cluster}, 1, 1>' if cluster > 1 else ''
    shared = '"x"' if (cluster > 1 and not pair) or (by_n and multicast) else None    # A's copies
    shared_b = '"x"' if pair and not by_n and multicast else None                     # B's copy
    te = TE if bm == 128 else f'memref<{bm}x64xbf16, 3>'
    panels = [('%te0', te)] + ([('%te1', te)] if bn > 64 else [])
    workgroup = [('%ta0', ta)] + ([('%ta1', ta)] if bm == 128 else []) + [('%tb', tb)] + (panels if tma_out else []) + \
        ([('%part', PART + ' {llvm.align = 16 : i64}')] if dsmem else
         [('%flag', f'memref<{max(2, spread_slices(splits, bn)[0])}xi32, 3>'), ('%epoch', 'memref<1xi64, 3>')] if spread
         else [('%flag', 'memref<1xi32, 3>')] if splits > 1 else []) + \
        ([('%rdy', e.BARRIER), ('%dne', e.BARRIER)] if signals else [])
    if dsmem:
        cluster_attr = f', nvvm.cluster_dim = array<i32: {splits}, 1, 1>'
        persistent = launch_grid(m, n, splits, 1, persistent, bn, reduce)[0]
    lines = e.kernel(f'Generated by examples/gemm/gen.py {m} {n} {k} {stages} {producer} --dtype={dtype}{options}.',
                     name, 'sm_90a', args, 2 * bm, workgroup, cluster_attr)
    # A pair's tiles are counted whole (its second tile may lie past M or N).
    rows, cols = unit_grid(m, n, bm, bn, cluster if pair else 1, pair_axis)
    tiles = rows * cols * (cluster if pair else 1)
    if splits > 1 and not dsmem:
        lines[2:2] = split_globals(tiles * splits, tiles, bn, 'spread' if spread else 'serial', splits, 2 * bm)
    lines += e.constants((0, 1, 2, 4, 8, 16, 32, 48, 64, 128))
    if pdl:
        lines.append('    nvvm.griddepcontrol launch_dependents')
    if signals:
        # Before the tile loop every thread runs these (the init's lowering then meets the
        # cluster, so no peer arrives on a barrier not yet initialised).
        lines += ['    %true = arith.constant true',
                  '    ' + e.barrier_init('%rdy', splits), '    ' + e.barrier_init('%dne', splits)]
    lines += [
        f'    %cm = arith.constant {m} : index',
        f'    %ck = arith.constant {range_steps} : index',
        f'    %rows = arith.constant {m} : index',
        f'    %cols = arith.constant {n} : index',
        '    %bn = gpu.block_id x',
        '    %bm = gpu.block_id y',
    ] + (['    nvvm.griddepcontrol wait'] if pdl else [])
    ind = '    '
    if remap:
        lines += [
            '    %t = gpu.thread_id x',
            '    %wg = arith.divui %t, %c128 : index',
            '    %second = arith.cmpi eq, %wg, %c1 : index',
            f'    %zero = llvm.mlir.zero : {acc_type}',
        ]
        tile_loop(lines, m, n, bm, bn, raster, persistent, split=splits, pair=pair, pair_axis=pair_axis)
        ind = '      '
        lines += [
        ] + ([f'{ind}%kbase = arith.muli %ks, %ck : index'] if splits > 1 else []) + [
            f'{ind}%m1 = arith.addi %m0, %c64 : index',
            f'{ind}%nb = arith.addi %cm, %n0 : index',
        ]
    else:
        lines += [
            '    %m0 = arith.muli %bm, %c128 : index',
            '    %m1 = arith.addi %m0, %c64 : index',
            '    %n0 = arith.muli %bn, %c128 : index',
            '    %nb = arith.addi %cm, %n0 : index',
            '    %t = gpu.thread_id x',
            '    %wg = arith.divui %t, %c128 : index',
            '    %second = arith.cmpi eq, %wg, %c1 : index',
            f'    %zero = llvm.mlir.zero : {acc_type}',
        ]
    loop, end = e.pipelined_for('%kt', '%c0', '%ck', '%c1', stages, producer, '%acc', [('%a0', '%zero')], [acc_type],
                                release=release)
    body = [
        loop,
        '  %ktk = arith.addi %kt, %kbase : index' if splits > 1 else '',
        f'  %col = arith.muli {"%ktk" if splits > 1 else "%kt"}, %c64 : index',
        '  ' + e.copy('%src', '%m0, %col', '%ta0', src, ta, oob, 128, shared),
        '  ' + e.copy('%src', '%m1, %col', '%ta1', src, ta, oob, 128, shared) if bm == 128 else '',
        '  ' + (e.copy('%bsrc', '%col, %n0', '%tb', bsrc, tb, oob, 128) if b_n else
                e.copy('%src', '%nb, %col', '%tb', src, tb, oob, 128, shared_b)),
        '  ' + e.wait(),
        '  nvvm.wgmma.fence.aligned',
    ]
    b_major_, b_layout = ('mn', '<row>') if b_n else (None, '<col>')
    for step, offset in enumerate(['%c0', '%c16', '%c32', '%c48']):
        body += [
            f'  %dx{step} = ' + e.descriptor('%ta0', offset, ta),
            f'  %dy{step} = ' + e.descriptor('%ta1', offset, ta),
            f'  %da{step} = arith.select %second, %dy{step}, %dx{step} : i64',
        ] if bm == 128 else [
            # One warpgroup: its A tile is the block's.
            f'  %da{step} = ' + e.descriptor('%ta0', offset, ta),
        ]
        body += [
            f'  %db{step} = ' + e.descriptor('%tb', offset, tb, b_major_),
            f'  %a{step + 1} = ' + e.wgmma(f'%da{step}', f'%db{step}', f'%a{step}', bn, dtype, acc_type, b_layout),
        ]
    body += [
        '  nvvm.wgmma.commit.group.sync.aligned',
        '  nvvm.wgmma.wait.group.sync.aligned 1',
        f'  scf.yield %a4 : {acc_type}',
        end,
        'nvvm.wgmma.wait.group.sync.aligned 0',
    ]
    # Lines left empty by options that do not apply (a second A tile, a K range base).
    body = [line for line in body if line]
    if tma_out:
        body += epilogue_tma(bn, acc_type, out, ring, te)
        lines += [ind + line for line in body]
        if remap:
            lines.append('    }')
        # The last tile's stores must have read the tiles before the block's shared memory goes.
        lines += ['    acopy.wait_smem_to_gmem {pending = 0 : i64}'] + e.end_kernel()
        return '\n'.join(lines)
    epilogue_start = len(body)
    # The thread's two rows and first column of out: its place in the block tile, moved
    # to the tile's (m0, n0).
    body += fragment_place(ragged)
    for i in range(bn // 2):
        row = '%row8' if (i // 2) % 2 else '%row0'
        body += [
            f'%v{i} = llvm.extractvalue %acc[{i}] : {acc_type}',
            f'%cc{i} = arith.constant {(i % 2) + 8 * (i // 4)} : index',
            f'%col{i} = arith.addi %colbase, %cc{i} : index',
        ]
        if vstore and not ragged:
            if i % 2:
                body += store_pair(i, f'%v{i - 1}', f'%v{i}', row, f'%col{i - 1}', out, out_dtype)
            continue
        inrow = ('%in8' if (i // 2) % 2 else '%in0') if ragged else None
        body += store_value(i, f'%v{i}', row, f'%col{i}', out, out_dtype, inrow)
    if dsmem:
        body[epilogue_start:] = dsmem_fixup(acc_type, splits, n, out, out_dtype, ragged, signals, bn)
    elif spread:
        body[epilogue_start:] = spread_fixup(acc_type, tiles * splits, tiles, splits, bn, out, out_dtype, ragged, vstore,
                                             2 * bm, sync == 'release', pair)
    elif splits > 1:
        # Only the tile's last unit writes it, from the summed partials.
        body[epilogue_start:] = split_fixup(acc_type, tiles * splits, tiles, splits, bn, pair, 2 * bm) + [
            '  ' + line.replace('%acc[', '%facc[') for line in body[epilogue_start:]] + ['}']
    lines += [ind + line for line in body]
    if remap:
        lines.append('    }')
    if signals:
        # No block leaves while a peer may still read its %part (the last round's %dne).
        lines += ['    ' + line for line in shared_pointer('%dne', e.BARRIER, '%dnex') + dsmem_await('%dnex', 1, 'dx')]
    lines += e.end_kernel()
    return '\n'.join(lines)


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    flags = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    chip = flags.get('chip', 'sm_90a')
    swizzle = int(flags.get('swizzle', '0'))
    dtype = flags.get('dtype', 'f16' if chip == 'sm_80' else 'bf16')
    if len(args) not in (3, 4, 5) or chip not in ('sm_80', 'sm_90a'):
        sys.exit(__doc__.strip().splitlines()[-1])
    m, n, k = (int(v) for v in args[:3])
    stages = args[3] if len(args) >= 4 else '4'
    producer = args[4] if len(args) == 5 else 'block'
    tile = flags.get('tile', '128x128')
    raster = int(flags.get('raster', '0'))
    persistent = int(flags.get('persistent', '0'))
    vstore = flags.get('vstore', '0') == '1'
    b_major = flags.get('b-major', 'k')
    try:
        if chip == 'sm_80':
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import mma_sync
            e.require(not persistent, '--persistent: sm_90a only')
            e.require(flags.get('out', 'f32') == 'f32', '--out=bf16: sm_90a only')
            e.require(flags.get('epilogue', 'direct') == 'direct', '--epilogue=tma: sm_90a only')
            e.require(flags.get('release', 'thread') == 'thread', '--release=warp: sm_90a only')
            e.require(flags.get('pdl', '0') == '0', '--pdl=1: sm_90a only')
            extra = {}
            if 'tile' in flags or 'warp' in flags or 'bk' in flags or raster or vstore:
                bm_, bn_ = (int(v) for v in tile.split('x'))
                wm_, wn_ = (int(v) for v in flags.get('warp', '64x32').split('x'))
                extra = dict(bm=bm_, bn=bn_, bk=int(flags.get('bk', '32')), warp_m=wm_, warp_n=wn_,
                             raster=raster, vstore=vstore)
            if b_major != 'k':
                extra['b_major'] = b_major
            text = mma_sync.gemm(m, n, k, stages, producer, swizzle, dtype, **extra)
        else:
            e.require(tile in SM90_TILES, f'--tile: {TILE_LIMIT} on sm_90a')
            text = gemm(m, n, k, stages, producer, dtype, bn=int(tile.split('x')[1]), bm=int(tile.split('x')[0]),
                        raster=raster,
                        persistent=persistent, vstore=vstore, b_major=b_major,
                        cluster=int(flags.get('cluster', '1')), out_dtype=flags.get('out', 'f32'),
                        epilogue=flags.get('epilogue', 'direct'), split=flags.get('split-k', '1'),
                        ring=flags.get('ring', '0') == '1', multicast=flags.get('multicast', '1') == '1',
                        reduce=flags.get('split-reduce', 'serial'), pair_axis=flags.get('pair', 'm'),
                        sync=flags.get('split-sync', 'fence'), release=flags.get('release', 'thread'),
                        pdl=flags.get('pdl', '0') == '1')
    # A shape the kernel cannot take (refuse) or options it does not take or combine
    # (emitter.require): named, nothing written.
    except ValueError as error:
        sys.exit(f'gen.py: error: {error}')
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
