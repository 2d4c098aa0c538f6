#!/usr/bin/env python3
"""The anchors of examples/attention/ on the GPU, and the merge of acopy's numbers with them.

--baselines (on the GPU machine, torch importable): torch.nn.functional.
scaled_dot_product_attention forward in bf16 at the shapes runtime/src/bin/acopy-gpu-attention
times (batch x heads 32 as 1 x 32, sequence 4096, head dims 64 and 128, causal and not) with
the flash backend and the cuDNN backend, and a FlashAttention-2 style Triton kernel
(triton_attention, the fastest of TRITON_CONFIGS that matches SDPA), each the median of
20 after 5, CUDA events;
TFLOP/s = 4 B H S^2 D / time (half when causal). Writes a list of rows to --json.

--merge A.json ... --with B.json ... --json OUT (here): acopy-gpu-attention's
{cases, performance} files and the baselines: {cases, performance} with ratio_to_sdpa_flash,
ratio_to_sdpa_cudnn and ratio_to_triton per row (bench/results/attention-h200.json).
"""
import argparse
import json
import os
import sys

# The timing is bench_gemm's (beside this file, here in bench/ and in .device/tc).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_gemm import median_ms  # noqa: E402

SHAPES = [(32, 4096, d, causal) for d in (64, 128) for causal in (False, True)]


# Triton attention's configurations (BM, BN, stages, warps); each shape takes the fastest.
TRITON_CONFIGS = [(128, 64, 2, 8), (128, 64, 3, 8), (128, 128, 2, 8), (64, 64, 3, 4)]


def triton_attention():
    """A FlashAttention-2 style forward written in Triton (online softmax in log2 units,
    bf16 in, f32 out like acopy's kernel): run(q, k, v, out, causal, config) over
    (BH, S, D) tensors, one program per BM query rows of one head."""
    import triton
    import triton.language as tl

    @triton.jit
    def fwd(q, k, v, out, S, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
            CAUSAL: tl.constexpr):
        start, head = tl.program_id(0), tl.program_id(1)
        rows = start * BM + tl.arange(0, BM)
        cols = tl.arange(0, D)
        base = head * S * D
        qb = tl.load(q + base + rows[:, None] * D + cols[None, :], mask=rows[:, None] < S, other=0.0)
        m = tl.full((BM,), float('-inf'), tl.float32)
        l = tl.zeros((BM,), tl.float32)
        acc = tl.zeros((BM, D), tl.float32)
        end = tl.minimum(S, (start + 1) * BM) if CAUSAL else S
        for n0 in range(0, end, BN):
            keys = n0 + tl.arange(0, BN)
            kb = tl.load(k + base + keys[:, None] * D + cols[None, :], mask=keys[:, None] < S, other=0.0)
            x = tl.dot(qb, tl.trans(kb)) * scale
            keep = keys[None, :] < S
            if CAUSAL:
                keep = keep & (keys[None, :] <= rows[:, None])
            x = tl.where(keep, x, float('-inf'))
            m_new = tl.maximum(m, tl.max(x, 1))
            p = tl.exp2(x - m_new[:, None])
            alpha = tl.exp2(m - m_new)
            l = l * alpha + tl.sum(p, 1)
            vb = tl.load(v + base + keys[:, None] * D + cols[None, :], mask=keys[:, None] < S, other=0.0)
            acc = acc * alpha[:, None] + tl.dot(p.to(vb.dtype), vb)
            m = m_new
        tl.store(out + base + rows[:, None] * D + cols[None, :], acc / l[:, None], mask=rows[:, None] < S)

    def run(q, k, v, out, causal, config):
        bm, bn, stages, warps = config
        bh, s, d = q.shape
        scale = 1.4426950408889634 / d ** 0.5
        fwd[(-(-s // bm), bh)](q, k, v, out, s, scale, D=d, BM=bm, BN=bn, CAUSAL=causal,
                               num_stages=stages, num_warps=warps)
    return run


def triton_row(run, q, k, v, causal, flops):
    """Triton attention's TFLOP/s at its fastest configuration that matches SDPA in
    float32 within 2e-2 (a configuration that fails or is wrong is skipped)."""
    import torch
    import torch.nn.functional as F
    q3, k3, v3 = (t[0] for t in (q, k, v))
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)[0]
    out = torch.empty(q3.shape, device='cuda', dtype=torch.float32)
    best = None
    for config in TRITON_CONFIGS:
        try:
            run(q3, k3, v3, out, causal, config)
            error = (out - want).abs().max().item()
            if not error <= 2e-2:
                print(f'triton attention {config}: max error {error}', file=sys.stderr)
                continue
            ms = median_ms(lambda: run(q3, k3, v3, out, causal, config))
        except Exception as error:  # a configuration that does not fit costs only itself
            print(f'triton attention {config}: {error}', file=sys.stderr)
            continue
        best = ms if best is None else min(best, ms)
    return None if best is None else flops / (best * 1e-3) / 1e12


def baselines():
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    rows = []
    try:
        triton_run = triton_attention()
    except Exception as error:  # no Triton costs only its column
        print(f'triton attention: {error}', file=sys.stderr)
        triton_run = None
    for bh, s, d, causal in SHAPES:
        q, k, v = (torch.randn((1, bh, s, d), device='cuda', dtype=torch.bfloat16) for _ in range(3))
        flops = 4.0 * bh * s * s * d / (2 if causal else 1)
        row = {'shape': [bh, s, d], 'causal': causal}
        if triton_run is not None:
            tflops = triton_row(triton_run, q, k, v, causal, flops)
            if tflops is not None:
                row['triton_tflops'] = tflops
        for key, backend in (('sdpa_flash', SDPBackend.FLASH_ATTENTION), ('sdpa_cudnn', SDPBackend.CUDNN_ATTENTION)):
            try:
                with sdpa_kernel(backend):
                    ms = median_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                row[f'{key}_tflops'] = flops / (ms * 1e-3) / 1e12
            except Exception as error:  # a backend this torch lacks costs only its column
                print(f'{key} {bh}x{s}x{d}: {error}', file=sys.stderr)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def perf_record():
    """bench/perf_record.py, imported on first use: only the merge needs it, and it runs
    here, beside bench/ (the GPU machine gets this script alone)."""
    bench = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bench')
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import perf_record as record
    return record


def merge(acopy_files, baseline_files, builds=None):
    """acopy-gpu-attention's files and the baselines' rows: {cases, performance}, each
    performance row with its ratios, fraction_of_peak and, with `builds` (the folder of
    the build directories), its module's registers, spilled bytes and stages
    (bench/perf_record.py, here-side)."""
    record = perf_record()
    anchors = {}
    for path in baseline_files:
        for row in json.load(open(path)):
            # A later file's columns win; the columns it lacks stay (SDPA of one run,
            # Triton of another).
            anchors.setdefault((tuple(row['shape']), row['causal']), {}).update(row)
    cases, performance = [], []
    for path in acopy_files:
        document = json.load(open(path))
        # Each file is one build (attn_<chip>_<variant>.json): its name tells the builds
        # of one path apart (swizzled, wgmma), which the rows alone do not.
        variant = os.path.splitext(os.path.basename(path))[0]
        cases += [dict(case, variant=variant) for case in document['cases']]
        for row in document['performance']:
            row = dict(row, variant=variant)
            anchor = anchors.get((tuple(row['shape']), row['causal']), {})
            for key in ('sdpa_flash', 'sdpa_cudnn', 'triton'):
                if f'{key}_tflops' in anchor:
                    row[f'{key}_tflops'] = anchor[f'{key}_tflops']
                    row[f'ratio_to_{key}'] = row['tflops'] / anchor[f'{key}_tflops']
            performance.append(record.add_facts(row, builds))
    return {'cases': cases, 'performance': performance}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--baselines', action='store_true')
    parser.add_argument('--merge', nargs='+', metavar='JSON')
    parser.add_argument('--with', dest='with_', nargs='+', metavar='JSON', default=[])
    parser.add_argument('--builds', help='with --merge: the folder of the build directories (registers, spills, stages)')
    parser.add_argument('--run', help='with --merge: a label for every row (which device call measured it)')
    parser.add_argument('--append', help='with --merge: put the merged rows before those of this earlier record')
    parser.add_argument('--json')
    args = parser.parse_args()
    if args.merge:
        result = perf_record().label_and_append(merge(args.merge, args.with_, args.builds), args.run, args.append)
    elif args.baselines:
        result = baselines()
    else:
        parser.error('--baselines or --merge')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=1)


if __name__ == '__main__':
    main()
