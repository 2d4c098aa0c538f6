#!/usr/bin/env python3
"""Attention on torch tensors, the way a frontend uses acopy: generate the kernel
(examples/attention/gen.py), compile it with acopy.compile (fallback mode when the
sequence is ragged and the chip is cp.async-only), launch it through acopy.Kernel on
torch tensors, and compare with torch.nn.functional.scaled_dot_product_attention
computed in float32 on the same inputs.

    python3 examples/attention/run_attention.py [--chip sm_80|sm_90] [--dtype bf16|f16]

needs a GPU, torch and the acopy package (pip install ./python). Each (heads, sequence,
head dim, causal) case prints one JSON line {name, path, shape, causal,
exact_or_max_error, ok}; a case passes when the largest absolute difference is at most
2e-2 (bf16) or 1e-2 (f16). Exit status 1 when any case fails.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

CASES = [(2, 256, 64, False), (2, 256, 64, True), (2, 256, 128, True), (3, 200, 64, True),
         (1, 1, 128, False), (4, 1000, 128, False)]


def run(bh, s, d, causal, chip, dtype):
    import acopy
    import torch
    import torch.nn.functional as F
    source = gen.attention(bh, s, d, '2', causal, chip, dtype)
    compiled = acopy.compile(source, fallback=chip == 'sm_80' and s % gen.BN != 0)
    name = f'attn_{dtype}_{bh}x{s}x{d}' + ('_causal' if causal else '')
    kernel = compiled.kernel(name)
    torch_dtype = torch.bfloat16 if dtype == 'bf16' else torch.float16
    g = torch.Generator(device='cuda').manual_seed(bh * 7919 + s * 31 + d)
    q, k, v = (torch.randn((bh, s, d), device='cuda', generator=g).to(torch_dtype) for _ in range(3))
    out = torch.full((bh, s, d), float('nan'), device='cuda', dtype=torch.float32)
    kernel(q, k, v, out, grid=(-(-s // gen.BM), bh))
    torch.cuda.synchronize()
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    error = (out - want).abs().max().item()
    tolerance = 2e-2 if dtype == 'bf16' else 1e-2
    ok = error <= tolerance
    print(json.dumps({'name': name, 'path': 'cp_async' if chip == 'sm_80' else 'tma',
                      'shape': [bh, s, d], 'causal': causal, 'exact_or_max_error': error, 'ok': ok}),
          flush=True)
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--chip', choices=['sm_80', 'sm_90'], default='sm_90')
    parser.add_argument('--dtype', choices=['bf16', 'f16'], default='bf16')
    args = parser.parse_args()
    results = [run(*case, args.chip, args.dtype) for case in CASES]
    sys.exit(0 if all(results) else 1)


if __name__ == '__main__':
    main()
