#!/usr/bin/env python3
"""The GEMM of examples/gemm/gen.py on the GPU: exactness, then TFLOP/s against
cuBLAS (torch.matmul) and a Triton tl.dot matmul measured in the same process.

Here (no GPU): `bash examples/gemm/build.sh OUT` writes OUT/gemm_bf16_MxNxK.ptx and its
manifest for every shape below. On the GPU machine (torch, triton and the acopy Python
package importable):  python3 bench/bench_gemm.py OUT --json RESULTS.json
Without the acopy package, acopy-runtime's `acopy-gpu-gemm OUT --time --json A.json`
checks and times the same modules; `bench_gemm.py --baselines [--chip sm_80] --json B.json`
times cuBLAS and Triton in the same device run, and `bench_gemm.py --merge A.json ...
--with B.json ... --json bench/results/gemm-h200.json` adds the ratios.
Each shape's exactness check runs in its own process (a trap kills only that case):
A and B hold small integers, so out = A Bᵀ in f32 is exact and is compared with torch's
f32 matmul (TF32 off) element for element, out poisoned with NaN first. The timing runs
use random normal bf16 inputs, 5 warm-up launches and the median of 20 timed by CUDA
events; TFLOP/s = 2 M N K / time. cuBLAS is torch.matmul(A, Bᵀ) in bf16; Triton is a
tl.dot kernel with grouped tile order, f32 out like acopy's, at the fastest of
TRITON_CONFIGS per shape. On sm_90a a second Triton anchor is the shape of its persistent
TMA matmul tutorial (one program per SM looping over grouped tiles, operands and the
output through host-built tensor descriptors), at the fastest of PERSISTENT_CONFIGS,
which include the tutorial's tuned Hopper configuration (128 x 256 x 64, 3 stages,
8 warps) and a bf16 output (half the epilogue bytes of acopy's f32: in the anchor's
favour); each configuration is checked against torch before it is timed.
"""
import argparse
import json
import os
import subprocess
import sys

# Ragged shapes too: edges zero-filled by the copies, stores past M or N skipped.
CHECK_SHAPES = [(128, 128, 64), (256, 256, 512), (384, 128, 1024), (1024, 1024, 4096),
                (200, 136, 72), (130, 260, 1000), (1, 1, 8)]
TIME_SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (8192, 8192, 512)]


# --chip sm_80: the f16 kernels of gen.py --chip=sm_80 (cp.async + mma.sync), compared
# with cuBLAS and Triton in f16; the default is the bf16 sm_90a kernels.
DTYPE = {'sm_90a': 'bf16', 'sm_80': 'f16'}
PATH = {'sm_90a': 'tma', 'sm_80': 'cp_async'}
CHIP = 'sm_90a'


def name(m, n, k):
    return f'gemm_{DTYPE[CHIP]}_{m}x{n}x{k}'


def torch_dtype():
    import torch
    return torch.bfloat16 if DTYPE[CHIP] == 'bf16' else torch.float16


def kernel(ptx_dir, m, n, k):
    import acopy
    base = os.path.join(ptx_dir, name(m, n, k))
    ptx = open(base + '.ptx').read()
    entry = json.load(open(base + '.manifest.json'))['kernels'][0]
    return acopy.Kernel(ptx, entry['module'], entry['chip'], entry, ['src', 'out'])


def launch(k, src, out, m, n):
    # The block the kernel declares: 256, or 288 with a producer warp (gen.py).
    k(src, out, grid=(-(-n // 128), -(-m // 128)), block=k.block)


def check(ptx_dir, m, n, k):
    """One shape, exactly: prints a JSON case."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device='cuda').manual_seed(m * 131 + n * 7 + k)
    src = torch.randint(-2, 3, (m + n, k), device='cuda', generator=g).to(torch_dtype())
    out = torch.full((m, n), float('nan'), device='cuda', dtype=torch.float32)
    launch(kernel(ptx_dir, m, n, k), src, out, m, n)
    torch.cuda.synchronize()
    a, b = src[:m].float(), src[m:].float()
    want = a @ b.T
    wrong = int((out != want).sum().item())
    print(json.dumps({'name': name(m, n, k), 'path': PATH[CHIP], 'shape': [m, n, k],
                      'exact_or_max_error': 'exact' if wrong == 0 else f'{wrong} of {m * n} differ',
                      'ok': wrong == 0}))


def median_ms(fn, runs=20, warmup=5):
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


# Triton's tile configurations (BM, BN, BK, stages, warps): the timed shapes take the
# fastest, as an autotuner would; every one writes f32 like acopy's kernels.
TRITON_CONFIGS = [(128, 128, 64, 4, 8), (128, 256, 64, 3, 8), (256, 128, 64, 3, 8),
                  (128, 256, 64, 4, 8), (128, 128, 64, 3, 4)]


def triton_matmul():
    """A tl.dot matmul with grouped tile order (GROUP_M = 8 rows of tiles share B in L2,
    as in Triton's matmul tutorial); returns run(a, b, c, m, n, k, config)."""
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m, tiles_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
        group = GROUP * tiles_n
        first = (pid // group) * GROUP
        rows = min(tiles_m - first, GROUP)
        pm = first + (pid % group) % rows
        pn = (pid % group) // rows
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
            y = tl.load(b + rn[:, None] * K + (k0 + rk)[None, :])
            acc += tl.dot(x, tl.trans(y))
        tl.store(c + rm[:, None] * N + rn[None, :], acc)

    def run(a, b, c, m, n, k, config=TRITON_CONFIGS[0]):
        bm, bn, bk, stages, warps = config
        mm[((m // bm) * (n // bn),)](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk, GROUP=8,
                                     num_stages=stages, num_warps=warps)
    return run


# The persistent TMA anchor's configurations (BM, BN, BK, stages, warps, output dtype).
PERSISTENT_CONFIGS = [(128, 256, 64, 3, 8, 'bf16'), (128, 256, 64, 3, 8, 'f32'),
                      (128, 128, 64, 4, 8, 'bf16'), (128, 128, 64, 4, 8, 'f32'),
                      (128, 256, 64, 4, 8, 'bf16')]


def triton_persistent_matmul():
    """A persistent tl.dot matmul fed by TMA tensor descriptors (the design of Triton's
    persistent matmul tutorial, written here): grid = one program per SM, each walking
    the grouped tile order with a stride of the grid; returns run(a, b, m, n, k, config,
    out), which writes A Bᵀ into out (bf16 or f32, the config's last entry)."""
    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def mm(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           GROUP: tl.constexpr, PROGRAMS: tl.constexpr):
        tiles_m, tiles_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
        group = GROUP * tiles_n
        for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, PROGRAMS, flatten=True):
            first = (tile // group) * GROUP
            rows = min(tiles_m - first, GROUP)
            pm = first + (tile % group) % rows
            pn = (tile % group) // rows
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(tl.cdiv(K, BK)):
                x = a_desc.load([pm * BM, kk * BK])
                y = b_desc.load([pn * BN, kk * BK])
                acc = tl.dot(x, y.T, acc)
            c_desc.store([pm * BM, pn * BN], acc.to(c_desc.dtype))

    sms = torch.cuda.get_device_properties(0).multi_processor_count

    def run(a, b, m, n, k, config, out):
        bm, bn, bk, stages, warps, _ = config
        a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
        b_desc = TensorDescriptor.from_tensor(b, [bn, bk])
        c_desc = TensorDescriptor.from_tensor(out, [bm, bn])
        programs = min(sms, -(-m // bm) * -(-n // bn))
        mm[(programs,)](a_desc, b_desc, c_desc, m, n, k, BM=bm, BN=bn, BK=bk, GROUP=8,
                        PROGRAMS=programs, num_stages=stages, num_warps=warps)
    return run


def triton_persistent_best_ms(a, b, m, n, k):
    """The persistent anchor's fastest configuration that also computes A Bᵀ (checked
    against torch's f32 product, bf16 tolerance); (ms, config)."""
    import torch
    run = triton_persistent_matmul()
    want = (a.float() @ b.float().T)
    best = None
    for config in PERSISTENT_CONFIGS:
        out = torch.empty((m, n), device='cuda', dtype=torch.bfloat16 if config[5] == 'bf16' else torch.float32)
        try:
            run(a, b, m, n, k, config, out)
            torch.cuda.synchronize()
            error = ((out.float() - want).abs().max() / want.abs().max()).item()
            if not error < 2e-2:
                raise RuntimeError(f'wrong product (relative error {error:.3g})')
            ms = median_ms(lambda: run(a, b, m, n, k, config, out))
        except Exception as error:  # a configuration that does not fit costs only itself
            print(f'triton persistent {config} {m}x{n}x{k}: {error}', file=sys.stderr)
            continue
        if best is None or ms < best[0]:
            best = (ms, config)
    if best is None:
        raise RuntimeError('no persistent Triton configuration ran')
    return best


def triton_best_ms(triton_mm, a, b, c, m, n, k):
    """The median time of Triton's fastest configuration at this shape (a configuration
    that fails to compile, e.g. out of shared memory, is skipped)."""
    best = None
    for config in TRITON_CONFIGS:
        try:
            ms = median_ms(lambda: triton_mm(a, b, c, m, n, k, config))
        except Exception as error:  # a configuration that does not fit costs only itself
            print(f'triton {config} {m}x{n}x{k}: {error}', file=sys.stderr)
            continue
        best = ms if best is None else min(best, ms)
    if best is None:
        raise RuntimeError('no Triton configuration ran')
    return best


def time_shape(ptx_dir, m, n, k, triton_mm):
    import torch
    src = torch.randn((m + n, k), device='cuda').to(torch_dtype())
    out = torch.empty((m, n), device='cuda', dtype=torch.float32)
    a, b = src[:m], src[m:]
    kern = kernel(ptx_dir, m, n, k)
    flops = 2.0 * m * n * k
    rows = {}
    rows['acopy'] = median_ms(lambda: launch(kern, src, out, m, n))
    rows['cublas'] = median_ms(lambda: torch.matmul(a, b.T))
    try:
        c = torch.empty((m, n), device='cuda', dtype=torch.float32)
        rows['triton'] = triton_best_ms(triton_mm, a, b, c, m, n, k)
    except Exception as error:  # a Triton failure costs only its column
        print(f'triton {m}x{n}x{k}: {error}', file=sys.stderr)
    tflops = {key: flops / (ms * 1e-3) / 1e12 for key, ms in rows.items()}
    row = {'name': name(m, n, k), 'path': PATH[CHIP], 'shape': [m, n, k],
           'tflops': tflops['acopy'], 'cublas_tflops': tflops['cublas'],
           'ratio_to_cublas': tflops['acopy'] / tflops['cublas']}
    if 'triton' in tflops:
        row['triton_tflops'] = tflops['triton']
        row['ratio_to_triton'] = tflops['acopy'] / tflops['triton']
    return row


def baselines():
    """cuBLAS and Triton alone at TIME_SHAPES (no acopy package needed): what
    runtime/src/bin/acopy-gpu-gemm's rows are compared with, in the same device run."""
    import torch
    triton_mm = triton_matmul()
    rows = []
    for m, n, k in TIME_SHAPES:
        src = torch.randn((m + n, k), device='cuda').to(torch_dtype())
        a, b = src[:m], src[m:]
        flops = 2.0 * m * n * k
        row = {'shape': [m, n, k], 'dtype': DTYPE[CHIP],
               'cublas_tflops': flops / (median_ms(lambda: torch.matmul(a, b.T)) * 1e-3) / 1e12}
        try:
            c = torch.empty((m, n), device='cuda', dtype=torch.float32)
            row['triton_tflops'] = flops / (triton_best_ms(triton_mm, a, b, c, m, n, k) * 1e-3) / 1e12
        except Exception as error:  # a Triton failure costs only its column
            print(f'triton {m}x{n}x{k}: {error}', file=sys.stderr)
        if CHIP == 'sm_90a':
            try:
                ms, config = triton_persistent_best_ms(a, b, m, n, k)
                row['triton_persistent_tflops'] = flops / (ms * 1e-3) / 1e12
                row['triton_persistent_config'] = list(config)
            except Exception as error:
                print(f'triton persistent {m}x{n}x{k}: {error}', file=sys.stderr)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def perf_record():
    """bench/perf_record.py, imported on first use: only the merge needs it, and it runs
    here, beside this file (the GPU machine gets this script alone)."""
    bench = os.path.dirname(os.path.abspath(__file__))
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import perf_record as record
    return record


def merge(acopy_files, baseline_files, builds=None):
    """acopy-gpu-gemm's {cases, performance} files and baselines' rows: one
    {cases, performance} with ratio_to_cublas, ratio_to_triton (and
    ratio_to_triton_persistent where measured) per row, and on the
    cp.async path ratio_to_mma_sync_peak (the mma_peak row of the same dtype); each row
    also gets fraction_of_peak and, with `builds` (the folder of the build directories,
    e.g. .device/perf), the registers, spilled bytes and stages of its module
    (bench/perf_record.py)."""
    record = perf_record()
    cases, performance, anchors = [], [], {}
    for path in baseline_files:
        for row in json.load(open(path)):
            anchors[(row['dtype'], tuple(row['shape']))] = row
    # Each acopy file is one build (gemm_<chip>_<variant>.json): its name tells block,
    # producer warp, swizzled and bf16 apart, which the rows alone do not.
    documents = []
    for path in acopy_files:
        document = json.load(open(path))
        variant = os.path.splitext(os.path.basename(path))[0]
        for row in document['cases'] + document['performance']:
            row['variant'] = variant
        documents.append(document)
    # The register-only mma.sync peak per dtype (bench/mma_peak.py).
    peaks = {row['name'].split('_')[2]: row['tflops'] for document in documents
             for row in document['performance'] if row.get('mma_sync_peak')}
    for document in documents:
        cases += document['cases']
        for row in document['performance']:
            if row.get('mma_sync_peak'):
                performance.append(row)
                continue
            dtype = row['name'].split('_')[1]
            anchor = anchors.get((dtype, tuple(row['shape'])), {})
            row = dict(row)
            for key, column in (('cublas', 'cublas_tflops'), ('triton', 'triton_tflops'),
                                ('triton_persistent', 'triton_persistent_tflops')):
                if column in anchor:
                    row[column] = anchor[column]
                    row[f'ratio_to_{key}'] = row['tflops'] / anchor[column]
            if row['path'] == 'cp_async' and dtype in peaks:
                row['mma_sync_peak_tflops'] = peaks[dtype]
                row['ratio_to_mma_sync_peak'] = row['tflops'] / peaks[dtype]
            performance.append(record.add_facts(row, builds))
    return {'cases': cases, 'performance': performance}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('ptx_dir', nargs='?')
    parser.add_argument('--baselines', action='store_true',
                        help='time only cuBLAS and Triton at the timed shapes (a list of rows to --json)')
    parser.add_argument('--merge', nargs='+', metavar='JSON',
                        help="acopy-gpu-gemm's --json files, then --with the baselines' files: write the merged results to --json")
    parser.add_argument('--with', dest='with_', nargs='+', metavar='JSON', default=[])
    parser.add_argument('--builds', help='with --merge: the folder of the build directories (registers, spills, stages)')
    parser.add_argument('--run', help='with --merge: a label for every row (which device call measured it)')
    parser.add_argument('--append', help='with --merge: put the merged rows before those of this earlier record')
    parser.add_argument('--json', help='write {cases, performance} here')
    parser.add_argument('--chip', choices=sorted(DTYPE), default='sm_90a')
    parser.add_argument('--check', nargs=3, type=int, metavar=('M', 'N', 'K'), help=argparse.SUPPRESS)
    args = parser.parse_args()
    global CHIP
    CHIP = args.chip
    if args.merge:
        merged = perf_record().label_and_append(merge(args.merge, args.with_, args.builds), args.run, args.append)
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(merged, f, indent=1)
        print(json.dumps(merged['performance'], indent=1))
        return
    if args.baselines:
        rows = baselines()
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(rows, f, indent=1)
        return
    if args.ptx_dir is None:
        parser.error('ptx_dir is needed unless --baselines or --merge')
    if args.check:
        check(args.ptx_dir, *args.check)
        return
    cases = []
    for m, n, k in CHECK_SHAPES + TIME_SHAPES:
        run = subprocess.run([sys.executable, __file__, args.ptx_dir, '--chip', CHIP, '--check', str(m), str(n), str(k)],
                             capture_output=True, text=True, timeout=120)
        line = run.stdout.strip().splitlines()[-1:] or ['']
        try:
            case = json.loads(line[0])
        except json.JSONDecodeError:
            case = {'name': name(m, n, k), 'path': PATH[CHIP], 'shape': [m, n, k],
                    'exact_or_max_error': f'no result (exit {run.returncode}): {run.stderr[-300:]}', 'ok': False}
        print(json.dumps(case), flush=True)
        cases.append(case)
    performance = []
    triton_mm = triton_matmul()
    for m, n, k in TIME_SHAPES:
        row = time_shape(args.ptx_dir, m, n, k, triton_mm)
        print(json.dumps(row), flush=True)
        performance.append(row)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'cases': cases, 'performance': performance}, f, indent=1)


if __name__ == '__main__':
    main()
