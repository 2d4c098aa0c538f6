#!/usr/bin/env python3
"""Launches one built GEMM (a bench/tc_sweep_build.py build at one shape) and cuBLAS at
that shape a few times each, on random normal bf16 inputs, for a profiler (Nsight
Compute) to look at: what bench/RESULTS.md's ncu tables come from. It checks nothing
and times nothing (bench/tc_sweep.py does both); its only output is the profiler's.

Usage (on the GPU machine):
  ncu --target-processes all -k regex:gemm_bf16_6000x10000 --section SpeedOfLight ... \
      python3 bench/gemm_profile.py --builds target/tc-sweep --build t256_ws_p132_tma_ob16 \
      --shape 6000x10000x3000 [--launches 3]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_launch  # noqa: E402
import tc_sweep  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--builds', required=True)
    parser.add_argument('--build', action='append', required=True)
    parser.add_argument('--shape', required=True, help='MxNxK')
    parser.add_argument('--launches', type=int, default=3)
    args = parser.parse_args()
    m, n, k = (int(v) for v in args.shape.split('x'))
    with open(os.path.join(args.builds, 'index.json')) as f:
        index = json.load(f)
    gpu = tc_sweep.Gpu()
    torch = gpu.torch
    gen = torch.Generator(device='cuda').manual_seed(m * 7 + n * 13 + k)
    src = torch.randn((m + n, k), device='cuda', dtype=torch.bfloat16, generator=gen)
    a, b = src[:m], src[m:]
    out = torch.empty((m, n), device='cuda', dtype=torch.bfloat16)
    for _ in range(args.launches):
        torch.matmul(a, b.T, out=out)
    for build in args.build:
        row = next(r for r in index['gemm'] if r['build'] == build and r['shape'] == [m, n, k] and r['ok'])
        kernel, _ = gpu.kernel(args.builds, row)
        grid = tuple(row.get('grid') or (-(-n // 128), -(-m // 128), 1))
        launch = kernel.bind([tc_launch.Buffer.of_torch(src), tc_launch.Buffer.of_torch(out)], grid)
        for _ in range(args.launches):
            launch(gpu.stream())
    torch.cuda.synchronize()
    print(f'launched {args.launches} x cuBLAS and each of {args.build} at {m}x{n}x{k}')


if __name__ == '__main__':
    main()
