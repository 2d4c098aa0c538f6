#!/usr/bin/env python3
"""CPU checks of the tensor-core sweep (no GPU, no torch): the shape refusal of
examples/gemm/gen.py, the chooser (examples/gemm/choose.py), the --epilogue=tma layout
(gen.epilogue_tma interpreted per thread), the launcher's packing
against PTX parameter lists (bench/tc_launch.py), and the sweep's parent (restarts after
a crash and after a hang, the records, the chooser cache, the summary) driven by a fake
child.

  python3 bench/tc_sweep_test.py            # the fast tests (about 5 s; scripts/test.sh)
  python3 bench/tc_sweep.py dry-run --builds target/tc-sweep [--out DIR]
                                            # also every built module's ABI, and the whole
                                            # parent on the real index with a fake child
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tc_launch  # noqa: E402
import tc_sweep_shapes as shapes  # noqa: E402
import choose  # noqa: E402
from attention import gen as attention_gen  # noqa: E402  (examples/ is on the path: tc_sweep_shapes)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_refusal():
    gen = os.path.join(ROOT, 'examples', 'gemm', 'gen.py')
    bad = subprocess.run([sys.executable, gen, '128', '128', '100'], capture_output=True, text=True)
    check(bad.returncode != 0 and bad.stdout == '', 'gen.py must refuse K = 100 and write nothing')
    check('K = 100' in bad.stderr and 'multiple of 8' in bad.stderr, f'the refusal names the limit: {bad.stderr!r}')
    good = subprocess.run([sys.executable, gen, '130', '260', '1000'], capture_output=True, text=True)
    check(good.returncode == 0 and 'gpu.module' in good.stdout, 'a ragged shape with K % 8 == 0 is built')
    try:
        choose.candidates(128, 128, 100)
        check(False, 'choose must refuse K = 100')
    except ValueError as error:
        check('multiple of 8' in str(error), str(error))
    cli = subprocess.run([sys.executable, os.path.join(ROOT, 'examples', 'gemm', 'choose.py'), '512', '512', '4100'],
                         capture_output=True, text=True)
    check(cli.returncode != 0 and 'multiple of 8' in cli.stderr, 'choose.py names the limit')


def test_chooser():
    for shape in shapes.GEMM_SHAPES:
        name, source = choose.choose(*shape)
        check(source == 'model' and choose.BUILDS[name]['out'] == 'bf16', f'{shape}: {name} {source}')
        check(all(choose.model_ms(*shape, b) > 0 for b in choose.BUILDS), 'positive model times')
    # What the H100 sweep measured (bench/RESULTS.md, 2026-12-06, call 7): big square
    # shapes favour the 128 x 256 tile, short-K ones the TMA-store epilogue, K rows off
    # the 32-byte sector the multicast pairs, few tiles with a long K split-K.
    # A build not yet timed on a card is never the model's pick, where the model would
    # rank it first or level with the first (t128_ws_skd_ob16 at 512 x 512 x 16384).
    # So is one marked model=False (timed and slower: the dsmem split-K builds, level with
    # t128_ws_sk_ob16 in the model at 512 x 512 x 16384).
    untimed = [b for b, cfg in choose.BUILDS.items() if cfg.get('untimed') or cfg.get('model') is False]
    check(not untimed or all(choose.choose(*shape)[0] not in untimed for shape in shapes.GEMM_SHAPES),
          f'untimed builds {untimed} never picked')
    # A persistent split-K build's 'auto' count fills its workers in the chooser's grid and in
    # gen.py's kernel alike (the workspace holds a partial tile per unit of the grid): 8 K
    # ranges of the 64 x 128 tile and 16 of the 128 x 128 one on 264 workers, 4 and 8 on 132.
    for name, ranges in (('u128_ws_sks_p264_s4_ob16', 8), ('t128_ws_sks_p264_s3_ob16', 16),
                         ('u128_ws_sks_ob16', 4), ('t128_ws_sks_ob16', 8)):
        build = choose.BUILDS[name]
        units = choose.grid(name, 512, 512, 16384)[0]
        text = subprocess.run([sys.executable, os.path.join(ROOT, 'examples', 'gemm', 'gen.py')]
                              + choose.gen_args(name, 512, 512, 16384), capture_output=True, text=True, check=True).stdout
        words = units * build['bn'] * build['bm']    # bn/8 vectors of 4 f32 for each of 2 bm threads
        check(choose.splits(name, 512, 512, 16384) == ranges and units == 512 // build['bm'] * 512 // build['bn'] * ranges
              and f'@acopy_splitk_ws : memref<{words}xf32, 1>' in text, f'{name}: {ranges} K ranges, {units} units')
    pair = ['t128_ws_skd_ob16', 't64_ws_p132_tma_s8_ob16']
    check(choose.model_ms(512, 512, 16384, pair[0]) < choose.model_ms(512, 512, 16384, pair[1])
          and choose.choose(512, 512, 16384, among=pair)[0] == pair[1],
          'a model=False build is passed over where the model scores it faster')

    def first_or_level(shape):
        times = {b: choose.model_ms(*shape, b) for b in choose.candidates(*shape)}
        return any(times[b] <= min(times.values()) for b in untimed if b in times)
    check(not untimed or any(first_or_level(shape) for shape in shapes.GEMM_SHAPES),
          'the model alone ranks an untimed build first somewhere (else the check above is idle)')
    check(choose.BUILDS[choose.choose(8192, 8192, 8192)[0]]['bn'] == 256, 'model at 8192^3')
    check(choose.BUILDS[choose.choose(8192, 8192, 512)[0]].get('epilogue') == 'tma', 'model at 8192 x 8192 x 512')
    check(choose.BUILDS[choose.choose(6000, 10000, 3000)[0]].get('cluster') == 2, 'model at 6000 x 10000 x 3000')
    check(choose.BUILDS[choose.choose(512, 512, 16384)[0]].get('split') == 'auto', 'model at 512 x 512 x 16384')
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, 'c.json')
        best = choose.record(cache, 'H100', 4096, 4096, 4096, 'bf16', {'t128_s3_ob16': 0.2, 't256_ws_p132_ob16': 0.25})
        check(best == 't128_s3_ob16', 'record returns the fastest')
        check(choose.choose(4096, 4096, 4096, cache=cache, card='H100') == ('t128_s3_ob16', 'timed'), 'cache hit')
        check(choose.choose(4096, 4096, 4096, cache=cache, card='H200')[1] == 'model', 'other card: model')
        check(choose.choose(4096, 4096, 4096, out='f32', cache=cache, card='H100')[1] == 'model', 'other out dtype: model')
    # examples/attention/choose.py: a bf16-out build for every swept shape, the rule's
    # corners as the sweep measured them (bench/RESULTS.md, 2026-12-06 (near midnight, H100)),
    # and D = 96 refused with the limit named.
    pick = shapes.attention_choose.choose
    for b, h, s, d, causal in shapes.ATTN_SHAPES:
        check(shapes.ATTN_BUILDS[pick(b * h, s, d, causal)]['out'] == 'bf16', f'attention pick at {s} {d} {causal}')
    check(pick(32, 4096, 128, False) == pick(32, 4097, 64, False) == 'qnflpgw24_r128_k128', 'attention non-causal')
    check(pick(32, 4096, 128, True) == pick(8, 5000, 128, True) == 'flpgw_r128_k128', 'attention D = 128 causal')
    check(pick(128, 512, 128, True) == 'fw_r64_k64_c2_o16' and pick(128, 512, 64, False) == 'qnflw_r64_k128_c2_o16'
          and pick(128, 512, 64, True) == pick(128, 512, 128, False) == 'e_r64_k64_o16',
          'attention S <= 512: 64-row blocks (D = 64 non-causal: 128 keys a step, persistent), 16-byte O stores')
    check(pick(128, 513, 128, False) == 'qnflpgw24_r128_k128_o16', 'attention S = 513: 128-row blocks')
    check(pick(128, 513, 64, False) == pick(64, 4095, 64, False) == 'e_r128_k128_c2_o16'
          and pick(32, 4096, 64, False) == 'e_r128_k128_c2' and pick(32, 4097, 64, False) == 'qnflpgw24_r128_k128',
          'attention D = 64 non-causal: 128 x 128 tiles two an SM up to S = 4096')
    # 16-byte O stores below S = 4096 only, and each o16 pick is its 4-byte build with
    # --wide-stores alone.
    check(pick(32, 4095, 128, True) == 'flpgw_r128_k128_o16' and pick(32, 4096, 128, True) == 'flpgw_r128_k128',
          'attention: --wide-stores below S = 4096')
    for b, h, s, d, causal in shapes.ATTN_SHAPES:
        name = pick(b * h, s, d, causal)
        if name.endswith('_o16'):
            plain = dict(shapes.ATTN_BUILDS[name], wide_stores=False)
            check(plain == shapes.ATTN_BUILDS[name[:-4]], f'{name} is {name[:-4]} with --wide-stores')
    # sm_80 (the same source, cp.async and mma.sync): causal, or ragged at D = 128, one
    # m-tile a warp, else two (--warp-rows=32), 32 keys a step at D = 128.
    check(pick(32, 4096, 128, True, 'sm_80') == pick(16, 3000, 128, False, 'sm_80') == 'm80_r64', 'sm_80 causal, ragged')
    check(pick(32, 4096, 128, False, 'sm_80') == 'm80w_r128_k32', 'sm_80 D = 128')
    check(pick(32, 4096, 64, False, 'sm_80') == pick(128, 1500, 64, False, 'sm_80') == 'm80w_r128',
          'sm_80 D = 64, ragged or not')
    check(all(shapes.ATTN_BUILDS[pick(b * h, s, d, c, 'sm_80')]['chip'] == 'sm_80'
              for b, h, s, d, c in shapes.ATTN_SHAPES), 'sm_80 picks are sm_80 builds')
    cli = subprocess.run([sys.executable, os.path.join(ROOT, 'examples', 'attention', 'choose.py'), '32', '4096', '64',
                          '--chip=sm_70'], capture_output=True, text=True)
    check(cli.returncode != 0 and "chip 'sm_70'" in cli.stderr, 'attention choose.py names an unknown chip')
    check(pick(32, 1000, 64, True) == pick(32, 4095, 64, True) == 'e_r64_k64_o16' and pick(16, 4096, 64, True) == 'flpgw_r128_k128',
          'attention D = 64 causal: ping-pong turns from S = 4096')
    try:
        pick(32, 4096, 96, False)
        check(False, 'D = 96 must be refused')
    except ValueError as error:
        check('D = 96' in str(error), str(error))
    check(shapes.attention_choose.grid('p_r128_k64', 2, 1000) == (16, 1, 1), 'persistent grid: a block per tile at most')
    check(shapes.attention_choose.grid('p_r128_k64', 32, 4096) == (264, 1, 1), 'persistent grid: the workers')
    check(shapes.attention_choose.grid('e_r128_k64', 32, 1000) == (8, 32, 1), 'attention grid: rows per block')
    check(shapes.attention_choose.gen_args('w_r64_k64', 2, 300, 128, True)[-1] == '--causal', 'attention gen_args')
    args = choose.gen_args('t128_ws_p264_ob16', 1, 2, 8)
    check(args[:5] == ['1', '2', '8', '3', 'warp'] and '--out=bf16' in args, str(args))
    # The TMA-store epilogue builds: out's rows need 16-byte strides (N % 8 == 0).
    tma = [name for name, b in choose.BUILDS.items() if b.get('epilogue') == 'tma']
    check(tma and all('--epilogue=tma' in choose.gen_args(name, 8, 8, 8) for name in tma), f'tma builds {tma}')
    check(all(choose.refusal(name, 512, 500, 64) for name in tma), 'the tma builds refuse N = 500')
    check(not set(tma) & set(choose.candidates(512, 500, 64)) and choose.candidates(512, 500, 64), 'N = 500: direct builds only')
    check(set(tma) <= set(choose.candidates(3000, 5000, 1000)), 'ragged M and K: tma builds take them')


def test_epilogue_layout():
    """gen.epilogue_tma (--epilogue=tma) interpreted per consumer thread: its index
    arithmetic puts each accumulator pair where TMA's 128-byte pattern (docs/dialect.md,
    acopy.swizzled_index: o ^ ((o & 0x380) >> 3) for rows of 128 bytes) keeps the logical
    element that wgmma's accumulator layout gives the thread, in the round and panel whose
    store covers its column; every element of the 128 x bn tile is written exactly once."""
    import re
    sys.path.insert(0, os.path.join(ROOT, 'examples', 'gemm'))
    import gen
    binary = re.compile(r'(%\w+) = arith\.(remui|divui|muli|addi|xori) (%\w+), (%\w+) : index$')
    ops = {'remui': lambda a, b: a % b, 'divui': lambda a, b: a // b, 'muli': lambda a, b: a * b,
           'addi': lambda a, b: a + b, 'xori': lambda a, b: a ^ b}
    for bn in (128, 256):
        lines = gen.epilogue_tma(bn, 'ACC', 'OUT')
        check(sum(line.startswith('acopy.copy_smem_to_gmem') for line in lines) == bn // 64, f'{bn}: one store per panel')
        seen = set()
        for t in range(256):
            env = {f'%c{v}': v for v in (2, 4, 8, 16, 32, 64, 128)}
            env.update({'%t': t, '%wg': t // 128, '%n0': 0})
            rnd = -1
            for line in lines:
                if line.startswith('acopy.wait_smem_to_gmem'):
                    rnd += 1
                elif (m := re.match(r'(%\w+) = arith\.constant (\d+) : index$', line)):
                    env[m.group(1)] = int(m.group(2))
                elif (m := binary.match(line)):
                    env[m.group(1)] = ops[m.group(2)](env[m.group(3)], env[m.group(4)])
                elif (m := re.match(r'vector\.store %hpair(\d+), %te(\d)\[(%\w+), (%\w+)\]', line)):
                    i, panel, row, col = int(m.group(1)), int(m.group(2)), env[m.group(3)], env[m.group(4)]
                    lane, warp = t % 32, (t % 128) // 32
                    lrow = 64 * (t // 128) + 16 * warp + lane // 4 + 8 * ((i // 2) % 2)
                    for d in (0, 1):
                        lcol = 2 * (lane % 4) + d + 8 * (i // 4)
                        o = lrow * 128 + 2 * (lcol % 64)
                        p = o ^ ((o & 0x380) >> 3)
                        check((row, col + d) == (p // 128, p % 128 // 2) and (rnd, panel) == (lcol // 128, lcol % 128 // 64),
                              f'bn {bn} thread {t} acc {i + d}: at {(rnd, panel, row, col + d)}')
                        check((rnd, panel, row, col + d) not in seen, f'bn {bn}: {(rnd, panel, row, col + d)} twice')
                        seen.add((rnd, panel, row, col + d))
        check(len(seen) == 128 * bn, f'bn {bn}: {len(seen)} elements written')


PTX = """
.visible .entry k(
	.param .u64 .ptr .align 1 k_param_0,
	.param .u64 .ptr .align 1 k_param_1,
	.param .u64 k_param_2,
	.param .u64 k_param_3,
	.param .u64 k_param_4,
	.param .u64 k_param_5,
	.param .u64 k_param_6,
	.param .u32 k_param_7,
	.param .align 64 .b8 k_param_8[128]
)
"""


def entry_of(shape, element='bf16', box=(64, 64)):
    return {'kernel': 'k', 'block': [256, 1, 1], 'cluster': [1, 1, 1], 'dynamic_shared_memory': 0, 'static_shared_memory': 0,
            'args': [{'kind': 'memref', 'type': f'memref<{shape[0]}x{shape[1]}x{element}>', 'element': element,
                      'shape': list(shape), 'strides': [shape[1], 1], 'offset': 0},
                     {'kind': 'scalar', 'type': 'i32'}],
            'tensor_maps': [{'param': 2, 'arg': 0, 'element_type': element, 'element_bytes': 2, 'box': list(box),
                             'swizzle': 128, 'oob_fill': 'none', 'l2_promotion': 'none', 'interleave': 'none'}]}


def fake_encode(**a):
    return json.dumps(a, sort_keys=True).encode()[:128].ljust(128, b'\0')


def test_packing():
    entry = entry_of((256, 512))
    tc_launch.check_against_ptx(entry, PTX)
    buf = tc_launch.Buffer(0x7f0000000000, [256, 512], [512, 1], 'bf16')
    params = tc_launch.pack(entry, [buf, 5], fake_encode)
    check(len(params) == 9 and [len(p) for p in params] == [8] * 7 + [4, 128], 'nine parameters of the PTX sizes')
    check(int.from_bytes(params[3], 'little') == 256 and int.from_bytes(params[6], 'little') == 1, 'sizes, strides')
    t = tc_launch.tensor_map_args(entry['tensor_maps'][0], buf.address, buf.shape, buf.strides)
    check(t['dims'] == [512, 256] and t['strides'] == [1024] and t['box'] == [64, 64] and t['swizzle'] == 3
          and t['data_type'] == 9, f'innermost first: {t}')
    for bad, why in (([128, 512], 'built for'), ([256, 512, 1], 'built for')):
        try:
            tc_launch.pack(entry, [tc_launch.Buffer(0x7f0000000000, bad, [512, 1][:len(bad)] + [1] * (len(bad) - 2), 'bf16'), 5], fake_encode)
            check(False, f'{bad} must be refused')
        except tc_launch.LaunchError as error:
            check(why in str(error), str(error))
    try:
        tc_launch.tensor_map_args(entry['tensor_maps'][0], 0x7f0000000008, [256, 100], [100, 1])
        check(False, 'a 200-byte stride must be refused')
    except tc_launch.LaunchError as error:
        check('multiple of 16' in str(error), str(error))
    wrong = dict(entry, args=entry['args'][:1])
    try:
        tc_launch.check_against_ptx(wrong, PTX)
        check(False, 'a manifest that packs too few parameters must be refused')
    except tc_launch.LaunchError:
        pass


def check_builds(builds):
    """Every module of a build folder: its manifest's packing matches its PTX parameters,
    its tensor maps encode from buffers of its memref types, and a cubin is there."""
    with open(os.path.join(builds, 'index.json')) as f:
        index = json.load(f)
    count, refused = 0, []
    for kind in ('gemm', 'attention'):
        for row in index[kind]:
            if not row['ok']:
                refused.append(f'{row["name"]} ({row["build"]}): {row.get("refused")}')
                continue
            base = os.path.join(builds, row['dir'], row['name'])
            entry = tc_launch.load_entry(base + '.manifest.json', row['name'])
            tc_launch.check_against_ptx(entry, open(base + '.ptx').read())
            check(row.get('cubin') and os.path.exists(base + '.cubin'), f'{base}.cubin')
            check(row.get('registers') and row.get('spills') is not None, f'{row["name"]}: ptxas facts')
            # A build whose wgmma ptxas serializes would be timed at the wrong speed.
            check(not row.get('wgmma_serialized'), f'{row["name"]} ({row["build"]}): ptxas serializes its wgmma')
            buffers = []
            for i, arg in enumerate(entry['args']):
                strides = [1] * len(arg['shape'])
                for d in range(len(arg['shape']) - 2, -1, -1):
                    strides[d] = strides[d + 1] * arg['shape'][d + 1]
                buffers.append(tc_launch.Buffer(0x7f0000000000 + (i << 36), arg['shape'], strides, arg['element']))
            params = tc_launch.pack(entry, buffers, fake_encode)
            check(len(params) == len(tc_launch.ptx_params(open(base + '.ptx').read(), row['name'])), row['name'])
            # The launch facts the runner uses.
            if kind == 'attention':
                # 2 x rows threads as gen.py writes them, and the producer warp or
                # warpgroup the pass adds.
                cfg = shapes.ATTN_BUILDS[row['build']]
                want = [2 * cfg['rows'] + {'block': 0, 'warp': 32, 'warpgroup': 128}[cfg['producer']], 1, 1]
                check(entry['block'] == want, f'{row["name"]} ({row["build"]}): block {entry["block"]}, want {want}')
            else:
                # 2 x bm consumer threads (a warpgroup per 64 rows) and the producer.
                cfg = shapes.GEMM_BUILDS[row['build']]
                want = [2 * cfg['bm'] + {'block': 0, 'warp': 32, 'warpgroup': 128}[cfg['producer']], 1, 1]
                check(entry['block'] == want, f'{row["name"]} ({row["build"]}): block {entry["block"]}, want {want}')
            count += 1
    return count, refused


# ------------------------------------------------------------------ the fake child

def fake_child(argv):
    """Answers the parent as a GPU child would, with made-up numbers. FAKE_CRASH=KEY:BUILD
    exits at that build's check, FAKE_HANG=KEY:BUILD stalls there (each once per build:
    the parent must exclude it)."""
    import argparse
    p = argparse.ArgumentParser()
    for name in ('--kind', '--index', '--builds', '--todo', '--exclude'):
        p.add_argument(name)
    p.add_argument('--rounds', type=int)
    p.add_argument('--deadline', type=float)
    a = p.parse_args(argv)
    index = json.load(open(a.index))
    excluded = json.loads(a.exclude)
    emit = lambda ev, **f: print(json.dumps({'event': ev, 't': time.time(), **f}), flush=True)  # noqa: E731
    emit('card', card={'name': 'Fake H100', 'sms': 132})
    for shape in json.loads(a.todo):
        key = shapes.shape_key(shape)
        emit('begin', shape=shape)
        rows = [r for r in index[a.kind] if r['ok'] and r['shape'] == shape and r['build'] not in excluded.get(key, [])]
        t0 = time.time()
        flops = shapes.gemm_flops(*shape) if a.kind == 'gemm' else shapes.attn_flops(*shape)
        if a.kind == 'gemm':
            anchors = {'cublas': {'out_dtype': 'bf16', 'max_abs_err': 0.1, 'rel_err': 2e-3, 'nan': 0, 'ms': flops / 700e9}}
        else:
            anchors = {'sdpa_flash': {'out_dtype': 'bf16', 'ok': True, 'max_abs_err': 0.01, 'rel_err': 4e-3, 'nan': 0, 'ms': flops / 300e9},
                       'sdpa_cudnn': {'error': 'No available kernel (fake)'} if shape[2] % 64 else
                       {'out_dtype': 'bf16', 'ok': True, 'max_abs_err': 0.01, 'rel_err': 4e-3, 'nan': 0, 'ms': flops / 450e9}}
        builds = []
        for r in rows:
            emit('step', what='check', build=r['build'])
            if os.environ.get('FAKE_CRASH') == f'{key}:{r["build"]}':
                sys.exit(3)
            if os.environ.get('FAKE_HANG') == f'{key}:{r["build"]}':
                time.sleep(60)
            out = ('bf16' if r['name'].endswith('_ob16') else 'f32') if a.kind == 'gemm' else shapes.ATTN_BUILDS[r['build']]['out']
            rng = random.Random(hash((key, r['build'])) & 0xffff)
            # A --pdl=1 build's manifest asks for programmatic launch (tc_launch's Kernel.programmatic).
            builds.append({'build': r['build'], 'name': r['name'], 'image': 'cubin', 'out_dtype': out, 'exact': True,
                           'programmatic': '--pdl=1' in (choose.gen_args(r['build'], *shape) if a.kind == 'gemm'
                                                         else shapes.attn_gen_args(r['build'])),
                           'int_wrong': 0, 'max_abs_err': 0.05, 'rel_err': 2e-3 if out == 'bf16' else 1e-6, 'nan': 0,
                           'ok': True, 'ms': flops / (rng.uniform(400, 900) * 1e9), 'loop': 10, 'mode': 'graph'})
        for t in list(anchors.values()) + builds:
            if 'ms' in t:
                t['tflops'] = flops / (t['ms'] * 1e-3) / 1e12
        emit('shape', shape=shape, result={'builds': builds, 'anchors': anchors, 'window': [t0, time.time()]})
    emit('done')


def test_parent(index_path=None, out=None, builds=None):
    """The parent over a fake child: a crash at one build and a hang at another cost only
    those builds at those shapes; the records, the chooser cache and the summary."""
    import tc_sweep
    with tempfile.TemporaryDirectory() as tmp:
        if index_path is None:
            index = {'commit': 'test', 'gemm': [], 'attention': []}
            for shape in shapes.GEMM_SHAPES[:3]:
                for build in choose.BUILDS:
                    index['gemm'].append({'shape': list(shape), 'build': build, 'name': shapes.gemm_name(*shape, build),
                                          'dir': f'gemm/{build}', 'ok': True, 'registers': 90, 'spills': 0, 'stages': 3})
            for shape in [shapes.ATTN_SHAPES[0], shapes.ATTN_SHAPES[1], shapes.ATTN_SHAPES[-1]]:
                for build in shapes.ATTN_BUILDS:
                    index['attention'].append({'shape': list(shape), 'build': build, 'name': shapes.attn_name(*shape),
                                               'dir': f'attention/{build}', 'ok': True, 'registers': 90, 'spills': 0})
            builds = os.path.join(tmp, 'builds')
            os.makedirs(builds)
            with open(os.path.join(builds, 'index.json'), 'w') as f:
                json.dump(index, f)
        out = out or os.path.join(tmp, 'out')
        k0 = shapes.shape_key(shapes.GEMM_SHAPES[0])
        k1 = shapes.shape_key(shapes.GEMM_SHAPES[1])
        # The crash and the hang go to two of the index's GEMM builds (a build dir made
        # with --builds holds only some), each leaving the other to run at its shape.
        with open(os.path.join(builds, 'index.json')) as f:
            names = list(dict.fromkeys(r['build'] for r in json.load(f)['gemm'] if r.get('ok')))
        crash, hang = (names + ['', ''])[:2]
        os.environ['FAKE_CRASH'] = f'{k0}:{crash}'
        os.environ['FAKE_HANG'] = f'{k1}:{hang}'
        args = type('A', (), dict(out=out, builds=builds, budget_s=120, step_timeout_s=2, gemm_share=0.6,
                                  only=None, shapes=None, rounds=None, fake=True))()
        try:
            records = tc_sweep.run(args, command=[sys.executable, os.path.abspath(__file__), 'fake-child'])
        finally:
            del os.environ['FAKE_CRASH'], os.environ['FAKE_HANG']
        # A build dir prepared with --only attention has no GEMM builds to check.
        with open(os.path.join(builds, 'index.json')) as f:
            has_gemm = bool(json.load(f)['gemm'])
        if has_gemm:
            g = records['gemm']
            failed = {(shapes.shape_key(r['shape']), r['build']) for r in g['rows'] if r.get('failed')}
            check((k0, crash) in failed and (k1, hang) in failed, f'crash and hang recorded: {failed}')
            timed = {(shapes.shape_key(r['shape']), r['build']) for r in g['rows'] if r.get('tflops')}
            check((k0, hang) in timed and (k1, crash) in timed, 'the other builds of those shapes ran')
            for e in g['shapes']:
                check(e.get('ratio_to_cublas') and e.get('timed_pick') and e.get('model_pick'), f'shape summary {e}')
            for r in g['rows']:
                if r.get('tflops'):
                    for field in ('shape', 'build', 'path', 'card', 'tflops', 'anchors', 'ratio_to_cublas', 'exact',
                                  'max_abs_err', 'registers', 'spills'):
                        check(field in r, f'row field {field}')
        a = records['attention']
        check(a['shapes'] and all('ratio_to_flash' in e for e in a['shapes']), 'attention ratios')
        # Each row says whether it was launched programmatically, as its child reported.
        for r in (records['gemm']['rows'] if has_gemm else []) + a['rows']:
            if r.get('tflops'):
                check(r['programmatic_launch'] == ('_pdl' in r['build']), f'{r["build"]}: programmatic_launch')
        check(any(r.get('ratio_to_cudnn') for r in a['rows']), 'cuDNN ratio where it ran')
        if has_gemm:
            cache = json.load(open(os.path.join(out, 'gemm-choices.json')))
            check(cache['cards']['Fake H100'], 'chooser cache written')
        for name in ('gemm-sweep.json', 'attention-sweep.json', 'summary.txt', 'sweep-log.txt'):
            check(os.path.exists(os.path.join(out, name)), name)
        plot = subprocess.run([sys.executable, os.path.join(HERE, 'plot_tc_sweep.py'), out, '--out', out],
                              capture_output=True, text=True)
        svg = 'gemm-sweep.svg' if has_gemm else 'attention-sweep.svg'
        check(plot.returncode == 0 and os.path.exists(os.path.join(out, svg)), plot.stderr)
        return records


def dry_run(builds, out=None):
    count, refused = check_builds(builds)
    print(f'ABI: {count} modules pack to their PTX parameter lists; refused at build time: {len(refused)}')
    for line in refused:
        print('  refused', line)
    test_refusal()
    test_chooser()
    test_epilogue_layout()
    test_packing()
    records = test_parent(os.path.join(builds, 'index.json'), out, os.path.abspath(builds))
    print(f'parent over a fake child: {len(records["gemm"]["rows"])} GEMM rows, {len(records["attention"]["rows"])} attention rows')
    print('dry run: ok')
    return 0


def test_quad_transpose():
    """examples/attention/gen.py's quad_transpose (--wide-stores), run on the CPU lane by
    lane: its selects and xor shuffles, interpreted over the 4 lanes of a row's quad,
    must leave lane q with word q of every lane (lane q's 8 columns of the group), and a
    planted swap of the selects' arms must not."""
    import re

    def run(lines, outputs, flip=False):
        lanes = []
        for q in range(4):
            env = {f'%w{k}': (q, k) for k in range(4)}
            env.update({'%bit0': bool(q & 1), '%bit1': bool(q & 2)})
            lanes.append(env)
        for line in (line.strip() for line in lines):
            sel = re.match(r'(%\w+) = arith.select (%\w+), (%\w+), (%\w+) : i32', line)
            shf = re.match(r'(%\w+), %\w+ = gpu.shuffle xor (%\w+), %i(\d), %i32 : i32', line)
            if sel:
                out, cond, a, b = sel.groups()
                if flip:
                    a, b = b, a
                for env in lanes:
                    env[out] = env[a] if env[cond] else env[b]
            elif shf:
                out, value, mask = shf.group(1), shf.group(2), int(shf.group(3))
                sent = [env[value] for env in lanes]
                for q, env in enumerate(lanes):
                    env[out] = sent[q ^ mask]
            else:
                raise AssertionError(f'quad_transpose emitted {line!r}')
        return [[env[name] for name in outputs] for env in lanes]

    kn = attention_gen.Kernel()           # emitter.Names: the generator's own line builder
    outputs = attention_gen.quad_transpose(kn, [f'%w{k}' for k in range(4)], ('%bit0', '%bit1', '%col8'))
    got = run(kn.lines, outputs)
    check(got == [[(i, q) for i in range(4)] for q in range(4)], f'quad_transpose: {got}')
    check(sum('gpu.shuffle' in line for line in kn.lines) == 4, 'quad_transpose: four shuffles')
    check(run(kn.lines, outputs, flip=True) != got, 'a planted swap of the selects is caught')


def test_index_merge():
    """A second build run into the same OUT (--only, --builds) keeps the modules already there:
    the first device call of 2026-12-06 (late night) found no GEMM row because an attention-only
    run had written an index without them."""
    import tc_sweep_build
    row = lambda build, shape, regs: {'build': build, 'shape': shape, 'registers': regs}
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, 'index.json')
        fresh = {'gemm': [row('a', [1, 2, 3], 1)], 'attention': []}
        check(tc_sweep_build.merged(path, fresh) == fresh, 'no earlier index: the rows as they are')
        with open(path, 'w') as f:
            json.dump({'gemm': [row('a', [1, 2, 3], 9), row('b', [1, 2, 3], 2)],
                       'attention': [row('e', [1, 8, 64, 64, False], 3)]}, f)
        got = tc_sweep_build.merged(path, {'gemm': [row('a', [1, 2, 3], 1)], 'attention': []})
        check(got['attention'] == [row('e', [1, 8, 64, 64, False], 3)], f'the other half kept: {got}')
        check(sorted((r['build'], r['registers']) for r in got['gemm']) == [('a', 1), ('b', 2)],
              f'a rebuilt row replaces its earlier row, the others stay: {got}')


def test_shape_filter():
    """--shape keeps the named shapes of each kind (a device call's carry holds only what it
    runs), in the order named (tc_sweep.py run times them in that order); an unknown name
    stops the build or run instead of doing less, and a run records a named shape its
    folder has no build of as not measured."""
    from tc_sweep_shapes import GEMM_SHAPES, ATTN_SHAPES, shape_key, pick
    g, a = GEMM_SHAPES[3], ATTN_SHAPES[1]
    keys = [shape_key(g), shape_key(a)]
    check(pick(GEMM_SHAPES, None, keys) == [g], 'the GEMM shape named only')
    check(pick(ATTN_SHAPES, None, keys) == [a], 'the attention shape named only')
    check(pick(GEMM_SHAPES, 3, keys) == [], '--shapes 3 cuts the fourth shape first')
    check(pick(GEMM_SHAPES, 2, None) == GEMM_SHAPES[:2], 'no --shape: the first N')
    check(pick(ATTN_SHAPES, None, None) == list(ATTN_SHAPES), 'no filter: every shape')
    later = [shape_key(s) for s in ATTN_SHAPES[5:1:-1]]
    check(pick(ATTN_SHAPES, None, later + later[:1]) == ATTN_SHAPES[5:1:-1],
          'the order named, each shape once (a run its budget cuts has timed these first)')
    try:
        pick(GEMM_SHAPES, None, keys + ['7x7x7'])
        check(False, 'an unknown --shape is refused')
    except ValueError as e:
        check('7x7x7' in str(e), f'the error names the shape: {e}')
    # The run refuses it before it starts anything: no output folder.
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'index.json'), 'w') as f:
            json.dump({'gemm': [], 'attention': []}, f)
        out = os.path.join(tmp, 'out')
        cli = subprocess.run([sys.executable, os.path.join(HERE, 'tc_sweep.py'), 'run', '--fake', '--builds', tmp,
                              '--out', out, '--shape', keys[0], '--shape', '7x7x7'], capture_output=True, text=True)
        check(cli.returncode != 0 and '--shape 7x7x7' in cli.stderr and not os.path.exists(out),
              f'run --shape 7x7x7: {cli.returncode} {cli.stderr}')
        # A known shape the folder has no build of is in the record as not measured.
        cli = subprocess.run([sys.executable, os.path.join(HERE, 'tc_sweep.py'), 'run', '--fake', '--builds', tmp,
                              '--out', out, '--only', 'gemm', '--shape', keys[0], '--shape', keys[1]],
                             capture_output=True, text=True)
        with open(os.path.join(out, 'gemm-sweep.json')) as f:
            goals = json.load(f)['goals']
        check(cli.returncode == 0 and goals['shapes_not_measured'] == [keys[0]] and goals['shapes_measured'] == 0,
              f'run --shape of an unbuilt shape: {cli.returncode} {goals} {cli.stderr}')


def test_record_merge():
    """Two runs of one kind on one card join into one record with goals over both; a
    shape in both, or another card, is refused."""
    import tc_sweep
    def record(shape_list, ratio, card='Fake H100', leftover=()):
        summary = [{'shape': list(s), 'ratio_to_cublas': ratio, 'model_pick': 'x'} for s in shape_list]
        rows = [{'shape': list(s), 'build': 'b', 'tflops': 1.0} for s in shape_list]
        return {'rows': rows, 'shapes': summary, 'card': {'name': card}, 'method': 'm', 'index_commit': 'c',
                'goals': tc_sweep.goals_of('gemm', summary, list(leftover))}
    first, rest = shapes.GEMM_SHAPES[:2], shapes.GEMM_SHAPES[2:3]
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, name) for name in ('a.json', 'b.json', 'c.json', 'd.json')]
        for path, rec in zip(paths, [record(first, 1.0, leftover=rest), record(rest, 0.5),
                                     record(rest, 0.5, card='Fake H200'), record(first[:1], 0.5)]):
            with open(path, 'w') as f:
                json.dump(rec, f)
        merged = tc_sweep.merge(paths[:2])
        check(len(merged['shapes']) == 3 and len(merged['rows']) == 3, 'rows and shapes of both runs')
        g = merged['goals']
        check(g['shapes_not_measured'] == [] and g['min_ratio_to_cublas'] == 0.5, f'goals over both runs: {g}')
        check(abs(g['geomean_ratio_to_cublas'] - 0.5 ** (1 / 3)) < 1e-12, 'geomean over all three shapes')
        check([r['shapes'] for r in merged['runs']] == [[shapes.shape_key(s) for s in first], [shapes.shape_key(rest[0])]],
              'each run names its shapes')
        check(tc_sweep.merge(paths[:1])['goals']['shapes_not_measured'] == [shapes.shape_key(rest[0])],
              'a shape no run measured stays not measured')
        for bad, why in ((paths[1:3], 'different cards'), ([paths[0], paths[3]], 'measured twice')):
            try:
                tc_sweep.merge(bad)
            except ValueError as error:
                check(why in str(error), str(error))
            else:
                raise AssertionError(f'merge must refuse {why}')


def test_record_compare():
    """tc_sweep.py compare: over the shapes both records measured, the best build's and each
    anchor's new TFLOP/s over the old, and every build timed in both; a shape only one
    record has is left out, and records of two kinds are refused."""
    import tc_sweep
    a, b, c = shapes.GEMM_SHAPES[:3]

    def record(entries):
        summary = [{'shape': list(shape), 'best_tflops': best, 'anchors': {'cublas': {'tflops': anchor}}}
                   for shape, best, anchor, _ in entries]
        rows = [{'shape': list(shape), 'build': build, 'tflops': tflops}
                for shape, _, _, builds in entries for build, tflops in builds.items()]
        return {'rows': rows, 'shapes': summary}
    old = record([(a, 100.0, 200.0, {'x': 100.0, 'y': 50.0}), (b, 100.0, 100.0, {'x': 100.0})])
    new = record([(a, 200.0, 100.0, {'x': 200.0, 'z': 9.0}), (b, 50.0, 100.0, {'x': 25.0}),
                  (c, 999.0, 1.0, {'x': 999.0})])
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, name) for name in ('old.json', 'new.json', 'attn.json')]
        for path, rec in zip(paths, (old, new, {'rows': [], 'shapes': [{'shape': [1, 8, 512, 64, False]}]})):
            with open(path, 'w') as f:
                json.dump(rec, f)
        table = tc_sweep.compare(paths[0], paths[1])
        def near(got, want):
            return got[3] == want[3] and all(abs(g - w) < 1e-12 for g, w in zip(got[:3], want[:3]))
        check(near(table['best build'], (1.0, 0.5, 2.0, 2)), f'best builds 2 and 0.5, shape c left out: {table}')
        check(near(table['cublas'], (0.5 ** 0.5, 0.5, 1.0, 2)), f'the anchor 0.5 and 1: {table}')
        check(near(table['same build'], (0.5 ** 0.5, 0.25, 2.0, 2)), f'x at a (2) and b (0.25); y, z in one record: {table}')
        try:
            tc_sweep.compare(paths[0], paths[2])
        except ValueError as error:
            check('different kinds' in str(error), str(error))
        else:
            raise AssertionError('compare must refuse records of two kinds')


def test_record_tags():
    """tc_sweep.py tags: NAME@NEW over NAME@OLD per shape, only where both were timed at that
    shape (an untagged build, another tag or a lone tag is left out); none at all is refused.
    A tagged name stands for its build: base_build and gemm_name strip the tag."""
    import tc_sweep
    a, b = shapes.GEMM_SHAPES[:2]
    rows = [(a, 'x@old', 100.0), (a, 'x@new', 150.0), (a, 'y@old', 80.0), (a, 'y@new', 40.0),
            (b, 'x@old', 10.0), (b, 'x@other', 99.0), (b, 'x', 7.0), (b, 'z@new', 5.0), (a, 'w@old', None)]
    record = {'rows': [{'shape': list(shape), 'build': build, 'tflops': tf} for shape, build, tf in rows]}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'r.json')
        with open(path, 'w') as f:
            json.dump(record, f)
        pairs, by_shape, (geo, low, high) = tc_sweep.tags(path, 'old', 'new')
        key = shapes.shape_key(a)
        check(pairs == {(key, 'x'): 1.5, (key, 'y'): 0.5}, f'x and y at shape a only: {pairs}')
        check(list(by_shape) == [key] and abs(by_shape[key] - 0.75 ** 0.5) < 1e-12, f'the geomean of shape a: {by_shape}')
        check(abs(geo - 0.75 ** 0.5) < 1e-12 and (low, high) == (0.5, 1.5), f'geomean of 1.5 and 0.5: {geo}')
        try:
            tc_sweep.tags(path, 'old', 'nothing')
        except ValueError as error:
            check('NAME@nothing' in str(error), str(error))
        else:
            raise AssertionError('tags must refuse a record without a pair')
    build = 't64_ws_p132_tma_s8_ob16'
    check(shapes.base_build(build + '@new') == build and shapes.base_build(build) == build, 'base_build strips a tag')
    check(shapes.split_tag(shapes.tagged(build, 'new')) == (build, 'new') and shapes.tagged(build, '') == build,
          'tagged and split_tag undo each other; no tag, no @')
    check(shapes.gemm_name(512, 512, 512, build + '@new') == shapes.gemm_name(512, 512, 512, build), 'a tagged gemm_name')


def test_record_twins():
    """tc_sweep.py twins: a twin (its base's name with _OPTION, before _ob16 or at the end)
    over its base, per shape where both were timed; a lone twin, an untimed base or another
    option's twin is left out; none at all is refused; the command line prints the pairs."""
    import tc_sweep
    a, b = shapes.GEMM_SHAPES[:2]
    rows = [(a, 'u128_ws_sks_ob16', 100.0), (a, 'u128_ws_sks_pdl_ob16', 120.0), (a, 'f_o16', 50.0),
            (a, 'f_o16_pdl', 40.0), (a, 'f_o16_lpt', 55.0), (b, 'u128_ws_sks_pdl_ob16', 90.0),
            (b, 'g_ob16', None), (b, 'g_pdl_ob16', 70.0), (b, 'xpdl_ob16', 1.0), (b, 'x_ob16', 2.0)]
    record = {'rows': [{'shape': list(shape), 'build': build, 'tflops': tf} for shape, build, tf in rows]}
    check(tc_sweep.twin_base('u128_ws_sks_pdl_ob16', 'pdl') == 'u128_ws_sks_ob16'
          and tc_sweep.twin_base('f_o16_lpt', 'lpt') == 'f_o16' and tc_sweep.twin_base('xpdl_ob16', 'pdl') is None,
          'twin_base: the mark before _ob16 or at the end, a whole word')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'r.json')
        with open(path, 'w') as f:
            json.dump(record, f)
        pairs, by_shape, (geo, low, high) = tc_sweep.twins(path, 'pdl')
        key = shapes.shape_key(a)
        check(pairs == {(key, 'u128_ws_sks_pdl_ob16'): 1.2, (key, 'f_o16_pdl'): 0.8}, f'the pdl twins at shape a: {pairs}')
        check(list(by_shape) == [key] and abs(geo - 0.96 ** 0.5) < 1e-12 and (low, high) == (0.8, 1.2), f'{by_shape} {geo}')
        check(tc_sweep.twins(path, 'lpt')[0] == {(key, 'f_o16_lpt'): 1.1}, 'the lpt twin')
        try:
            tc_sweep.twins(path, 'rw')
        except ValueError as error:
            check('_rw' in str(error), str(error))
        else:
            raise AssertionError('twins must refuse a record without a pair')
        cli = subprocess.run([sys.executable, os.path.join(HERE, 'tc_sweep.py'), 'twins', path, 'pdl'],
                             capture_output=True, text=True)
        check(cli.returncode == 0 and 'f_o16_pdl' in cli.stdout and '0.980 in geomean' in cli.stdout, cli.stdout + cli.stderr)
        cli = subprocess.run([sys.executable, os.path.join(HERE, 'tc_sweep.py'), 'twins', path, 'rw'],
                             capture_output=True, text=True)
        check(cli.returncode != 0 and 'tc_sweep.py twins: error:' in cli.stderr, cli.stderr)


def test_drop_ptx():
    """--cubins-only removes a module's PTX only where its cubin is there."""
    import tc_sweep_build
    with tempfile.TemporaryDirectory() as out:
        os.makedirs(os.path.join(out, 'gemm', 'b'))
        for name, files in (('with', ('.ptx', '.cubin')), ('without', ('.ptx',))):
            for ext in files:
                open(os.path.join(out, 'gemm', 'b', name + ext), 'w').close()
        rows = {'gemm': [{'dir': 'gemm/b', 'name': 'with', 'cubin': True},
                         {'dir': 'gemm/b', 'name': 'without', 'cubin': False}], 'attention': []}
        check(tc_sweep_build.drop_ptx(out, rows) == 1, 'one PTX removed')
        left = sorted(os.listdir(os.path.join(out, 'gemm', 'b')))
        check(left == ['with.cubin', 'without.ptx'], f'the cubin and the PTX without one stay: {left}')


def test_choose_score():
    """bench/choose_score.py on a fake attention record: a shape whose pick the record timed
    is scored as the pick's fraction of the best and its row's ratio to the anchor; one
    whose pick it did not time is left out (None), not scored 0."""
    import choose_score
    pick = shapes.attention_choose.choose
    timed = [1, 128, 512, 128, True]            # the pick there: fw_r64_k64_c2
    untimed = [1, 128, 512, 64, False]          # the pick there, not in the record
    chosen = pick(128, 512, 128, True)
    rows = [{'shape': timed, 'build': chosen, 'tflops': 150.0, 'out_dtype': 'bf16', 'ratio_to_cudnn': 0.9},
            {'shape': timed, 'build': 'e_r64_k64', 'tflops': 200.0, 'out_dtype': 'bf16'},
            {'shape': untimed, 'build': 'e_r64_k64', 'tflops': 300.0, 'out_dtype': 'bf16'}]
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, 'attention.json')
        with open(path, 'w') as f:
            json.dump({'rows': rows}, f)
        scored = {tuple(shape): (chosen_, fraction) for shape, chosen_, fraction in choose_score.score(path)}
        anchored = choose_score.to_anchor(path)
    check(scored[tuple(timed)] == (chosen, 0.75), f'the timed pick at its fraction of the best: {scored}')
    check(scored[tuple(untimed)] == (pick(128, 512, 64, False), None), f'an untimed pick left out: {scored}')
    check(anchored == [(tuple(timed), chosen, 0.9)], f"the timed pick's ratio to the anchor, the untimed left out: {anchored}")
    # A record of two compilers' builds (NAME@TAG): each build's row of the first listed tag.
    tagged = [dict(row, build=row['build'] + tag, tflops=row['tflops'] * scale)
              for row in rows[:2] for tag, scale in (('@old', 1.0), ('@new', 2.0), ('@odd', 9.0))]
    got = {(tuple(r['shape']), r['build']): r['tflops'] for r in choose_score.untagged(tagged + rows[2:], ['old', 'new'])}
    check(got == {(tuple(timed), chosen): 150.0, (tuple(timed), 'e_r64_k64'): 200.0, (tuple(untimed), 'e_r64_k64'): 300.0},
          f'@old preferred, @odd left out, untagged kept: {got}')
    got = {r['build']: r['tflops'] for r in choose_score.untagged(tagged, ['new', 'old'])}
    check(got == {chosen: 300.0, 'e_r64_k64': 400.0}, f'@new first when listed first: {got}')


def test_lpt_order():
    """examples/attention/gen.py's --lpt tile order, interpreted on the CPU: the index ops
    tile_of_grid emits, run for every block of the one-dimensional grid (choose.grid), must
    give every (head, query block) once, and each group of lpt_heads heads must run its
    query blocks heaviest first; the grid of a block per (query block, head) without --lpt
    puts a head's blocks side by side instead (what --lpt changes)."""
    import re
    ops = {'divui': lambda a, b: a // b, 'remui': lambda a, b: a % b, 'muli': lambda a, b: a * b,
           'addi': lambda a, b: a + b, 'subi': lambda a, b: a - b}

    def tiles(bh, s, rows, group):
        kn = attention_gen.Kernel()
        attention_gen.tile_of_grid(kn, True, s, rows, bh, group)
        build = 'flpgw_r128_k128_lpt' if group else 'flpgw_r128_k128'
        gx, gy, _ = shapes.attention_choose.grid(build, bh, s)
        order = []
        for by in range(gy):
            for bx in range(gx):
                env = {}
                for line in (line.strip() for line in kn.lines):
                    blk = re.match(r'(%\w+) = gpu.block_id ([xy])$', line)
                    const = re.match(r'(%\w+) = arith.constant (\d+) : index$', line)
                    op = re.match(r'(%\w+) = arith.(\w+) (%\w+), (%\w+) : index$', line)
                    if blk:
                        env[blk.group(1)] = bx if blk.group(2) == 'x' else by
                    elif const:
                        env[const.group(1)] = int(const.group(2))
                    elif op:
                        # %c<N>: the kernel's index constants (emitter.constants).
                        a, b = (env[v] if v in env else int(re.fullmatch(r'%c(\d+)', v).group(1))
                                for v in op.group(3, 4))
                        env[op.group(1)] = ops[op.group(2)](a, b)
                    else:
                        raise AssertionError(f'tile_of_grid emitted {line!r}')
                order.append((env['%h'], env['%qb']))
        return order

    for bh, s, d in ((64, 2048, 128), (8, 5000, 128), (6, 300, 64), (128, 512, 128)):
        nq = -(-s // 128)
        group = attention_gen.lpt_heads(bh, s, d)
        check(bh % group == 0 and (group == 1 or group * 4 * s * d <= attention_gen.LPT_L2_BYTES),
              f'lpt_heads({bh}, {s}, {d}) = {group}')
        order = tiles(bh, s, 128, group)
        check(sorted(order) == [(h, q) for h in range(bh) for q in range(nq)], f'--lpt at {bh} x {s}: every tile once')
        for g in range(bh // group):
            part = order[g * group * nq:(g + 1) * group * nq]
            check({h for h, _ in part} == set(range(g * group, (g + 1) * group)), f'group {g}: its own heads')
            check([q for _, q in part] == sorted((q for _, q in part), reverse=True), f'group {g}: heaviest first')
        plain = tiles(bh, s, 128, 0)
        check(sorted(plain) == sorted(order) and plain[:nq] == [(0, q) for q in reversed(range(nq))],
              'without --lpt a head\'s blocks go side by side')
    check(attention_gen.lpt_heads(64, 2048, 128) == 16 and attention_gen.lpt_heads(7, 65536, 128) == 1,
          'lpt_heads: the most that fit, at least one')


def test_causal_tail():
    """bench/causal_tail.py's model: list scheduling (a block starts on the SM that frees
    first), three orders of one multiset of block costs, and the tail --lpt removes at
    2 x 32 x 2048 x 128 (1.15 of the even share by heads, 1.02 by --lpt's groups)."""
    import causal_tail
    check(causal_tail.makespan([3, 2, 2], 2) == 4 and causal_tail.makespan([2, 2, 3], 2) == 5, 'makespan')
    costs = causal_tail.orders(64, 2048, 128, 128)
    check(sorted(costs['head']) == sorted(costs['lpt']) == sorted(costs['all']) and len(costs['all']) == 1024,
          'one multiset of blocks')
    check(costs['head'][:16] == list(range(16, 0, -1)) and costs['lpt'][:16] == [16] * 16, 'the two orders')
    even = sum(costs['all']) / 132
    ends = {name: causal_tail.makespan(c, 132) / even for name, c in costs.items()}
    check(1.14 < ends['head'] < 1.16 and ends['lpt'] < 1.02 and ends['all'] <= ends['lpt'], f'causal tail: {ends}')


def test_launch_attributes():
    """A launch's cuLaunchKernelEx attributes: none for a plain kernel, the cluster shape,
    and programmatic stream serialization (value 1) for a kernel whose manifest entry
    says programmatic_launch, as the Rust runtime's launch_attributes."""
    import ctypes
    assert tc_launch.launch_attributes([1, 1, 1], False) is None
    only = tc_launch.launch_attributes([1, 1, 1], True)
    assert [a.id for a in only] == [tc_launch.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION] == [6]
    assert ctypes.c_int.from_buffer_copy(bytes(only[0].value[:4])).value == 1
    both = tc_launch.launch_attributes([2, 1, 1], True)
    assert [a.id for a in both] == [4, 6]
    assert list((ctypes.c_uint * 3).from_buffer_copy(bytes(both[0].value[:12]))) == [2, 1, 1]
    assert [a.id for a in tc_launch.launch_attributes([2, 1, 1], False)] == [4]


def main():
    if sys.argv[1:2] == ['fake-child']:
        fake_child(sys.argv[3:] if sys.argv[2:3] == ['child'] else sys.argv[2:])
        return
    for test in (test_refusal, test_chooser, test_epilogue_layout, test_packing, test_quad_transpose, test_index_merge, test_shape_filter, test_record_merge, test_record_compare, test_record_tags, test_record_twins, test_drop_ptx, test_choose_score, test_lpt_order, test_causal_tail, test_launch_attributes, test_parent):
        test()
        print(f'{test.__name__}: ok')


if __name__ == '__main__':
    main()
