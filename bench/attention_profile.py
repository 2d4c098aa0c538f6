#!/usr/bin/env python3
"""Launches built attention kernels (bench/tc_sweep_build.py builds at one shape) and SDPA's
cuDNN backend at that shape a few times each, on random normal bf16 inputs, for a profiler
(Nsight Compute) to look at: what bench/RESULTS.md's attention ncu table comes from. It
checks nothing and times nothing (bench/tc_sweep.py does both); its only output is the
profiler's.

Usage (on the GPU machine):
  ncu --target-processes all -k regex:'attn_bf16|sdpa|fprop' --section SpeedOfLight ... \\
      python3 bench/attention_profile.py --builds target/tc-sweep --build e_r128_k64 \\
      --shape 4x32x1024x128 [--causal] [--launches 2]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_launch  # noqa: E402
import tc_sweep  # noqa: E402
import tc_sweep_shapes as shapes  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--builds', required=True)
    parser.add_argument('--build', action='append', required=True)
    parser.add_argument('--shape', required=True, help='BxHxSxD')
    parser.add_argument('--causal', action='store_true')
    parser.add_argument('--launches', type=int, default=2)
    args = parser.parse_args()
    bsz, heads, s, d = (int(v) for v in args.shape.split('x'))
    with open(os.path.join(args.builds, 'index.json')) as f:
        index = json.load(f)
    gpu = tc_sweep.Gpu()
    torch = gpu.torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    gen = torch.Generator(device='cuda').manual_seed(bsz * 7919 + heads * 131 + s * 7 + d)
    q, k, v = (torch.randn((bsz, heads, s, d), device='cuda', generator=gen, dtype=torch.float32).to(torch.bfloat16)
               for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for _ in range(args.launches):
            F.scaled_dot_product_attention(q, k, v, is_causal=args.causal)
    shape = [bsz, heads, s, d, args.causal]
    views = [t.view(bsz * heads, s, d) for t in (q, k, v)]
    for build in args.build:
        row = next(r for r in index['attention'] if r['build'] == build and r['shape'] == shape and r['ok'])
        kernel, _ = gpu.kernel(args.builds, row)
        cfg = shapes.ATTN_BUILDS[build]
        out = torch.empty((bsz * heads, s, d), device='cuda',
                          dtype=torch.bfloat16 if cfg['out'] == 'bf16' else torch.float32)
        grid = shapes.attention_choose.grid(build, bsz * heads, s)
        launch = kernel.bind([tc_launch.Buffer.of_torch(t) for t in views + [out]], grid)
        for _ in range(args.launches):
            launch(gpu.stream())
    torch.cuda.synchronize()
    print(f'launched {args.launches} x cuDNN and each of {args.build} at {args.shape}{" causal" if args.causal else ""}')


if __name__ == '__main__':
    main()
