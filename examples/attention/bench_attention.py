#!/usr/bin/env python3
"""The anchors of examples/attention/ on the GPU, and the merge of acopy's numbers with them.

--baselines (on the GPU machine, torch importable): torch.nn.functional.
scaled_dot_product_attention forward in bf16 at the shapes runtime/src/bin/acopy-gpu-attention
times (batch x heads 32 as 1 x 32, sequence 4096, head dims 64 and 128, causal and not) with
the flash backend and the cuDNN backend, each the median of 20 after 5, CUDA events;
TFLOP/s = 4 B H S^2 D / time (half when causal). Writes a list of rows to --json.

--merge A.json ... --with B.json ... --json OUT (here): acopy-gpu-attention's
{cases, performance} files and the baselines: {cases, performance} with ratio_to_sdpa_flash
and ratio_to_sdpa_cudnn per row (bench/results/attention-h200.json).
"""
import argparse
import json
import os
import sys

# The timing is bench_gemm's (beside this file in .device/tc, in ../gemm in the repo).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'gemm')]
from bench_gemm import median_ms  # noqa: E402

SHAPES = [(32, 4096, d, causal) for d in (64, 128) for causal in (False, True)]


def baselines():
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    rows = []
    for bh, s, d, causal in SHAPES:
        q, k, v = (torch.randn((1, bh, s, d), device='cuda', dtype=torch.bfloat16) for _ in range(3))
        flops = 4.0 * bh * s * s * d / (2 if causal else 1)
        row = {'shape': [bh, s, d], 'causal': causal}
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


def merge(acopy_files, baseline_files):
    anchors = {}
    for path in baseline_files:
        for row in json.load(open(path)):
            anchors[(tuple(row['shape']), row['causal'])] = row
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
            for key in ('sdpa_flash', 'sdpa_cudnn'):
                if f'{key}_tflops' in anchor:
                    row[f'{key}_tflops'] = anchor[f'{key}_tflops']
                    row[f'ratio_to_{key}'] = row['tflops'] / anchor[f'{key}_tflops']
            performance.append(row)
    return {'cases': cases, 'performance': performance}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--baselines', action='store_true')
    parser.add_argument('--merge', nargs='+', metavar='JSON')
    parser.add_argument('--with', dest='with_', nargs='+', metavar='JSON', default=[])
    parser.add_argument('--json')
    args = parser.parse_args()
    if args.merge:
        result = merge(args.merge, args.with_)
    elif args.baselines:
        result = baselines()
    else:
        parser.error('--baselines or --merge')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=1)


if __name__ == '__main__':
    main()
