"""The sm_80 body of examples/gemm/gen.py: the same 128 x 128 output tile and the same
marked K loop of acopy copies as the sm_90a kernel, with the compute Ampere has:
nvgpu.ldmatrix and mma.sync (m16n8k16, f16 or bf16 in, f32 accumulate).

Eight warps (256 threads): warp w computes rows 64 (w div 4) .. +63 and columns
32 (w mod 4) .. +31 of the block's tile as 4 x 4 fragments of 16 x 8, whose
accumulators are iter_args of the K loop. Per 32-wide K tile and 16-wide K step
a warp loads four A fragments (ldmatrix x4: lane l gives row l mod 16, column
8 (l div 16)) and four B fragments (ldmatrix x2 of the N x K tile: lane l gives
row l mod 8, column 8 ((l div 8) mod 2)), then issues 16 mma.sync. The copies are
cp.async on sm_80 (TMA if the same kernel is compiled for sm_90). MLIR 22's
nvgpu.mma.sync deduces no PTX type for bf16, so bf16 goes through nvvm.mma.sync on
the fragments' registers ([`mma`]).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import emitter as e  # noqa: E402  (examples/emitter.py: the text of each construct)

BM = BN = 128
BK = 32
WARPS_M, WARPS_N = 2, 4
FRAGS_M, FRAGS_N = 4, 4  # 16 x 8 fragments per warp: 64 x 32
ACC = e.MMA_ACC
mma = e.mma


def lane_addresses(indent='    '):
    """The lane's ldmatrix row and column in the warp's A and B tiles, without the
    fragment and K-step offsets (A: lane l gives row l mod 16 and column 8 (l div 16);
    B: row l mod 8 and column 8 ((l div 8) mod 2)); %wrow and %wcol are the warp's."""
    return [indent + line for line in [
        '%l16 = arith.remui %lane, %c16 : index',
        '%lhi = arith.divui %lane, %c16 : index',
        '%acol = arith.muli %lhi, %c8 : index',
        '%arow = arith.addi %wrow, %l16 : index',
        '%l8 = arith.remui %lane, %c8 : index',
        '%lq = arith.divui %lane, %c8 : index',
        '%lq2 = arith.remui %lq, %c2 : index',
        '%bcol = arith.muli %lq2, %c8 : index',
    ]]


def epilogue(accs, ragged, out, vstore=False):
    """Stores the accumulators (loop results %acc#i): fragment (i, j) of the warp is 16 x 8
    at (wrow + 16 i, wcol + 8 j), and lane l holds row l/4 (+8 in its second vector) and
    columns 2 (l mod 4), +1 of it. Ragged: each column is stored when it is inside out."""
    lines = [
        '%r4 = arith.divui %lane, %c4 : index',
        '%q4 = arith.remui %lane, %c4 : index',
        '%q2 = arith.muli %q4, %c2 : index',
        '%orow = arith.addi %m0, %wrow : index',
        '%orow0 = arith.addi %orow, %r4 : index',
        '%ocol = arith.addi %n0, %wcol : index',
        '%ocol0 = arith.addi %ocol, %q2 : index',
    ]
    for index, (i, j) in enumerate(accs):
        lines += [
            f'%row{i}_{j} = arith.addi %orow0, %c{16 * i} : index',
            f'%row8_{i}_{j} = arith.addi %row{i}_{j}, %c8 : index',
            f'%colf{i}_{j} = arith.addi %ocol0, %c{8 * j} : index',
            f'%lo{i}_{j} = vector.extract %acc#{index}[0] : vector<2xf32> from {ACC}',
            f'%hi{i}_{j} = vector.extract %acc#{index}[1] : vector<2xf32> from {ACC}',
        ]
        for half, row in (('lo', f'%row{i}_{j}'), ('hi', f'%row8_{i}_{j}')):
            values = f'%{half}{i}_{j}'
            if not ragged:
                align = ' {alignment = 8}' if vstore else ''
                lines.append(f'vector.store {values}, %out[{row}, %colf{i}_{j}]{align} : {out}, vector<2xf32>')
                continue
            for c in range(2):
                tag = f'{half}{i}_{j}_{c}'
                lines += [
                    f'%col_{tag} = arith.addi %colf{i}_{j}, %c{c} : index',
                    f'%inr_{tag} = arith.cmpi ult, {row}, %rows : index',
                    f'%inc_{tag} = arith.cmpi ult, %col_{tag}, %cols : index',
                    f'%ok_{tag} = arith.andi %inr_{tag}, %inc_{tag} : i1',
                    f'scf.if %ok_{tag} {{',
                    f'  %x_{tag} = vector.extract {values}[{c}] : f32 from vector<2xf32>',
                    f'  memref.store %x_{tag}, %out[{row}, %col_{tag}] : {out}',
                    '}',
                ]
    return lines


def gemm(m, n, k, stages, producer, swizzle=0, dtype='f16', b_major='k', **tiled):
    """swizzle = 64: the tiles are written in TMA's 64-byte pattern (one 64-byte row of
    32 f16 per span) and each ldmatrix row address goes through acopy.swizzled_index,
    so the 8 rows an ldmatrix reads fall in 8 different bank groups; unswizzled, rows
    64 bytes apart share banks (4-way conflicts). Swizzled cp.async slots past 48 KiB
    move to dynamic shared memory like any other (P11 no longer keeps them static), so S
    is bounded only by the chip's shared memory.
    `tiled` (gen.py --tile, --bk, --warp, --raster, --vstore): gemm_tiled.
    b_major = 'n' (gen.py --b-major=n, unswizzled): B is a second argument %bsrc stored
    K x N, copied per K tile as its 32 x 128 window, and each B fragment is one
    ldmatrix x2 with transpose = true of that K x N tile (lane l gives K row l mod 16 of
    the fragment's 8 columns): the transposed 8 x 8 matrices are the same registers
    the N x K tile's plain ldmatrix gives. The module is gemm_<dtype>_MxNxK_bn."""
    b_n = b_major == 'n'
    if tiled:
        e.require(not b_n, '--b-major=n: the default sm_80 tile only')
        return gemm_tiled(m, n, k, stages, producer, swizzle, dtype, **tiled)
    e.require(not (b_n and swizzle), '--b-major=n: unswizzled on sm_80')

    # Ragged edges as in gen.py: zero-filled copies (on cp.async chips that takes
    # fallback mode, which examples/gemm/build.sh turns on), stores past M or N skipped.
    ragged = m % BM or n % BN or k % BK
    oob = 'zeros' if ragged else 'promise_in_bounds'
    e.require(swizzle in (0, 64), 'swizzle: 0 or 64')
    e.require(dtype in ('f16', 'bf16'), 'dtype: f16 or bf16')
    name = f'gemm_{dtype}_{m}x{n}x{k}' + ('_bn' if b_n else '')
    src = f'memref<{m if b_n else m + n}x{k}x{dtype}>'
    bsrc = f'memref<{k}x{n}x{dtype}>'
    out = f'memref<{m}x{n}xf32>'
    tile = f'memref<{BM}x{BK}x{dtype}, 3>'
    tile_b = f'memref<{BK}x{BN}x{dtype}, 3>' if b_n else tile
    args = [('%src', src), ('%bsrc', bsrc), ('%out', out)] if b_n else [('%src', src), ('%out', out)]
    accs = [(i, j) for i in range(FRAGS_M) for j in range(FRAGS_N)]
    lines = e.kernel(f'Generated by examples/gemm/gen.py {m} {n} {k} {stages} {producer} --chip=sm_80'
                     + (f' --swizzle={swizzle}' if swizzle else '') + f' --dtype={dtype}'
                     + (' --b-major=n' if b_n else '') + '.',
                     name, 'sm_80', args, 256, [('%ta', tile), ('%tb', tile_b)])
    lines += e.constants((0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 128))
    lines += [
        f'    %cm = arith.constant {m} : index',
        f'    %ck = arith.constant {-(-k // BK)} : index',
        f'    %rows = arith.constant {m} : index',
        f'    %cols = arith.constant {n} : index',
        '    %bn = gpu.block_id x',
        '    %bm = gpu.block_id y',
        '    %m0 = arith.muli %bm, %c128 : index',
        '    %n0 = arith.muli %bn, %c128 : index',
        '    %nb = arith.addi %cm, %n0 : index',
        '    %t = gpu.thread_id x',
        '    %warp = arith.divui %t, %c32 : index',
        '    %lane = arith.remui %t, %c32 : index',
        '    %wm = arith.divui %warp, %c4 : index',
        '    %wn = arith.remui %warp, %c4 : index',
        '    %wrow = arith.muli %wm, %c64 : index',
        '    %wcol = arith.muli %wn, %c32 : index',
    ]
    lines += lane_addresses()
    lines += [
        '    %brow = arith.addi %wcol, %l8 : index',
        f'    %zero = arith.constant dense<0.0> : {ACC}',
    ]
    loop, end = e.pipelined_for('%kt', '%c0', '%ck', '%c1', stages, producer, f'%acc:{len(accs)}',
                                [(f'%s{i}_{j}', '%zero') for i, j in accs], [ACC] * len(accs))
    lines += [
        '    ' + loop,
        '      %col = arith.muli %kt, %c32 : index',
        '      ' + e.copy('%src', '%m0, %col', '%ta', src, tile, oob, swizzle),
        '      ' + (e.copy('%bsrc', '%col, %n0', '%tb', bsrc, tile_b, oob) if b_n else
                    e.copy('%src', '%nb, %col', '%tb', src, tile, oob, swizzle)),
        '      ' + e.wait(),
    ]
    current = {(i, j): f'%s{i}_{j}' for i, j in accs}
    for kk in range(BK // 16):
        lines.append(f'      %ak{kk} = arith.addi %acol, %c{16 * kk} : index')
        lines.append(f'      %bk{kk} = arith.addi %bcol, %c{16 * kk} : index')
        for i in range(FRAGS_M):
            lines.append(f'      %ar{kk}_{i} = arith.addi %arow, %c{16 * i} : index')
            at = f'%ar{kk}_{i}, %ak{kk}'
            if swizzle:
                lines.append('      ' + e.swizzled_index(f'%pa{kk}_{i}', '%ta', at, tile))
                at = f'%pa{kk}_{i}#0, %pa{kk}_{i}#1'
            lines.append(f'      %fa{kk}_{i} = ' + e.ldmatrix('%ta', at, tile, 4, dtype))
        if b_n:
            # The K x N tile: lane l gives K row 16 kk + l mod 16 at the fragment's column.
            lines.append(f'      %bt{kk} = arith.addi %l16, %c{16 * kk} : index')
        for j in range(FRAGS_N):
            if b_n:
                lines.append(f'      %bc{kk}_{j} = arith.addi %wcol, %c{8 * j} : index')
                lines.append(f'      %fb{kk}_{j} = ' + e.ldmatrix('%tb', f'%bt{kk}, %bc{kk}_{j}', tile_b, 2, dtype, True))
                continue
            lines.append(f'      %br{kk}_{j} = arith.addi %brow, %c{8 * j} : index')
            at = f'%br{kk}_{j}, %bk{kk}'
            if swizzle:
                lines.append('      ' + e.swizzled_index(f'%pb{kk}_{j}', '%tb', at, tile))
                at = f'%pb{kk}_{j}#0, %pb{kk}_{j}#1'
            lines.append(f'      %fb{kk}_{j} = ' + e.ldmatrix('%tb', at, tile, 2, dtype))
        for i, j in accs:
            new = f'%d{kk}_{i}_{j}'
            mma(lines, new, f'%fa{kk}_{i}', f'%fb{kk}_{j}', current[(i, j)], dtype)
            current[(i, j)] = new
    yielded = ', '.join(current[(i, j)] for i, j in accs)
    lines += [f'      scf.yield {yielded} : {", ".join([ACC] * len(accs))}', '    ' + end]
    lines += ['    ' + line for line in epilogue(accs, ragged, out)]
    lines += e.end_kernel()
    return '\n'.join(lines)


def gemm_tiled(m, n, k, stages, producer, swizzle, dtype, bm=128, bn=128, bk=32, warp_m=64, warp_n=32,
               raster=0, vstore=False):
    """The same kernel with its tiles as options (gen.py --tile, --bk, --warp, --raster,
    --vstore). A 64 x 64 warp tile issues 32 mma.sync per 8 ldmatrix.x4 (B's fragments
    two at a time), twice the 64 x 32 tile's ratio (shared memory was the limit); BK = 64
    with swizzle = 128 halves the loop's barriers per multiply and keeps ldmatrix
    conflict-free; the next 16-wide K step's fragments are loaded before this step's
    mma.sync (double-buffered). A block tile other than 128 x 128 maps the launchers'
    128 x 128 grid onto its tiles (gen.py tile_loop, with --raster's L2 grouping);
    vstore stores each lane's column pair as one st.global.v2."""
    import gen
    warps_m, warps_n = bm // warp_m, bn // warp_n
    frags_m, frags_n = warp_m // 16, warp_n // 8
    threads = 32 * warps_m * warps_n
    e.require(bm % warp_m == 0 and bn % warp_n == 0 and warp_m % 16 == 0 and warp_n % 16 == 0, 'warp tile: WM, WN multiples of 16 dividing the block tile')
    e.require(bk % 16 == 0 and threads <= 1024, 'bk: a multiple of 16')
    e.require(swizzle in (0, 2 * bk), 'swizzle: 0 or one row (2 BK bytes)')
    e.require(dtype in ('f16', 'bf16'), 'dtype: f16 or bf16')
    remap = (bm, bn) != (BM, BN) or raster
    ragged = m % bm or n % bn or k % bk
    oob = 'zeros' if ragged else 'promise_in_bounds'
    name = f'gemm_{dtype}_{m}x{n}x{k}'
    src = f'memref<{m + n}x{k}x{dtype}>'
    out = f'memref<{m}x{n}xf32>'
    tile_a = f'memref<{bm}x{bk}x{dtype}, 3>'
    tile_b = f'memref<{bn}x{bk}x{dtype}, 3>'
    accs = [(i, j) for i in range(frags_m) for j in range(frags_n)]
    options = f' --tile={bm}x{bn} --bk={bk} --warp={warp_m}x{warp_n}' + (f' --raster={raster}' if raster else '') + (' --vstore=1' if vstore else '')
    lines = e.kernel(f'Generated by examples/gemm/gen.py {m} {n} {k} {stages} {producer} --chip=sm_80'
                     + (f' --swizzle={swizzle}' if swizzle else '') + f' --dtype={dtype}{options}.',
                     name, 'sm_80', [('%src', src), ('%out', out)], threads, [('%ta', tile_a), ('%tb', tile_b)])
    consts = {0, 1, 2, 4, 8, 16, 32, warp_m, warp_n, bm, bn, bk}
    consts |= {16 * i for i in range(frags_m)} | {16 * j for j in range(frags_n // 2)} | {16 * kk for kk in range(bk // 16)}
    consts |= {8 * j for j in range(frags_n)}
    lines += e.constants(sorted(consts))
    lines += [
        f'    %cm = arith.constant {m} : index',
        f'    %ck = arith.constant {-(-k // bk)} : index',
        f'    %rows = arith.constant {m} : index',
        f'    %cols = arith.constant {n} : index',
        f'    %cwn = arith.constant {warps_n} : index',
        '    %bn = gpu.block_id x',
        '    %bm = gpu.block_id y',
        '    %t = gpu.thread_id x',
        '    %warp = arith.divui %t, %c32 : index',
        '    %lane = arith.remui %t, %c32 : index',
        '    %wm = arith.divui %warp, %cwn : index',
        '    %wn = arith.remui %warp, %cwn : index',
        f'    %wrow = arith.muli %wm, %c{warp_m} : index',
        f'    %wcol = arith.muli %wn, %c{warp_n} : index',
    ]
    # ldmatrix.x4 of B (N x K): lane l gives row l mod 8 + 8 (l div 16) and column
    # 8 ((l div 8) mod 2): b0, b1 of fragment j, then b0, b1 of fragment j + 1.
    lines += lane_addresses()
    lines += [
        '    %bhi = arith.muli %lhi, %c8 : index',
        '    %brow0 = arith.addi %wcol, %l8 : index',
        '    %brow = arith.addi %brow0, %bhi : index',
        f'    %zero = arith.constant dense<0.0> : {ACC}',
        f'    %bzero = arith.constant dense<0.0> : vector<2x2x{dtype}>',
    ]
    ind = '    '
    if remap:
        gen.tile_loop(lines, m, n, bm, bn, raster, 0)
        ind = '      '
    else:
        lines += [f'    %m0 = arith.muli %bm, %c{bm} : index', f'    %n0 = arith.muli %bn, %c{bn} : index']
    loop, end = e.pipelined_for('%kt', '%c0', '%ck', '%c1', stages, producer, f'%acc:{len(accs)}',
                                [(f'%s{i}_{j}', '%zero') for i, j in accs], [ACC] * len(accs))
    body = [
        '%nb = arith.addi %cm, %n0 : index',
        loop,
        f'  %col = arith.muli %kt, %c{bk} : index',
        '  ' + e.copy('%src', '%m0, %col', '%ta', src, tile_a, oob, swizzle),
        '  ' + e.copy('%src', '%nb, %col', '%tb', src, tile_b, oob, swizzle),
        '  ' + e.wait(),
    ]

    def load(kk):
        out_ = [f'  %ak{kk} = arith.addi %acol, %c{16 * kk} : index',
                f'  %bk{kk} = arith.addi %bcol, %c{16 * kk} : index']
        for i in range(frags_m):
            out_.append(f'  %ar{kk}_{i} = arith.addi %arow, %c{16 * i} : index')
            at = f'%ar{kk}_{i}, %ak{kk}'
            if swizzle:
                out_.append('  ' + e.swizzled_index(f'%pa{kk}_{i}', '%ta', at, tile_a))
                at = f'%pa{kk}_{i}#0, %pa{kk}_{i}#1'
            out_.append(f'  %fa{kk}_{i} = ' + e.ldmatrix('%ta', at, tile_a, 4, dtype))
        for jj in range(frags_n // 2):
            out_.append(f'  %br{kk}_{jj} = arith.addi %brow, %c{16 * jj} : index')
            at = f'%br{kk}_{jj}, %bk{kk}'
            if swizzle:
                out_.append('  ' + e.swizzled_index(f'%pb{kk}_{jj}', '%tb', at, tile_b))
                at = f'%pb{kk}_{jj}#0, %pb{kk}_{jj}#1'
            out_.append(f'  %fbq{kk}_{jj} = ' + e.ldmatrix('%tb', at, tile_b, 4, dtype))
            # Its halves as two fragments (vector.extract_strided_slice is not lowered by
            # the emit route: rows are extracted and inserted one at a time).
            for half in range(2):
                tag = f'{kk}_{2 * jj + half}'
                out_ += [f'  %fbr{tag}_0 = vector.extract %fbq{kk}_{jj}[{2 * half}] : vector<2x{dtype}> from vector<4x2x{dtype}>',
                         f'  %fbr{tag}_1 = vector.extract %fbq{kk}_{jj}[{2 * half + 1}] : vector<2x{dtype}> from vector<4x2x{dtype}>',
                         f'  %fbi{tag} = vector.insert %fbr{tag}_0, %bzero [0] : vector<2x{dtype}> into vector<2x2x{dtype}>',
                         f'  %fb{tag} = vector.insert %fbr{tag}_1, %fbi{tag} [1] : vector<2x{dtype}> into vector<2x2x{dtype}>']
        return out_

    current = {(i, j): f'%s{i}_{j}' for i, j in accs}
    steps = bk // 16
    body += load(0)
    for kk in range(steps):
        if kk + 1 < steps:
            body += load(kk + 1)
        for i, j in accs:
            new = f'%d{kk}_{i}_{j}'
            mma(body, new, f'%fa{kk}_{i}', f'%fb{kk}_{j}', current[(i, j)], dtype, indent='  ')
            current[(i, j)] = new
    yielded = ', '.join(current[(i, j)] for i, j in accs)
    body += [f'  scf.yield {yielded} : {", ".join([ACC] * len(accs))}', end]
    body += epilogue(accs, ragged, out, vstore)
    lines += [ind + line for line in body]
    if remap:
        lines.append('    }')
    lines += e.end_kernel()
    return '\n'.join(lines)
