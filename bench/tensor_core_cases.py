#!/usr/bin/env python3
"""Collects bench/results/tensor-core-h200.json (cases[] of {name, path, swizzle, dtype,
exact, consumer}) from GPU results, so the record is computed from the runs, not written
by hand:
  - the GPU suite's --results-json: every swizzle case (swz<S>_<dtype>), column panels,
    rows512, swizzled_index and wgmma case, swizzle and dtype read from the case name;
  - acopy-gpu-gemm results merged by bench_gemm.py (bench/results/gemm-h200.json): its
    checked cases (exact: small integers), each build's swizzle given on the command line
    as VARIANT=SWIZZLE (bench/RESULTS.md says which options each build took). Attention is
    compared within a tolerance, not exactly: bench/results/attention-h200.json has it.
Usage: python3 bench/tensor_core_cases.py SUITE.json... [--gemm G.json]
       [--swizzled VARIANT=S ...] --date D --command TEXT > bench/results/tensor-core-h200.json
"""
import argparse
import json
import re
import sys

SUITE_PATTERNS = [
    # (regex on the case name, consumer); groups: swizzle, dtype. The first match wins.
    (r'tma_store_swz(\d+)_(f16|bf16|f32|i8)_', 'swizzled TMA store (the global bytes against one host model)'),
    (r'swz(\d+)_(f16|bf16|f32|i8)_', 'the tile bytes (cp.async and TMA against one host model)'),
    (r'panels_s(\d+)_(f16|bf16|f32|i8)_', 'the tile bytes of column panels'),
    (r'swizzled_index_s(\d+)_(f16|bf16|f32|i8)', 'memref.load through acopy.swizzled_index'),
    (r'wgmma_(f16|bf16|tf32|i8)_s(\d+)_n\d+(_k\d+)?$', 'wgmma via acopy.wgmma_descriptor (K-major)'),
    (r'wgmma_(f16|bf16|tf32|i8)_s(\d+)_n\d+(_amn)?_bmn$', 'wgmma via acopy.wgmma_descriptor (MN-major)'),
    (r'wgmma_kloop', 'wgmma K loop in a marked loop (swizzle 128, f16)'),
]


def suite_cases(document):
    cases = []
    for case in document['cases']:
        name = case['name']
        for pattern, consumer in SUITE_PATTERNS:
            found = re.search(pattern, name)
            if not found:
                continue
            if name.startswith('wgmma_kloop'):
                swizzle, dtype = 128, 'f16'
            elif 'wgmma' in pattern:
                dtype, swizzle = found.group(1), int(found.group(2))
            else:
                swizzle, dtype = int(found.group(1)), found.group(2)
            cases.append({'name': name, 'path': case['path'], 'swizzle': swizzle, 'dtype': dtype,
                          'exact': bool(case['exact']), 'consumer': consumer})
            break
    return cases


def gemm_cases(document, swizzled):
    cases = []
    for case in document['cases']:
        variant = case.get('variant', '')
        if variant in swizzled:
            run = f" ({case['run']})" if 'run' in case else ''
            cases.append({'name': f"{variant}/{case['name']}{run}", 'path': case['path'],
                          'swizzle': swizzled[variant], 'dtype': case['name'].split('_')[1],
                          'exact': bool(case['ok']),
                          'consumer': 'GEMM: ldmatrix + mma.sync (cp_async) or wgmma (tma) on swizzled tiles'})
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('suite', nargs='+', help="the GPU suite's --results-json files")
    parser.add_argument('--gemm')
    parser.add_argument('--swizzled', nargs='*', default=[], metavar='VARIANT=SWIZZLE')
    parser.add_argument('--date', required=True)
    parser.add_argument('--command', required=True)
    args = parser.parse_args()
    swizzled = dict((v.split('=')[0], int(v.split('=')[1])) for v in args.swizzled)
    suites = [json.load(open(path)) for path in args.suite]
    cases = [case for suite in suites for case in suite_cases(suite)]
    if args.gemm:
        cases += gemm_cases(json.load(open(args.gemm)), swizzled)
    covered = {c['consumer'] for c in cases}
    not_covered = [] if any('TMA store' in c for c in covered) else ['swizzled TMA stores']
    json.dump({'date': args.date, 'device': suites[0].get('device'), 'command': args.command,
               'cases': cases, 'not_covered': not_covered}, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
