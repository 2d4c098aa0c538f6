#!/usr/bin/env python3
"""Writes the MLIR of every example build into DIR, one file per generator command line:
the shapes and flags of examples/gemm/build.sh and examples/attention/build.sh as the
bench prepare scripts call them (bench/tensor_cores_prepare.sh,
bench/gemm_variants_prepare.sh, bench/attention_variants_prepare.sh), the cases of
examples/attention/run_attention.py, bench/mma_peak.py, examples/gemm/minimal.py and every
generator command of the lit tests (`%python .../examples/...` or `.../bench/...` in
tests/ptx/example-*.mlir).

A refactor of the generators changes no kernel: run this before and after, then diff.

    python3 examples/snapshot.py /tmp/before     # on the old tree
    python3 examples/snapshot.py /tmp/after      # on the new one
    diff -r /tmp/before /tmp/after && echo byte-identical

Each file holds its command line on the first line, then the generator's output; a
command that fails writes its exit status and standard error instead, so a failure that
changes is a difference too.
"""
import glob
import hashlib
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEMM = 'examples/gemm/gen.py'
ATTENTION = 'examples/attention/gen.py'
GEMM_SHAPES = [(128, 128, 64), (256, 256, 512), (384, 128, 1024), (1024, 1024, 4096),
               (200, 136, 72), (130, 260, 1000), (1, 1, 8),
               (8192, 8192, 8192), (4096, 4096, 4096), (8192, 8192, 512)]
# build.sh's arguments: stages producer chip swizzle dtype options.
GEMM_BUILDS = [
    ('4', 'block', 'sm_90a', '0', 'bf16', ''), ('4', 'warp', 'sm_90a', '0', 'bf16', ''),
    ('4', 'block', 'sm_80', '0', 'f16', ''), ('4', 'warp', 'sm_80', '0', 'f16', ''),
    ('3', 'block', 'sm_80', '64', 'f16', ''), ('4', 'block', 'sm_80', '0', 'bf16', ''),
    ('4', 'block', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --vstore=1'),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --vstore=1'),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --vstore=1 --persistent=132'),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --vstore=1 --persistent=3'),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --vstore=1 --persistent=132 --out=bf16'),
    ('3', 'warp', 'sm_90a', '0', 'bf16', '--raster=16 --vstore=1 --persistent=264 --out=bf16'),
    ('3', 'block', 'sm_90a', '0', 'bf16', '--raster=16 --vstore=1'),
    ('3', 'warp', 'sm_90a', '0', 'bf16', '--raster=16 --vstore=1 --persistent=264'),
    ('4', 'block', 'sm_90a', '0', 'bf16', '--cluster=2'),
    ('4', 'block', 'sm_90a', '0', 'bf16', '--b-major=n'),
    ('3', 'block', 'sm_80', '128', 'f16', '--tile=128x128 --bk=64 --warp=64x64 --vstore=1'),
    ('3', 'block', 'sm_80', '128', 'f16', '--tile=128x256 --bk=64 --warp=64x64 --raster=16 --vstore=1'),
    ('4', 'block', 'sm_80', '64', 'f16', '--tile=128x128 --bk=32 --warp=64x64 --vstore=1'),
    ('3', 'block', 'sm_80', '0', 'f16', '--b-major=n'), ('auto', 'block', 'sm_90a', '0', 'bf16', ''),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --persistent=132 --out=bf16 --epilogue=tma --ring=1'),
    ('6', 'warp', 'sm_90a', '0', 'bf16', '--raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=auto'),
    ('4', 'warp', 'sm_90a', '0', 'bf16', '--tile=128x256 --raster=16 --persistent=132 --out=bf16 --epilogue=tma --cluster=2'),
]
ATTENTION_SHAPES = ['2x256x64-', '2x256x64c', '2x256x128-', '2x256x128c', '3x200x64c', '1x1x64-',
                    '1x64x128c', '32x4096x64-', '32x4096x64c', '32x4096x128-', '32x4096x128c']
# build.sh's arguments: stages chip dtype swizzle rows qk pv.
ATTENTION_BUILDS = [
    ('2', 'sm_80', 'bf16', '0', '64', 'mma', 'mma'), ('2', 'sm_90', 'bf16', '0', '64', 'mma', 'mma'),
    ('2', 'sm_80', 'f16', '0', '64', 'mma', 'mma'), ('2', 'sm_90', 'bf16', '128', '64', 'mma', 'mma'),
    ('2', 'sm_90', 'bf16', '128', '128', 'mma', 'mma'), ('2', 'sm_90', 'bf16', '128', '64', 'wgmma', 'mma'),
    ('3', 'sm_90', 'bf16', '128', '64', 'wgmma', 'mma'), ('2', 'sm_90', 'bf16', '128', '64', 'wgmma', 'wgmma'),
    ('3', 'sm_90', 'bf16', '128', '64', 'wgmma', 'wgmma'), ('2', 'sm_80', 'bf16', '128', '64', 'mma', 'mma'),
    ('2', 'sm_80', 'bf16', '128', '128', 'mma', 'mma'), ('auto', 'sm_80', 'f16', '0', '64', 'mma', 'mma'),
]
RUN_ATTENTION = [(2, 256, 64, False), (2, 256, 64, True), (2, 256, 128, True), (3, 200, 64, True),
                 (1, 1, 128, False), (4, 1000, 128, False)]


def commands():
    """Every generator command line, as argument lists relative to the repository root."""
    for stages, producer, chip, swizzle, dtype, options in GEMM_BUILDS:
        for m, n, k in GEMM_SHAPES:
            yield [GEMM, str(m), str(n), str(k), stages, producer, f'--chip={chip}', f'--swizzle={swizzle}',
                   f'--dtype={dtype}'] + options.split()
    for stages, chip, dtype, swizzle, rows, qk, pv in ATTENTION_BUILDS:
        for shape in ATTENTION_SHAPES:
            bh, s, rest = shape.split('x')
            causal = ['--causal'] if rest.endswith('c') else []
            yield [ATTENTION, bh, s, rest[:-1], stages] + causal + [
                f'--chip={chip}', f'--dtype={dtype}', f'--swizzle={swizzle}', f'--rows={rows}', f'--qk={qk}',
                f'--pv={pv}']
    for bh, s, d, causal in RUN_ATTENTION:
        for chip in ('sm_80', 'sm_90'):
            for dtype in ('bf16', 'f16'):
                yield [ATTENTION, str(bh), str(s), str(d), '2'] + (['--causal'] if causal else []) + [
                    f'--chip={chip}', f'--dtype={dtype}']
    peak = 'bench/mma_peak.py' if os.path.exists(os.path.join(ROOT, 'bench/mma_peak.py')) else 'examples/gemm/mma_peak.py'
    for iters in ('64', '4096'):
        for dtype in ('f16', 'bf16'):
            yield [peak, iters, f'--dtype={dtype}']
    for chip in ('sm_80', 'sm_90'):
        yield ['examples/gemm/minimal.py', f'--chip={chip}']
    # The lit tests' own command lines.
    for test in sorted(glob.glob(os.path.join(ROOT, 'tests/ptx/example-*.mlir'))):
        for line in open(test):
            found = re.search(r'%python %S/\.\./\.\./(\S+\.py)([^>|]*)', line)
            if found:
                yield [found.group(1)] + shlex.split(found.group(2))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: python3 examples/snapshot.py DIR')
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seen = set()
    for command in commands():
        # Named by what the generator is, not where it lives (bench/mma_peak.py moved).
        script = command[0]
        label = 'mma_peak' if script.endswith('mma_peak.py') else script.replace('/', '_')
        key = ' '.join([label] + command[1:])
        if key in seen or not os.path.exists(os.path.join(ROOT, script)):
            continue
        seen.add(key)
        run = subprocess.run([sys.executable] + command, cwd=ROOT, capture_output=True, text=True)
        text = run.stdout if run.returncode == 0 else f'exit {run.returncode}\n{run.stderr}'
        name = re.sub(r'[^A-Za-z0-9_.=-]+', '_', key)
        if len(name) > 200:
            # A file name is at most 255 bytes: a long command keeps its start and a digest.
            name = name[:180] + '_' + hashlib.sha1(key.encode()).hexdigest()[:12]
        with open(os.path.join(out, name + '.mlir'), 'w') as f:
            f.write(f'// {key}\n{text}')
    print(f'{len(seen)} generator outputs in {out}')


if __name__ == '__main__':
    main()
