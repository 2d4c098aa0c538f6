#!/usr/bin/env python3
"""The performance records bench/results/gemm-h200.json and attention-h200.json, as
bench/bench_gemm.py --merge and bench/bench_attention.py --merge
write them: what a build directory of examples/gemm/build.sh or
examples/attention/build.sh says about each module (registers and spilled bytes from its
ptxas-v.log, `== NAME` then ptxas -v's lines; the stage count the pass used from its
remarks.log, one `NAME.mlir:L:C: remark: acopy.pipeline: S stages ...` per marked loop),
the fraction of the card's dense tensor-core peak, and one record for every device call
(each row labelled with its call, the newest first).

  python3 bench/perf_record.py BUILD_DIR [NAME]     prints the facts (all modules or one)
  python3 bench/perf_record.py --self-test
"""
import functools
import json
import os
import re
import sys
import tempfile

# NVIDIA's H200 SXM datasheet: 989 TFLOP/s of dense BF16/FP16 tensor math (1979 with
# sparsity), the same Hopper tensor cores as the H100 SXM.
H200_DENSE_16BIT_TFLOPS = 989.4


def ptxas_facts(text):
    """{module: {registers, spill_bytes}} from a ptxas-v.log."""
    facts, name = {}, None
    for line in text.splitlines():
        if line.startswith('== '):
            name = line[3:].strip()
            continue
        if name is None:
            continue
        used = re.search(r'Used (\d+) registers', line)
        if used:
            facts.setdefault(name, {})['registers'] = int(used.group(1))
        spill = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', line)
        if spill:
            facts.setdefault(name, {})['spill_bytes'] = int(spill.group(1)) + int(spill.group(2))
    return facts


def stage_facts(text):
    """{module: stages} from a remarks.log (the first marked loop of each module)."""
    stages = {}
    for line in text.splitlines():
        found = re.search(r'([A-Za-z0-9_]+)\.mlir:\d+:\d+: remark: acopy\.pipeline: (\d+) stages', line)
        if found:
            stages.setdefault(found.group(1), int(found.group(2)))
    return stages


@functools.lru_cache(maxsize=None)
def facts(build_dir):
    """{module: {registers, spill_bytes, stages}} of one build directory ({} if absent),
    read once per directory however many rows ask."""
    def read(name):
        path = os.path.join(build_dir, name)
        return open(path).read() if os.path.exists(path) else ''
    out = ptxas_facts(read('ptxas-v.log'))
    for name, stages in stage_facts(read('remarks.log')).items():
        out.setdefault(name, {})['stages'] = stages
    return out


def add_facts(row, build_root):
    """Adds registers, spill_bytes, stages (where the build says) and fraction_of_peak to a
    performance row whose `variant` names its build directory under build_root."""
    row['fraction_of_peak'] = row['tflops'] / H200_DENSE_16BIT_TFLOPS
    if build_root and row.get('variant'):
        row.update(facts(os.path.join(build_root, row['variant'])).get(row['name'], {}))
    return row


def label_and_append(merged, run, earlier):
    """`merged` with `run` on every row, followed by the rows of the record `earlier`
    (so one file keeps every call's rows, each ratio against its own call's anchors)."""
    if run:
        for row in merged['cases'] + merged['performance']:
            row['run'] = run
    if earlier:
        with open(earlier) as f:
            old = json.load(f)
        merged = {'cases': merged['cases'] + old['cases'],
                  'performance': merged['performance'] + old['performance']}
    return merged


def self_test():
    log = ('== gemm_bf16_1x1x8\nptxas info    : Used 90 registers, used 1 barriers\n'
           '    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n'
           '== gemm_bf16_2x2x8\nptxas info    : Used 154 registers\n')
    got = ptxas_facts(log)
    assert got == {'gemm_bf16_1x1x8': {'registers': 90, 'spill_bytes': 12},
                   'gemm_bf16_2x2x8': {'registers': 154}}, got
    remarks = ('/x/gemm_bf16_1x1x8.mlir:46:14: remark: acopy.pipeline: 2 stages (the loop runs 1 time, '
               'so its 4 stages are clamped to 2), TMA on sm_90a\n'
               '/x/gemm_bf16_2x2x8.mlir:46:14: remark: acopy.pipeline: 4 stages, TMA on sm_90a\n')
    assert stage_facts(remarks) == {'gemm_bf16_1x1x8': 2, 'gemm_bf16_2x2x8': 4}
    row = add_facts({'name': 'x', 'tflops': 494.7}, None)
    assert abs(row['fraction_of_peak'] - 0.5) < 1e-3, row
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump({'cases': [{'name': 'old'}], 'performance': [{'name': 'old'}]}, f)
    both = label_and_append({'cases': [{'name': 'new'}], 'performance': []}, 'call 2', f.name)
    os.unlink(f.name)
    assert both == {'cases': [{'name': 'new', 'run': 'call 2'}, {'name': 'old'}],
                    'performance': [{'name': 'old'}]}, both
    print('perf_record self-test: ok')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-2].strip())
    found = facts(sys.argv[1])
    for name in ([sys.argv[2]] if len(sys.argv) == 3 else sorted(found)):
        print(name, found.get(name, {}))


if __name__ == '__main__':
    main()
