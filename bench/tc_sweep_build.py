#!/usr/bin/env python3
"""Builds, here, every module the tensor-core sweep (bench/tc_sweep.py) checks and times:
each GEMM build of examples/gemm/choose.py at each shape of bench/tc_sweep_shapes.py and
each attention build at each attention shape: gen.py -> acopy-opt (PTX + manifest) ->
ptxas -v (a cubin for sm_90a, which the GPU machine loads as is, so the registers and
spills recorded are those of the code that runs). Writes OUT/index.json:

  {"gemm": [{shape, build, name, dir, registers, spills, stack, stages, shared_bytes,
             ok, refused?, seconds}], "attention": [...], "acopy_opt", "ptxas", "commit"}

A shape a build cannot take is refused by the generator (or acopy-opt) with an error
naming the limit; it is listed with `refused` and never launched. --only gemm|attention
builds one half; --shapes N keeps the first N shapes of each (a quick build); --shape KEY
(repeatable, tc_sweep.py run's names) only the shapes named; --builds REGEX only the
builds it matches. A second run into the same OUT adds its modules to the
index (a row per build and shape, the newest kept; each row names its commit).
--tag TAG names each build NAME@TAG: built into one OUT by two acopy-opt binaries (ACOPY_OPT),
the same kernels of two compilers run interleaved in one process on the card.
Usage: python3 bench/tc_sweep_build.py OUT [--jobs J] [--only gemm|attention] [--shapes N] [--shape KEY ...] [--builds REGEX] [--tag TAG] [--cubins-only]
(acopy-opt: $ACOPY_OPT or target/debug/acopy-opt; ptxas: $ACOPY_PTXAS or .venv/bin/ptxas)
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tc_sweep_shapes as shapes  # noqa: E402
from choose import gen_args, grid  # noqa: E402  (examples/gemm, on the path through tc_sweep_shapes)

OPT = os.environ.get('ACOPY_OPT', os.path.join(ROOT, 'target', 'debug', 'acopy-opt'))
PTXAS = os.environ.get('ACOPY_PTXAS', os.path.join(ROOT, '.venv', 'bin', 'ptxas'))


def ptxas_facts(text):
    """Registers, spilled bytes (stores) and stack frame from ptxas -v, and whether ptxas
    serialized the kernel's wgmma (its "Potential Performance Loss" warning)."""
    facts = {'wgmma_serialized': 'Potential Performance Loss' in text}
    m = re.search(r'Used (\d+) registers', text)
    facts['registers'] = int(m.group(1)) if m else None
    m = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', text)
    facts['spills'] = int(m.group(1)) + int(m.group(2)) if m else None
    m = re.search(r'(\d+) bytes stack frame', text)
    facts['stack'] = int(m.group(1)) if m else None
    return facts


def remark_facts(text):
    """Stages and shared memory from acopy-opt's pipeline remark."""
    facts = {}
    m = re.search(r'acopy\.pipeline: (\d+) stages', text)
    facts['stages'] = int(m.group(1)) if m else None
    m = re.search(r'(\d+) bytes of shared memory', text)
    facts['shared_bytes'] = int(m.group(1)) if m else None
    return facts


def build_one(job):
    """gen -> acopy-opt -> ptxas for one (kind, build, shape); returns its index row (its
    build named NAME@TAG with --tag)."""
    kind, build, shape, out, tag = job
    start = time.time()
    if kind == 'gemm':
        m, n, k = shape
        name = shapes.gemm_name(m, n, k, build)
        gen = [sys.executable, os.path.join(ROOT, 'examples', 'gemm', 'gen.py')] + gen_args(build, m, n, k)
        arch, fallback = 'sm_90a', False
        launch = list(grid(build, m, n, k))
    else:
        b, h, s, d, causal = shape
        cfg = shapes.ATTN_BUILDS[build]
        name = shapes.attn_name(b, h, s, d, causal)
        gen = [sys.executable, os.path.join(ROOT, 'examples', 'attention', 'gen.py'), str(b * h), str(s), str(d)
               ] + shapes.attn_gen_args(build) + (['--causal'] if causal else [])
        # The sm_80 build's PTX (cp.async, mma.sync) is assembled for the sm_90 card it runs on.
        arch = 'sm_90' if cfg['chip'] == 'sm_80' else cfg['chip'] + ('a' if cfg['qk'] == 'wgmma' else '')
        # A D = 128 row is two swizzled column panels, which both paths copy in fallback
        # mode; cp.async zero-fills a ragged sequence's last tile in fallback mode only.
        fallback = bool(cfg['swizzle'] and d * 2 > cfg['swizzle']) or cfg['chip'] == 'sm_80'
        launch = None
    build = shapes.tagged(build, tag)
    folder = os.path.join(out, kind, build)
    base = os.path.join(folder, name)
    row = {'shape': list(shape), 'build': build, 'name': name, 'dir': os.path.relpath(folder, out), 'grid': launch}
    g = subprocess.run(gen, capture_output=True, text=True)
    if g.returncode:
        row.update(ok=False, refused=(g.stderr.strip().splitlines() or ['gen.py failed'])[-1])
        return row
    cmd = [OPT, '-', '--acopy-lower', '--emit=ptx', '-o', base + '.ptx', f'--tma-manifest={base}.manifest.json']
    if fallback:
        cmd.insert(2, '--acopy-fallback')
    o = subprocess.run(cmd, input=g.stdout, capture_output=True, text=True)
    if o.returncode:
        errors = [line for line in o.stderr.splitlines() if 'error' in line]
        row.update(ok=False, refused=(errors or o.stderr.strip().splitlines() or ['acopy-opt failed'])[-1])
        return row
    row.update(remark_facts(o.stderr))
    p = subprocess.run([PTXAS, '-v', f'-arch={arch}', base + '.ptx', '-o', base + '.cubin'], capture_output=True, text=True)
    row.update(ptxas_facts(p.stderr + p.stdout))
    row['cubin'] = p.returncode == 0
    if p.returncode:
        row['ptxas_error'] = p.stderr.strip()[-300:]
    if row['wgmma_serialized']:
        # Exact but not the kernel that was written: ptxas runs each wgmma alone (at D = 128
        # the 128 x 128 attention tiles held to 128 registers spill). Never timed.
        loss = next(line for line in (p.stderr + p.stdout).splitlines() if 'Potential Performance Loss' in line)
        row.update(ok=False, refused=f'{loss.strip()} ({row["spills"]} bytes spilled)')
        return row
    row['ok'] = True
    row['seconds'] = round(time.time() - start, 2)
    return row


def drop_ptx(out, rows):
    """Removes the .ptx of every row of `rows` whose .cubin exists in `out`; returns how
    many. A module without a cubin keeps its PTX (the sweep then JIT-loads it)."""
    dropped = 0
    for row in rows['gemm'] + rows['attention']:
        base = os.path.join(out, row['dir'], row['name'])
        if row.get('cubin') and os.path.exists(base + '.cubin') and os.path.exists(base + '.ptx'):
            os.remove(base + '.ptx')
            dropped += 1
    return dropped


def merged(path, rows):
    """The rows of this run over those of an earlier index in the same OUT: a run with --only
    or --builds adds to the modules already built there instead of hiding them from the sweep.
    A row of this run replaces the earlier row of its build and shape; each row names the
    commit it was built at."""
    try:
        with open(path) as f:
            earlier = json.load(f)
    except (OSError, ValueError):
        return rows
    result = {}
    for kind, new in rows.items():
        rebuilt = {(row['build'], tuple(row['shape'])) for row in new}
        kept = [row for row in earlier.get(kind, []) if (row['build'], tuple(row['shape'])) not in rebuilt]
        result[kind] = kept + new
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('out')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    parser.add_argument('--only', choices=['gemm', 'attention'])
    parser.add_argument('--shapes', type=int, help='the first N shapes of each kind only')
    parser.add_argument('--shape', action='append',
                        help="only this shape, as tc_sweep.py run's --shape names it (e.g. 512x512x16384, 1x32x4096x64c); "
                             'repeatable: a device call carries only the modules it runs')
    parser.add_argument('--builds', help='only the builds whose name this regular expression matches (re.fullmatch)')
    parser.add_argument('--tag', type=lambda t: t if re.fullmatch(r'[A-Za-z0-9_]+', t) else parser.error(
                        f'--tag {t!r}: letters, digits and _ only'),
                        help='name each build NAME@TAG (ACOPY_OPT another compiler: bench/tc_sweep.py times both in one '
                             'process, `tc_sweep.py tags RECORD A B` compares them)')
    parser.add_argument('--cubins-only', action='store_true',
                        help="remove each module's PTX where its cubin was built (the sweep loads the cubin): "
                             'what a device call carries stays under its size limit')
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    for tool in (OPT, PTXAS):
        if not os.access(tool, os.X_OK):
            sys.exit(f'tc_sweep_build.py: {tool} is missing (cargo build -p acopy-opt; bash scripts/install-deps.sh)')
    jobs = []
    try:
        gemm_shapes = shapes.pick(shapes.GEMM_SHAPES, args.shapes, args.shape)
        attn_shapes = shapes.pick(shapes.ATTN_SHAPES, args.shapes, args.shape)
    except ValueError as e:
        sys.exit(f'tc_sweep_build.py: {e}')
    if args.only in (None, 'gemm'):
        jobs += [('gemm', build, shape, out, args.tag) for shape in gemm_shapes for build in shapes.GEMM_BUILDS]
    if args.only in (None, 'attention'):
        jobs += [('attention', build, shape, out, args.tag) for shape in attn_shapes for build in shapes.ATTN_BUILDS]
    if args.builds:
        jobs = [job for job in jobs if re.fullmatch(args.builds, job[1])]
        if not jobs:
            sys.exit(f'tc_sweep_build.py: no build matches {args.builds!r}')
    for kind, build, _, _, tag in jobs:
        os.makedirs(os.path.join(out, kind, shapes.tagged(build, tag)), exist_ok=True)
    rows = {'gemm': [], 'attention': []}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, row in zip(jobs, pool.map(build_one, jobs)):
            rows[job[0]].append(row)
            status = 'refused: ' + row['refused'] if row.get('refused') else \
                f'{row.get("registers")} registers, {row.get("spills")} bytes spilled, {row.get("stages")} stages'
            print(f'{job[0]:9} {row["build"]:18} {row["name"]:34} {status}', flush=True)
    commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    ptxas_version = subprocess.run([PTXAS, '--version'], capture_output=True, text=True).stdout.strip().splitlines()[-1:]
    dirty = subprocess.run(['git', '-C', ROOT, 'status', '--porcelain', 'examples', 'bench'], capture_output=True, text=True).stdout.split('\n')
    for row in rows['gemm'] + rows['attention']:
        row['commit'] = commit
    index = {'commit': commit, 'uncommitted': [line for line in dirty if line.strip()], 'acopy_opt': OPT,
             'ptxas': ptxas_version, **merged(os.path.join(out, 'index.json'), rows)}
    with open(os.path.join(out, 'index.json'), 'w') as f:
        json.dump(index, f, indent=1)
    built = sum(r['ok'] for r in rows['gemm'] + rows['attention'])
    refused = sum(bool(r.get('refused')) for r in rows['gemm'] + rows['attention'])
    dropped = drop_ptx(out, rows) if args.cubins_only else 0
    print(f'built {built} modules into {out}; refused {refused}' + (f'; {dropped} PTX files removed' if dropped else ''))


if __name__ == '__main__':
    main()
