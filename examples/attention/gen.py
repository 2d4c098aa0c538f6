#!/usr/bin/env python3
"""Writes a FlashAttention-2 style forward kernel with acopy copies: out = softmax(Q Kᵀ /
sqrt(D)) V per (batch x head), what a frontend builds with acopy for attention.

q, k, v are memref<BH x S x D x f16> (or bf16) (batch and heads flattened), out is
memref<BH x S x D x f32>. A block of 4 warps (128 threads) takes 64 query rows of one
(batch, head) (--rows=128: 8 warps take 128 rows, so each K and V tile feeds twice the
work): it copies its Q tile once, ldmatrix-loads its 16 rows per warp into
registers, then a K loop marked acopy.pipeline copies K and V tiles of 64 keys per
iteration (cp.async on sm_80; TMA if compiled for sm_90) and, per warp,
  S = Q Kᵀ with nvgpu.mma.sync (m16n8k16; K read by ldmatrix as the N x K operand),
  masked (keys past S_len; with CAUSAL keys past the query row) and scaled into log2
  units, the online softmax (running row max and partial row sum per thread, the max
  shared across the 4 lanes of a row by gpu.shuffle), P cast to f16 and reused from
  registers as the A operand of P V (V read by ldmatrix transposed), and the output
  accumulators rescaled by exp2(m_old - m_new).
After the loop the row sums are added across the 4 lanes and out = O / l is stored for
the rows below S_len. Ragged S_len: the copies zero-fill what lies past the end
(oob_mode = "zeros", which cp.async chips do in fallback mode: acopy-opt
--acopy-fallback), and the masks keep those keys out. With CAUSAL the loop stops at
the block of the diagonal. exp2 is ex2.approx.ftz.f32 (inline PTX: no libdevice).
f16 or bf16 (--dtype; bf16 through nvvm.mma.sync, examples/gemm/mma_sync.py's mma).

Usage: python3 examples/attention/gen.py BH S D [STAGES] [--causal] [--chip=sm_80|sm_90] [--dtype=f16|bf16] [--swizzle=128] [--rows=64|128] [--qk=mma|wgmma] [--pv=mma|wgmma] > attn.mlir
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gemm'))
import mma_sync  # noqa: E402  (one mma.sync step for f16 and bf16)

BM = 64   # query rows per block (16 per warp)
BN = 64   # keys per iteration
ACC = 'vector<2x2xf32>'
NEG_INF = '0xFF800000'


class Kernel:
    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f'%{stem}{self.count}'

    def emit(self, text, indent=4):
        self.lines.append(' ' * indent + text)

    def mma(self, a, b, c, dtype, indent):
        name = self.fresh('mma')
        mma_sync.mma(self.lines, name, a, b, c, dtype, ' ' * indent)
        return name

    def op(self, text, stem='x', indent=4):
        name = self.fresh(stem)
        self.emit(f'{name} = {text}', indent)
        return name


def attention(bh, s_len, d, stages='2', causal=False, chip='sm_80', dtype='f16', swizzle=0, rows=BM, qk='mma', pv='mma'):
    assert d in (64, 128), 'D: 64 or 128'
    assert swizzle in (0, 128), 'swizzle: 0 or 128'
    assert rows in (64, 128), 'rows: 64 or 128 query rows per block (4 or 8 warps)'
    # qk = wgmma (sm_90): S = Q Kᵀ by one warpgroup's wgmma m64n64k16 from the swizzled Q
    # and K tiles (acopy.wgmma_descriptor; the pass keeps the K slot until the wgmma that
    # read it completes), P V by mma.sync as before: wgmma's accumulator fragment of each
    # warp is mma.sync's, so the softmax code is shared.
    assert qk in ('mma', 'wgmma'), 'qk: mma or wgmma'
    assert qk == 'mma' or (chip == 'sm_90' and swizzle == 128 and rows == 64), 'qk = wgmma: sm_90, swizzle 128, 64 rows'
    # pv = wgmma (with qk = wgmma): O += P V by wgmma m64nDk16 with P from registers (the
    # softmax's fragments, in mma.sync's A layout, which is wgmma's register A layout) and V
    # read MN-major from its swizzled tile (acopy.wgmma_descriptor {major = "mn"}). MLIR's
    # nvvm.wgmma.mma_async takes A only from a descriptor, so this one instruction is inline
    # PTX (wgmma_rs below).
    assert pv in ('mma', 'wgmma'), 'pv: mma or wgmma'
    assert pv == 'mma' or qk == 'wgmma', 'pv = wgmma needs qk = wgmma'
    assert dtype in ('f16', 'bf16'), 'dtype: f16 or bf16'
    name = f'attn_{dtype}_{bh}x{s_len}x{d}' + ('_causal' if causal else '')
    qkv = f'memref<{bh}x{s_len}x{d}x{dtype}>'
    out = f'memref<{bh}x{s_len}x{d}xf32>'
    tile = f'memref<{BN}x{d}x{dtype}, 3>'
    qtile = f'memref<{rows}x{d}x{dtype}, 3>'
    ragged = s_len % BN != 0
    oob = '"zeros"' if ragged else '"promise_in_bounds"'
    # Swizzled tiles: every copy writes TMA's 128-byte pattern (a 128-element row of D = 128
    # is two column panels) and every ldmatrix row address goes through
    # acopy.swizzled_index, so the 8 rows one ldmatrix reads fall in 8 bank groups;
    # unswizzled, rows 128 or 256 bytes apart share banks (8-way conflicts).
    if swizzle:
        oob += f', swizzle = {swizzle} : i64'
    request = '"auto"' if stages == 'auto' else f'{int(stages)} : i64'
    n_blocks = -(-s_len // BN)
    scale = 1.0 / math.sqrt(d) * math.log2(math.e)
    kn = Kernel()
    qbar = '' if chip == 'sm_80' else ', %qbar: memref<1xi64, 3>'
    kn.lines += [
        f'// Generated by examples/attention/gen.py {bh} {s_len} {d} {stages}'
        + (' --causal' if causal else '') + f' --chip={chip} --dtype={dtype}'
        + (f' --swizzle={swizzle}' if swizzle else '') + (f' --rows={rows}' if rows != BM else '')
        + (f' --qk={qk}' if qk != 'mma' else '') + (f' --pv={pv}' if pv != 'mma' else '') + '.',
        f'gpu.module @{name} [#nvvm.target<chip = "{chip + ("a" if qk == "wgmma" else "")}">] {{',
        f'  gpu.func @{name}(%q: {qkv}, %k: {qkv}, %v: {qkv}, %out: {out}) workgroup(%tq: {qtile}, %tk: {tile}, %tv: {tile}{qbar}) kernel attributes {{gpu.known_block_size = array<i32: {2 * rows}, 1, 1>}} {{',
    ]
    for c in sorted(set(range(BN + 1)) | {n_blocks, s_len, rows} | {8 * i for i in range(d // 8 + 1)} | {16 * i for i in range(d // 16 + 1)}):
        kn.emit(f'%c{c} = arith.constant {c} : index')
    kn.emit('%i1 = arith.constant 1 : i32')
    kn.emit('%i2 = arith.constant 2 : i32')
    kn.emit('%i32 = arith.constant 32 : i32')
    kn.emit(f'%ninf = arith.constant {NEG_INF} : f32')
    kn.emit('%fzero = arith.constant 0.0 : f32')
    kn.emit('%c1f = arith.constant 1.0 : f32')
    kn.emit(f'%scale = arith.constant {scale!r} : f32')
    kn.emit(f'%zacc = arith.constant dense<0.0> : {ACC}')
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
    kn.emit('%t = gpu.thread_id x')
    kn.emit('%warp = arith.divui %t, %c32 : index')
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
    # This thread's two query rows, in the sequence.
    kn.emit('%rw = arith.addi %q0, %w16 : index')
    kn.emit('%row0 = arith.addi %rw, %r4 : index')
    kn.emit('%row1 = arith.addi %row0, %c8 : index')
    # Q once: copy, wait, the warp's 16 rows as D/16 A fragments.
    if chip == 'sm_80':
        kn.emit(f'acopy.copy_gmem_to_smem %q[%h, %q0, %c0] -> %tq {{oob_mode = {oob}}} : {qkv} -> {qtile}')
        kn.emit('acopy.wait_gmem_to_smem {pending = 0 : i64}')
    else:
        # TMA: a copy outside a marked loop completes on an mbarrier.
        kn.emit('acopy.barrier_init %qbar {arrival_count = 1 : i64} : memref<1xi64, 3>')
        kn.emit(f'acopy.copy_gmem_to_smem %q[%h, %q0, %c0] -> %tq barrier(%qbar : memref<1xi64, 3>) {{oob_mode = {oob}}} : {qkv} -> {qtile}')
        kn.emit('%first = arith.constant false')
        kn.emit('acopy.barrier_wait %qbar, %first : memref<1xi64, 3>')
    qf = []
    for kk in range(d // 16 if qk == 'mma' else 0):
        col = kn.op(f'arith.addi %acol, %c{16 * kk} : index', 'qc')
        at = swizzled(kn, '%tq', '%arow', col, qtile, swizzle, 4)
        qf.append(kn.op(f'nvgpu.ldmatrix %tq[{at}] {{numTiles = 4 : i32, transpose = false}} : {qtile} -> vector<4x2x{dtype}>', 'qf'))
    kn.emit(f'%kend = arith.constant {n_blocks} : index')
    if causal:
        # The key blocks up to the block's last query row: (qb + 1) * rows / BN.
        kn.emit('%qnext = arith.addi %qb, %c1 : index')
        kn.emit(f'%qkeys = arith.muli %qnext, %c{rows // BN} : index')
        kn.emit('%kstop = arith.minui %kend, %qkeys : index')
    else:
        kn.emit('%kstop = arith.addi %kend, %c0 : index')
    n_o = d // 8
    iter_args = ['%m0 = %ninf', '%m1 = %ninf', '%l0 = %fzero', '%l1 = %fzero'] + [f'%o{i} = %zacc' for i in range(n_o)]
    types = ['f32'] * 4 + [ACC] * n_o
    kn.emit(f'%res:{len(types)} = scf.for %j = %c0 to %kstop step %c1 iter_args({", ".join(iter_args)}) -> ({", ".join(types)}) {{')
    body(kn, d, qf, causal, ragged, s_len, qkv, tile, oob, dtype, swizzle, qtile if qk == 'wgmma' else None, pv)
    kn.emit(f'}} {{acopy.pipeline = {{stages = {request}}}}}')
    epilogue(kn, d, s_len, out)
    kn.lines += ['    gpu.return', '  }', '}', '']
    return '\n'.join(kn.lines)


def body(kn, d, qf, causal, ragged, s_len, qkv, tile, oob, dtype, swizzle, wgmma_q=None, pv_by='mma'):
    i = 6
    kn.emit(f'%k0 = arith.muli %j, %c{BN} : index', i)
    kn.emit(f'acopy.copy_gmem_to_smem %k[%h, %k0, %c0] -> %tk {{oob_mode = {oob}}} : {qkv} -> {tile}', i)
    kn.emit(f'acopy.copy_gmem_to_smem %v[%h, %k0, %c0] -> %tv {{oob_mode = {oob}}} : {qkv} -> {tile}', i)
    kn.emit('acopy.wait_gmem_to_smem {pending = 0 : i64}', i)
    # S = Q Kᵀ: BN / 8 fragments of 16 x 8.
    s = qk_wgmma(kn, d, tile, wgmma_q, dtype, i) if wgmma_q else []
    for j8 in range(BN // 8 if not wgmma_q else 0):
        acc = '%zacc'
        krow = kn.op(f'arith.addi %l8, %c{8 * j8} : index', 'kr', i)
        for kk in range(d // 16):
            kcol = kn.op(f'arith.addi %bcol, %c{16 * kk} : index', 'kc', i)
            at = swizzled(kn, '%tk', krow, kcol, tile, swizzle, i)
            kf = kn.op(f'nvgpu.ldmatrix %tk[{at}] {{numTiles = 2 : i32, transpose = false}} : {tile} -> vector<2x2x{dtype}>', 'kf', i)
            acc = kn.mma(qf[kk], kf, acc, dtype, i)
        s.append(acc)
    # Scaled, masked scores x[j8][h][e] (log2 units).
    x = [[[None] * 2 for _ in range(2)] for _ in range(BN // 8)]
    masked = ragged or causal
    for j8 in range(BN // 8):
        for e in range(2):
            col = None
            if masked:
                base = kn.op(f'arith.addi %k0, %q2 : index', 'kb', i)
                col = kn.op(f'arith.addi {base}, %c{8 * j8 + e} : index' if 8 * j8 + e else f'arith.addi {base}, %c0 : index', 'col', i)
            for h in range(2):
                v = kn.op(f'vector.extract {s[j8]}[{h}, {e}] : f32 from {ACC}', 'e', i)
                v = kn.op(f'arith.mulf {v}, %scale : f32', 'y', i)
                if masked:
                    ok = None
                    if ragged:
                        ok = kn.op(f'arith.cmpi ult, {col}, %c{s_len} : index', 'in', i)
                    if causal:
                        c = kn.op(f'arith.cmpi ule, {col}, %row{h} : index', 'cz', i)
                        ok = c if ok is None else kn.op(f'arith.andi {ok}, {c} : i1', 'ok', i)
                    v = kn.op(f'arith.select {ok}, {v}, %ninf : f32', 'mk', i)
                x[j8][h][e] = v
    # Online softmax per row half h.
    m_new, alpha, p_sum = [], [], []
    for h in range(2):
        m = f'%m{h}'
        cur = None
        for j8 in range(BN // 8):
            for e in range(2):
                cur = x[j8][h][e] if cur is None else kn.op(f'arith.maximumf {cur}, {x[j8][h][e]} : f32', 'mx', i)
        for lanes in ('%i1', '%i2'):
            other = shuffle(kn, cur, lanes, i)
            cur = kn.op(f'arith.maximumf {cur}, {other} : f32', 'mx', i)
        mn = kn.op(f'arith.maximumf {m}, {cur} : f32', 'mn', i)
        diff = kn.op(f'arith.subf {m}, {mn} : f32', 'dm', i)
        alpha.append(exp2(kn, diff, i))
        m_new.append(mn)
    p = [[[None] * 2 for _ in range(2)] for _ in range(BN // 8)]
    for h in range(2):
        total = None
        for j8 in range(BN // 8):
            for e in range(2):
                diff = kn.op(f'arith.subf {x[j8][h][e]}, {m_new[h]} : f32', 'dp', i)
                pv = exp2(kn, diff, i)
                p[j8][h][e] = pv
                total = pv if total is None else kn.op(f'arith.addf {total}, {pv} : f32', 'ps', i)
        scaled = kn.op(f'arith.mulf %l{h}, {alpha[h]} : f32', 'ls', i)
        p_sum.append(kn.op(f'arith.addf {scaled}, {total} : f32', 'ln', i))
    # O *= alpha (per row half), then O += P V.
    av = kn.op(f'vector.from_elements {alpha[0]}, {alpha[0]}, {alpha[1]}, {alpha[1]} : {ACC}', 'av', i)
    o = [kn.op(f'arith.mulf %o{n}, {av} : {ACC}', 'os', i) for n in range(d // 8)]
    fragments = []
    for t in range(BN // 16):
        parts = []
        for j8, h in ((2 * t, 0), (2 * t, 1), (2 * t + 1, 0), (2 * t + 1, 1)):
            for e in range(2):
                parts.append(kn.op(f'arith.truncf {p[j8][h][e]} : f32 to {dtype}', 'ph', i))
        pa = kn.op(f'vector.from_elements {", ".join(parts)} : vector<4x2x{dtype}>', 'pa', i)
        fragments.append(pa)
        if pv_by == 'wgmma':
            continue
        vrow = kn.op(f'arith.addi %l16, %c{16 * t} : index' if t else 'arith.addi %l16, %c0 : index', 'vr', i)
        for n in range(d // 8):
            at = swizzled(kn, '%tv', vrow, f'%c{8 * n}', tile, swizzle, i)
            vf = kn.op(f'nvgpu.ldmatrix %tv[{at}] {{numTiles = 2 : i32, transpose = true}} : {tile} -> vector<2x2x{dtype}>', 'vf', i)
            o[n] = kn.mma(pa, vf, o[n], dtype, i)
    if pv_by == 'wgmma':
        o = pv_wgmma(kn, d, tile, fragments, o, dtype, i)
    yielded = m_new + p_sum + o
    kn.emit(f'scf.yield {", ".join(yielded)} : {", ".join(["f32"] * 4 + [ACC] * (d // 8))}', i)


def qk_wgmma(kn, d, tile, qtile, dtype, i):
    """S = Q Kᵀ as D / 16 wgmma m64n64k16 steps (A = the Q tile, B = the K tile, both
    K-major), waited at once; accumulator i of a lane is row l/4 + 8 ((i/2) mod 2), column
    2 (l mod 4) + (i mod 2) + 8 (i/4) of the warp's 16 rows: mma.sync's [h][e] of fragment
    j8 = i/4."""
    acc_type = '!llvm.struct<(' + ', '.join(['f32'] * (BN // 2)) + ')>'
    acc = kn.op(f'llvm.mlir.zero : {acc_type}', 'sz', i)
    kn.emit('nvvm.wgmma.fence.aligned', i)
    for kk in range(d // 16):
        dq = kn.op(f'acopy.wgmma_descriptor %tq[%c{16 * kk}] : {qtile}', 'dq', i)
        dk = kn.op(f'acopy.wgmma_descriptor %tk[%c{16 * kk}] : {tile}', 'dk', i)
        acc = kn.op(f'nvvm.wgmma.mma_async {dq}, {dk}, {acc}, <m = 64, n = {BN}, k = 16>, '
                    f'D[<f32>, <one>, <wrapped>], A[<{dtype}>, <one>, <row>], B[<{dtype}>, <one>, <col>] '
                    f': {acc_type} -> {acc_type}', 'sw', i)
    kn.emit('nvvm.wgmma.commit.group.sync.aligned', i)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
    s = []
    for j8 in range(BN // 8):
        parts = [kn.op(f'llvm.extractvalue {acc}[{4 * j8 + n}] : {acc_type}', 'sv', i) for n in range(4)]
        s.append(kn.op(f'vector.from_elements {", ".join(parts)} : {ACC}', 'sf', i))
    return s


def pv_wgmma(kn, d, tile, fragments, o, dtype, i):
    """O += P V as BN / 16 wgmma m64nDk16, A = P's registers (fragment t: keys 16t..16t+15),
    B = the V tile's K step t read MN-major; the accumulators go in and come out in
    mma.sync's fragment order (accumulator j of a lane is o[j / 4][(j / 2) mod 2][j mod 2])."""
    n = d // 2
    acc = [kn.op(f'vector.extract {o[j // 4]}[{(j // 2) % 2}, {j % 2}] : f32 from {ACC}', 'oa', i) for j in range(n)]
    kn.emit('nvvm.wgmma.fence.aligned', i)
    for t, pa in enumerate(fragments):
        regs = []
        for r in range(4):
            half = kn.op(f'vector.extract {pa}[{r}] : vector<2x{dtype}> from vector<4x2x{dtype}>', 'pr', i)
            word = kn.op(f'vector.bitcast {half} : vector<2x{dtype}> to vector<1xi32>', 'pw', i)
            regs.append(kn.op(f'vector.extract {word}[0] : i32 from vector<1xi32>', 'pi', i))
        dv = kn.op(f'acopy.wgmma_descriptor %tv[%c{16 * t}] {{major = "mn"}} : {tile}', 'dv', i)
        acc = wgmma_rs(kn, d, dtype, regs, dv, acc, i)
    kn.emit('nvvm.wgmma.commit.group.sync.aligned', i)
    kn.emit('nvvm.wgmma.wait.group.sync.aligned 0', i)
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
    struct = '!llvm.struct<(' + ', '.join(['f32'] * n) + ')>'
    types = ', '.join(['i32'] * 4 + ['i64'] + ['f32'] * n)
    result = kn.op(f'llvm.inline_asm has_side_effects "{ptx}", "{constraints}" {", ".join(regs + [desc] + acc)} : ({types}) -> {struct}', 'rs', i)
    return [kn.op(f'llvm.extractvalue {result}[{j}] : {struct}', 'ra', i) for j in range(n)]


def swizzled(kn, tile_name, row, col, tile, swizzle, indent):
    """The (row, col) pair at which an ldmatrix reads logical (row, col) of the tile."""
    if not swizzle:
        return f'{row}, {col}'
    at = kn.fresh('sw')
    kn.emit(f'{at}:2 = acopy.swizzled_index {tile_name}[{row}, {col}] : {tile}', indent)
    return f'{at}#0, {at}#1'


def shuffle(kn, value, lanes, indent):
    """The value of the lane `lanes` away (xor) in the warp."""
    other = kn.fresh('sh')
    kn.emit(f'{other}, {other}_ok = gpu.shuffle xor {value}, {lanes}, %i32 : f32', indent)
    return other


def exp2(kn, value, indent):
    """2^value, as the PTX instruction (no libdevice call)."""
    return kn.op(f'llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" {value} : (f32) -> f32', 'ex', indent)


def epilogue(kn, d, s_len, out):
    """l summed over the 4 lanes of each row; out = O / l for rows below S_len."""
    n_o = d // 8
    inv = []
    for h in range(2):
        total = f'%res#{2 + h}'
        for lanes in ('%i1', '%i2'):
            other = shuffle(kn, total, lanes, 4)
            total = kn.op(f'arith.addf {total}, {other} : f32', 'lt')
        inv.append(kn.op(f'arith.divf %c1f, {total} : f32', 'inv'))
    for h in range(2):
        keep = kn.op(f'arith.cmpi ult, %row{h}, %c{s_len} : index', 'keep')
        kn.emit(f'scf.if {keep} {{')
        for n in range(n_o):
            row = kn.op(f'vector.extract %res#{4 + n}[{h}] : vector<2xf32> from {ACC}', 'ov', 6)
            scaled = kn.op(f'vector.broadcast {inv[h]} : f32 to vector<2xf32>', 'ib', 6)
            val = kn.op(f'arith.mulf {row}, {scaled} : vector<2xf32>', 'ot', 6)
            col = kn.op(f'arith.addi %q2, %c{8 * n} : index' if n else 'arith.addi %q2, %c0 : index', 'oc', 6)
            kn.emit(f'vector.store {val}, %out[%h, %row{h}, {col}] : {out}, vector<2xf32>', 6)
        kn.emit('}')


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    flags = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    causal = '--causal' in sys.argv[1:]
    chip = flags.get('chip', 'sm_80')
    if len(args) not in (3, 4) or chip not in ('sm_80', 'sm_90'):
        sys.exit(__doc__.strip().splitlines()[-1])
    bh, s_len, d = (int(v) for v in args[:3])
    stages = args[3] if len(args) == 4 else '2'
    sys.stdout.write(attention(bh, s_len, d, stages, causal, chip, flags.get('dtype', 'f16'), int(flags.get('swizzle', '0')), int(flags.get('rows', str(BM))), flags.get('qk', 'mma'),
                               flags.get('pv', 'mma')))


if __name__ == '__main__':
    main()
