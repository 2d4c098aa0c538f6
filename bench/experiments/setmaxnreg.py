#!/usr/bin/env python3
"""Experiment (bench/RESULTS.md, 2026-12-06 (night), call 2): what `setmaxnreg` gives the
producer-warp attention builds, measured before the pass emitted it and kept for the split
the pass does not take: FlashAttention-3's 24 / 240 against the pass's 40 / 232
(`producer = "warpgroup"`, docs/pipelining.md, "A producer warpgroup"; as fast, call 2). A kernel with a producer warp
launches 288 threads, and ptxas budgets registers for whole warpgroups (384 threads: at
most 168 each), so the consumers of examples/attention/gen.py --keys=128 --producer=warp
spill at D = 128. This rewrites such a module's PTX and manifest into the FlashAttention-3
shape: a whole producer warpgroup (block 288 -> 384; its three extra warps only leave),
which gives registers back with `setmaxnreg.dec` (to PRODUCER) while the two consumer
warpgroups take them with `setmaxnreg.inc` (to CONSUMERS). Each warpgroup runs its
instruction once, in step: the producer's right where the producer's branch begins,
the consumers' right after their `tid < 256` branch.
  python3 bench/experiments/setmaxnreg.py SWEEP_DIR BUILD [PRODUCER CONSUMERS]
adds build `BUILD` with `ppw_` -> `ppwsm_` to SWEEP_DIR (bench/tc_sweep_build.py's output;
index.json gains its rows, with ptxas's registers and spills); examples/attention/choose.py
must name the new build (same options as BUILD) for bench/tc_sweep.py to time it.
The pass's own form also declares `.minnctapersm 1`, so ptxas launches at its bound;
these kernels reach that bound without it (they need more than 168 registers).
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PTXAS = os.environ.get('ACOPY_PTXAS', os.path.join(ROOT, '.venv', 'bin', 'ptxas'))


def rewrite(ptx, producer, consumers):
    """The module with a 384-thread block and the two setmaxnreg; raises if the producer
    warp's branch (`setp.ne.b32 %p, %tid, 256`) or the consumers' (`setp.gt.u32 %p,
    %tid, 255` then a branch) is not where gen.py's producer-warp kernels have it."""
    if '.maxntid 288, 1, 1' not in ptx:
        raise ValueError('no .maxntid 288: not a producer-warp kernel of 256 consumers')
    lines = ptx.replace('.maxntid 288, 1, 1', '.maxntid 384, 1, 1').split('\n')
    out, dec, inc = [], False, False
    for i, line in enumerate(lines):
        m = re.match(r'\s*setp\.ne\.b32\s+%p\d+, (%r\d+), 256;', line)
        if m and not dec:
            out += [f'\tsetp.gt.u32 %p_smn, {m.group(1)}, 255;', '\t@!%p_smn bra SMN_SKIP;',
                    f'\tsetmaxnreg.dec.sync.aligned.u32 {producer};', 'SMN_SKIP:']
            dec = True
        out.append(line)
        if dec and not inc and re.match(r'\s*@%p\d+ bra\s+\$L__BB0_\d+;', line) \
                and re.match(r'\s*setp\.gt\.u32\s+%p\d+, %r\d+, 255;', lines[i - 1]):
            out.append(f'\tsetmaxnreg.inc.sync.aligned.u32 {consumers};')
            inc = True
    if not (dec and inc):
        raise ValueError('the producer or consumer branch is not where this rewrite expects it')
    return '\n'.join(out).replace('\t.reg .pred \t%p<', '\t.reg .pred %p_smn;\n\t.reg .pred \t%p<', 1)


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit('usage: python3 bench/experiments/setmaxnreg.py SWEEP_DIR BUILD [PRODUCER CONSUMERS]')
    root, base = sys.argv[1], sys.argv[2]
    producer, consumers = (int(v) for v in sys.argv[3:5]) if len(sys.argv) == 5 else (24, 240)
    new = base.replace('ppw_', 'ppwsm_', 1)
    index_path = os.path.join(root, 'index.json')
    index = json.load(open(index_path))
    src, dst = os.path.join(root, 'attention', base), os.path.join(root, 'attention', new)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    rows = []
    for row in index['attention']:
        if row['build'] != base or not row['ok']:
            continue
        name = row['name']
        with open(os.path.join(src, name + '.ptx')) as f:
            text = rewrite(f.read(), producer, consumers)
        with open(os.path.join(dst, name + '.ptx'), 'w') as f:
            f.write(text)
        manifest = json.load(open(os.path.join(src, name + '.manifest.json')))
        for kernel in manifest['kernels']:
            kernel['block'] = [384, 1, 1]
        json.dump(manifest, open(os.path.join(dst, name + '.manifest.json'), 'w'), indent=2)
        p = subprocess.run([PTXAS, '-v', '-arch=sm_90a', os.path.join(dst, name + '.ptx'), '-o',
                            os.path.join(dst, name + '.cubin')], capture_output=True, text=True)
        if p.returncode:
            sys.exit(f'setmaxnreg.py: ptxas refused {name}: {p.stderr.strip()[-300:]}')
        spills = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', p.stderr)
        rows.append(dict(row, build=new, dir=f'attention/{new}',
                         registers=int(re.search(r'Used (\d+) registers', p.stderr).group(1)),
                         spills=int(spills.group(1)) + int(spills.group(2)),
                         wgmma_serialized='Potential Performance Loss' in p.stderr,
                         setmaxnreg=[producer, consumers]))
    index['attention'] = [r for r in index['attention'] if r['build'] != new] + rows
    json.dump(index, open(index_path, 'w'), indent=1)
    print(f'{new}: {len(rows)} modules, spills {sorted({r["spills"] for r in rows})}, registers {sorted({r["registers"] for r in rows})}')


if __name__ == '__main__':
    main()
