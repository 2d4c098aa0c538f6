#!/usr/bin/env python3
"""The tensor-core sweep of issue 39 on the GPU machine: acopy's GEMM and attention builds
against cuBLAS and torch SDPA (flash and cuDNN backends), in one process per group of
shapes, on the same inputs, interleaved round by round.

Method (every row):
- Inputs: per shape, random normal bf16 drawn once (seeded by the shape); acopy and
  the anchors read the same tensors (GEMM: src = [A; B], A M x K, B N x K, cuBLAS
  torch.matmul(A, Bᵀ, out=bf16); attention: q, k, v B x H x S x D contiguous, which
  acopy reads as (B H) x S x D).
- Checks, each build at its timed shape before it is timed, on an output poisoned with
  NaN: GEMM on small integer inputs (-2..2) exactly (every element; out = A Bᵀ is an
  exact integer in f32 and, for a bf16 out, that integer rounded to nearest even), and
  on the random inputs against an f32 reference (torch f32 matmul, TF32 off): max abs
  error and ‖out − ref‖ / ‖ref‖ (at most 1e-4 for an f32 out, 1e-2 for bf16).
  Attention on the random inputs against f32 SDPA (memory-efficient backend on f32
  copies): max abs error and relative L2 error at most 2e-2. A build that fails its
  check is recorded and not timed. The anchors get the same error columns.
- Timing: each of acopy's builds and each anchor is a loop of n launches captured in a
  CUDA graph (eager when capture fails; the row says which), n chosen so that one loop
  takes at least 20 ms; R rounds (7 GEMM, 5 attention), in each round every timer once,
  the order rotated each round; CUDA events around each loop; the median over rounds
  of loop time / n. TFLOP/s = 2 M N K / time (attention 4 B H S² D, half if causal).
  Inputs that fit the 50 MB L2 stay in it across a loop, for acopy and the anchors alike.
- Card, clocks and power: nvidia-smi sampled every 250 ms for the whole run (smi.csv);
  each row gets the median SM and memory clock, the median and max power and the
  throttle reasons seen during its shape's window.
- Robustness: the parent runs children; a child prints each step before it takes it,
  so a trap or hang (no output for --step-timeout-s) costs that build at that shape
  only: the parent kills the child, records the build as failed, and a new child goes
  on from that shape without it.

Records ($OUT): gemm-sweep.json and attention-sweep.json ({rows, shapes, goals, method,
card}), gemm-choices.json (examples/gemm/choose.py's cache: the timed pick per shape),
smi.csv, sweep-log.txt, summary.txt (printed last).

Usage (GPU machine, repository root; builds from bench/tc_sweep_build.py carried):
  python3 bench/tc_sweep.py run --builds target/tc-sweep --out "$OUT" [--budget-s 480]
Here: python3 bench/tc_sweep.py dry-run --builds target/tc-sweep  (no GPU: ABI of every
module, the parent's restart logic with a fake child, the records and the chooser cache)
      python3 bench/tc_sweep.py tags RECORD OLD NEW  (builds of two compilers in one run:
      tc_sweep_build.py --tag OLD and --tag NEW into one folder; NEW over OLD per build and shape)
      python3 bench/tc_sweep.py merge OUT.json A.json B.json  (runs of one kind on one card whose
      shapes do not overlap, e.g. a sweep its budget cut and a --shape run for the rest)
"""
import argparse
import json
import math
import os
import select
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tc_launch  # noqa: E402
import tc_sweep_shapes as shapes  # noqa: E402
import choose  # noqa: E402  (examples/gemm, on the path through tc_sweep_shapes)

GEMM_ROUNDS, ATTN_ROUNDS = 7, 5
LOOP_MS = 20.0
MAX_LOOP = 20000
TOLERANCE = {'f32': 1e-4, 'bf16': 1e-2, 'attention': 2e-2}


def emit(event, **fields):
    print(json.dumps({'event': event, 't': time.time(), **fields}), flush=True)


# ------------------------------------------------------------------ the child (GPU)

class Gpu:
    """torch, the driver and the timers of one child process."""

    def __init__(self):
        import torch
        self.torch = torch
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.cuda.init()
        torch.zeros(1, device='cuda')
        self.driver = tc_launch.Driver()
        props = torch.cuda.get_device_properties(0)
        self.card = {'name': props.name, 'sms': props.multi_processor_count,
                     'memory_gib': round(props.total_memory / 2**30, 1), 'torch': torch.__version__,
                     'cuda': torch.version.cuda, 'cudnn': torch.backends.cudnn.version()}

    def stream(self):
        return self.torch.cuda.current_stream().cuda_stream

    def kernel(self, builds_dir, row):
        base = os.path.join(builds_dir, row['dir'], row['name'])
        entry = tc_launch.load_entry(base + '.manifest.json', row['name'])
        if row.get('cubin') and os.path.exists(base + '.cubin'):
            with open(base + '.cubin', 'rb') as f:
                return tc_launch.Kernel(self.driver, entry, f.read()), 'cubin'
        with open(base + '.ptx') as f:
            return tc_launch.Kernel(self.driver, entry, f.read()), 'ptx'

    def event_ms(self, fn):
        torch = self.torch
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop)

    def looped(self, fn):
        """(replay, n, mode): a loop of n calls of fn taking >= LOOP_MS, as a CUDA graph."""
        torch = self.torch
        fn()
        torch.cuda.synchronize()
        one = min(self.event_ms(fn) for _ in range(3))
        n = max(1, min(MAX_LOOP, math.ceil(LOOP_MS * 1.2 / max(one, 1e-4))))
        for _ in range(2):
            try:
                side = torch.cuda.Stream()
                side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(side):
                    fn()
                torch.cuda.current_stream().wait_stream(side)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    for _ in range(n):
                        fn()
                replay, mode = graph.replay, 'graph'
            except Exception as error:  # noqa: BLE001  (a capture that fails: eager loops)
                emit('note', what=f'graph capture failed ({error}); eager loop')
                torch.cuda.synchronize()

                def replay(n=n):
                    for _ in range(n):
                        fn()
                mode = 'eager'
            replay()
            ms = self.event_ms(replay)
            if ms >= LOOP_MS or n >= MAX_LOOP:
                break
            n = min(MAX_LOOP, math.ceil(n * LOOP_MS * 1.2 / max(ms, 1e-3)))
        return replay, n, mode

    def interleaved(self, timers, rounds):
        """{name: {ms, ms_rounds, loop, mode, loop_ms_min}}: every timer once per round,
        the order rotated each round; median over rounds of loop time / loop."""
        loops = {}
        for name, fn in timers.items():
            emit('step', what='capture', build=name)
            loops[name] = self.looped(fn)
        names = list(loops)
        per = {name: [] for name in names}
        for r in range(rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                replay, n, _ = loops[name]
                per[name].append(self.event_ms(replay) / n)
        return {name: {'ms': statistics.median(per[name]), 'ms_rounds': [round(x, 6) for x in per[name]],
                       'loop': loops[name][1], 'mode': loops[name][2],
                       'loop_ms_min': round(min(per[name]) * loops[name][1], 3)} for name in names}


def errors(torch, out, ref):
    """max abs error, relative L2 error and NaN count of out against ref (f32)."""
    diff = out.float() - ref
    nan = int(torch.isnan(out.float()).sum().item())
    return {'max_abs_err': float(diff.abs().max().item()),
            'rel_err': float((torch.linalg.vector_norm(diff) / torch.linalg.vector_norm(ref)).item()),
            'nan': nan}


def gemm_shape(gpu, builds_dir, shape, rows, rounds):
    torch = gpu.torch
    m, n, k = shape
    gen = torch.Generator(device='cuda').manual_seed(m * 1000003 + n * 1009 + k)
    src = torch.randn((m + n, k), device='cuda', generator=gen, dtype=torch.float32).to(torch.bfloat16)
    a, b = src[:m], src[m:]
    ref = a.float() @ b.float().T
    isrc = torch.randint(-2, 3, (m + n, k), device='cuda', generator=gen, dtype=torch.int32).to(torch.bfloat16)
    iref = isrc[:m].float() @ isrc[m:].float().T   # exact: integers below 2^24
    result = {'builds': [], 'anchors': {}}
    emit('step', what='anchor', build='cublas')
    c = torch.empty((m, n), device='cuda', dtype=torch.bfloat16)
    timers = {'cublas': lambda: torch.matmul(a, b.T, out=c)}
    timers['cublas']()
    torch.cuda.synchronize()
    result['anchors']['cublas'] = {'out_dtype': 'bf16', **errors(torch, c, ref)}
    outs = {}
    for row in rows:
        emit('step', what='check', build=row['build'])
        kernel, image = gpu.kernel(builds_dir, row)
        out_dtype = 'bf16' if row['name'].endswith('_ob16') else 'f32'
        if out_dtype not in outs:
            outs[out_dtype] = torch.empty((m, n), device='cuda', dtype=torch.bfloat16 if out_dtype == 'bf16' else torch.float32)
        out = outs[out_dtype]
        cluster_x = kernel.cluster[0]
        # The build's grid (choose.grid: persistent builds launch their workers, split-K
        # builds a block per tile and K range); an index without one (built before the
        # grid was recorded) gets gen.py's grid of a block per 128 x 128 tile.
        grid = tuple(row.get('grid') or choose.gen.launch_grid(m, n, 1, cluster_x))
        buf = tc_launch.Buffer.of_torch
        int_launch = kernel.bind([buf(isrc), buf(out)], grid)
        launch = kernel.bind([buf(src), buf(out)], grid)
        out.fill_(float('nan'))
        int_launch(gpu.stream())
        torch.cuda.synchronize()
        want = iref.to(torch.bfloat16) if out_dtype == 'bf16' else iref
        wrong = int((out != want).sum().item())
        out.fill_(float('nan'))
        launch(gpu.stream())
        torch.cuda.synchronize()
        rec = {'build': row['build'], 'name': row['name'], 'image': image, 'out_dtype': out_dtype,
               'programmatic': kernel.programmatic, 'exact': wrong == 0, 'int_wrong': wrong, **errors(torch, out, ref)}
        rec['ok'] = rec['exact'] and rec['nan'] == 0 and rec['rel_err'] <= TOLERANCE[out_dtype]
        result['builds'].append(rec)
        if rec['ok']:
            timers[row['build']] = lambda launch=launch: launch(gpu.stream())
    t0 = time.time()
    times = gpu.interleaved(timers, rounds)
    result['window'] = [t0, time.time()]
    flops = shapes.gemm_flops(m, n, k)
    for name, t in times.items():
        t['tflops'] = flops / (t['ms'] * 1e-3) / 1e12
        target = result['anchors'][name] if name == 'cublas' else next(r for r in result['builds'] if r['build'] == name)
        target.update(t)
    return result


def attention_reference(torch, q, k, v, causal):
    """f32 attention: SDPA's memory-efficient backend on f32 copies, else by head in f32."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    qf, kf, vf = q.float(), k.float(), v.float()
    try:
        with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
            return F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal), 'sdpa_efficient_f32'
    except RuntimeError:
        with sdpa_kernel(SDPBackend.MATH):
            out = torch.empty_like(qf)
            for bi in range(q.shape[0]):
                for hi in range(q.shape[1]):
                    out[bi, hi] = F.scaled_dot_product_attention(qf[bi, hi][None], kf[bi, hi][None], vf[bi, hi][None], is_causal=causal)[0]
            return out, 'math_f32'


def attention_shape(gpu, builds_dir, shape, rows, rounds):
    torch = gpu.torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    bsz, heads, s, d, causal = shape
    gen = torch.Generator(device='cuda').manual_seed(bsz * 7919 + heads * 131 + s * 7 + d + causal)
    q, k, v = (torch.randn((bsz, heads, s, d), device='cuda', generator=gen, dtype=torch.float32).to(torch.bfloat16)
               for _ in range(3))
    emit('step', what='reference', build='f32')
    ref, ref_kind = attention_reference(torch, q, k, v, causal)
    torch.cuda.synchronize()
    result = {'builds': [], 'anchors': {}, 'reference': ref_kind}
    timers = {}
    for anchor, backend in (('sdpa_flash', SDPBackend.FLASH_ATTENTION), ('sdpa_cudnn', SDPBackend.CUDNN_ATTENTION)):
        emit('step', what='anchor', build=anchor)

        def call(backend=backend):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        try:
            got = call()
            torch.cuda.synchronize()
        except RuntimeError as error:
            result['anchors'][anchor] = {'error': str(error).splitlines()[0][:300]}
            continue
        rec = {'out_dtype': 'bf16', **errors(torch, got, ref)}
        rec['ok'] = rec['nan'] == 0 and rec['rel_err'] <= TOLERANCE['attention']
        result['anchors'][anchor] = rec
        timers[anchor] = call
    outs = {}
    qv, kv, vv = (t.view(bsz * heads, s, d) for t in (q, k, v))
    ref_view = ref.reshape(bsz * heads, s, d)
    for row in rows:
        emit('step', what='check', build=row['build'])
        kernel, image = gpu.kernel(builds_dir, row)
        out_dtype = shapes.ATTN_BUILDS[shapes.base_build(row['build'])]['out']
        if out_dtype not in outs:
            outs[out_dtype] = torch.empty((bsz * heads, s, d), device='cuda',
                                          dtype=torch.bfloat16 if out_dtype == 'bf16' else torch.float32)
        out = outs[out_dtype]
        # examples/attention/choose.py's grid: a block per `rows` query rows of a head (16
        # per warp (32 with --warp-rows=32) of the threads gen.py writes; a producer warp the pass adds
        # computes none), or a persistent build's workers.
        grid = shapes.attention_choose.grid(shapes.base_build(row['build']), bsz * heads, s)
        buf = tc_launch.Buffer.of_torch
        launch = kernel.bind([buf(qv), buf(kv), buf(vv), buf(out)], grid)
        out.fill_(float('nan'))
        launch(gpu.stream())
        torch.cuda.synchronize()
        rec = {'build': row['build'], 'name': row['name'], 'image': image, 'out_dtype': out_dtype,
               'programmatic': kernel.programmatic, **errors(torch, out, ref_view)}
        rec['ok'] = rec['nan'] == 0 and rec['rel_err'] <= TOLERANCE['attention']
        result['builds'].append(rec)
        if rec['ok']:
            timers[row['build']] = lambda launch=launch: launch(gpu.stream())
    t0 = time.time()
    times = gpu.interleaved(timers, rounds) if timers else {}
    result['window'] = [t0, time.time()]
    flops = shapes.attn_flops(bsz, heads, s, d, causal)
    for name, t in times.items():
        t['tflops'] = flops / (t['ms'] * 1e-3) / 1e12
        target = result['anchors'][name] if name in result['anchors'] else next(r for r in result['builds'] if r['build'] == name)
        target.update(t)
    return result


def child(args):
    with open(args.index) as f:
        index = json.load(f)
    todo = json.loads(args.todo)
    excluded = json.loads(args.exclude)
    gpu = Gpu()
    emit('card', card=gpu.card)
    for shape in todo:
        if time.time() > args.deadline:
            emit('deadline')
            return
        key = shapes.shape_key(shape)
        rows = [r for r in index[args.kind] if r['ok'] and r['shape'] == shape and r['build'] not in excluded.get(key, [])]
        emit('begin', shape=shape)
        fn = gemm_shape if args.kind == 'gemm' else attention_shape
        result = fn(gpu, args.builds, tuple(shape), rows, args.rounds)
        emit('shape', shape=shape, result=result)
        gpu.torch.cuda.empty_cache()
    emit('done')


# ------------------------------------------------------------------ the parent

class Supervisor:
    """Runs children over a kind's shapes; a child that dies or stalls costs the step it
    was on: a build is excluded at that shape, an anchor or setup failure twice ends the
    shape; a new child goes on."""

    def __init__(self, command, log, step_timeout, deadline):
        self.command, self.log, self.step_timeout, self.deadline = command, log, step_timeout, deadline
        self.card = None

    def run(self, kind, todo, index_path, builds, rounds):
        results, failures, excluded, strikes = {}, {}, {}, {}
        todo = [list(s) for s in todo]
        while todo and time.time() < self.deadline:
            argv = self.command + ['child', '--kind', kind, '--index', index_path, '--builds', builds,
                                   '--todo', json.dumps(todo), '--exclude', json.dumps(excluded),
                                   '--rounds', str(rounds), '--deadline', str(self.deadline)]
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.log, text=True, start_new_session=True)
            current, step, last, buffer, ended = None, None, time.time(), '', None
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], 1.0)
                if ready:
                    chunk = os.read(proc.stdout.fileno(), 65536).decode(errors='replace')
                    if not chunk:
                        proc.wait()
                        ended = f'exit {proc.returncode}'
                        break
                    buffer += chunk
                    while '\n' in buffer:
                        line, buffer = buffer.split('\n', 1)
                        last = time.time()
                        try:
                            msg = json.loads(line)
                        except json.JSONDecodeError:
                            self.log.write(f'child: {line}\n')
                            continue
                        self.log.write(line + '\n')
                        self.log.flush()
                        ev = msg.get('event')
                        if ev == 'card':
                            self.card = msg['card']
                        elif ev == 'begin':
                            current, step = msg['shape'], None
                        elif ev == 'step':
                            step = msg
                        elif ev == 'shape':
                            key = shapes.shape_key(msg['shape'])
                            results[key] = msg['result']
                            results[key]['shape'] = msg['shape']
                            todo = [s for s in todo if s != msg['shape']]
                            current, step = None, None
                        elif ev in ('done', 'deadline'):
                            pass
                elif time.time() - last > self.step_timeout or time.time() > self.deadline + 30:
                    os.killpg(proc.pid, 9)
                    proc.wait()
                    ended = f'no output for {self.step_timeout} s (killed)' if time.time() <= self.deadline + 30 else 'deadline (killed)'
                    break
            if current is None:
                if ended.startswith('exit 0') or 'deadline' in ended:
                    break
                if todo == [] or proc.returncode == 0:
                    break
                # died before its first shape began: setup failed; try once more, then stop.
                strikes['setup'] = strikes.get('setup', 0) + 1
                self.log.write(f'child died before a shape ({ended})\n')
                if strikes['setup'] >= 2:
                    break
                continue
            key = shapes.shape_key(current)
            what = step.get('what') if step else 'setup'
            build = step.get('build') if step else None
            self.log.write(f'{key}: child ended ({ended}) at {what} {build}\n')
            if step and what in ('check', 'capture') and build in {r['build'] for r in self.builds_of(kind, current)}:
                excluded.setdefault(key, []).append(build)
                failures.setdefault(key, []).append({'build': build, 'step': what, 'why': ended})
            else:
                strikes[key] = strikes.get(key, 0) + 1
                failures.setdefault(key, []).append({'build': build, 'step': what, 'why': ended})
                if strikes[key] >= 2:
                    todo = [s for s in todo if s != current]
        return results, failures, todo

    def builds_of(self, kind, shape):
        return [r for r in self.index[kind] if r['shape'] == shape]


def smi_logger(path):
    """nvidia-smi sampling every 250 ms into path (CSV), or None without nvidia-smi."""
    try:
        fields = subprocess.run(['nvidia-smi', '--help-query-gpu'], capture_output=True, text=True).stdout
        reasons = 'clocks_event_reasons.active' if 'clocks_event_reasons.active' in fields else 'clocks_throttle_reasons.active'
        return subprocess.Popen(
            ['nvidia-smi', f'--query-gpu=timestamp,name,clocks.sm,clocks.mem,power.draw,temperature.gpu,{reasons},driver_version',
             '--format=csv,noheader,nounits', '-lms', '250'],
            stdout=open(path, 'w'), stderr=subprocess.DEVNULL)
    except OSError:
        return None


def read_smi(path):
    samples = []
    if not os.path.exists(path):
        return samples
    for line in open(path):
        parts = [p.strip() for p in line.split(',')]
        if len(parts) < 8:
            continue
        try:
            t = time.mktime(time.strptime(parts[0].split('.')[0], '%Y/%m/%d %H:%M:%S')) + float('0.' + parts[0].split('.')[1]) if '.' in parts[0] else 0
            samples.append({'t': t, 'name': parts[1], 'sm_mhz': float(parts[2]), 'mem_mhz': float(parts[3]),
                            'power_w': float(parts[4]), 'temp_c': float(parts[5]), 'reasons': parts[6], 'driver': parts[7]})
        except ValueError:
            continue
    return samples


def window_stats(samples, window):
    inside = [s for s in samples if window and window[0] - 0.3 <= s['t'] <= window[1] + 0.3]
    if not inside:
        return None
    return {'sm_mhz': statistics.median(s['sm_mhz'] for s in inside), 'mem_mhz': statistics.median(s['mem_mhz'] for s in inside),
            'power_w_median': statistics.median(s['power_w'] for s in inside), 'power_w_max': max(s['power_w'] for s in inside),
            'temp_c_max': max(s['temp_c'] for s in inside), 'throttle_reasons': sorted({s['reasons'] for s in inside}),
            'samples': len(inside)}


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


METHOD = __doc__.split('Method (every row):', 1)[1].split('Records ($OUT)', 1)[0].strip()


def assemble(kind, index, results, failures, leftover, card, smi, cache_path):
    """The records of one kind: {rows, shapes, goals, method, card}."""
    facts = {(r['build'], shapes.shape_key(r['shape'])): r for r in index[kind]}
    anchor_key = 'cublas' if kind == 'gemm' else 'sdpa_cudnn'
    rows, summary = [], []
    card_name = (card or {}).get('name', 'unknown')
    for key, res in results.items():
        shape = res['shape']
        clocks = window_stats(smi, res.get('window'))
        anchors = {name: a.get('tflops') for name, a in res['anchors'].items()}
        for b in res['builds']:
            f = facts.get((b['build'], key), {})
            row = {'shape': shape, 'build': b['build'], 'name': b['name'], 'path': 'tma', 'card': card_name,
                   'tflops': b.get('tflops'), 'ms': b.get('ms'), 'anchors': anchors,
                   'out_dtype': b['out_dtype'], 'anchor_out_dtype': 'bf16', 'ok': b['ok'],
                   'max_abs_err': b['max_abs_err'], 'rel_err': b['rel_err'], 'nan': b['nan'],
                   'registers': f.get('registers'), 'spills': f.get('spills'), 'stack': f.get('stack'),
                   'stages': f.get('stages'), 'shared_bytes': f.get('shared_bytes'), 'image': b.get('image'),
                   'loop': b.get('loop'), 'timing': b.get('mode'), 'ms_rounds': b.get('ms_rounds'), 'clocks': clocks,
                   # Launched with programmatic stream serialization (the manifest's
                   # programmatic_launch: a --pdl=1 build); the anchors are torch's launches.
                   'programmatic_launch': bool(b.get('programmatic'))}
            if kind == 'gemm':
                row['exact'] = b['exact']
                row['int_wrong'] = b['int_wrong']
                row['gen_args'] = choose.gen_args(shapes.base_build(b['build']), *shape)
            for name, tf in anchors.items():
                if tf and b.get('tflops'):
                    row[f'ratio_to_{name.replace("sdpa_", "")}'] = b['tflops'] / tf
            rows.append(row)
        for fail in failures.get(key, []):
            rows.append({'shape': shape, 'build': fail['build'], 'card': card_name, 'ok': False,
                         'failed': f'{fail["step"]}: {fail["why"]}'})
        timed = [b for b in res['builds'] if b.get('tflops')]
        entry = {'shape': shape, 'anchors': res['anchors'], 'clocks': clocks}
        if kind == 'gemm':
            bf16 = [b for b in timed if b['out_dtype'] == 'bf16']
            best = max(bf16, key=lambda b: b['tflops']) if bf16 else None
            model_pick, _ = choose.choose(*shape, out='bf16')
            entry['model_pick'] = model_pick
            if best:
                entry.update(best_build=best['build'], best_tflops=best['tflops'])
                # A tagged build (NAME@TAG) is another compiler's NAME: the cache keeps untagged builds.
                untagged = {b['build']: b['ms'] for b in bf16 if not shapes.split_tag(b['build'])[1]}
                entry['timed_pick'] = choose.record(cache_path, card_name, *shape, 'bf16', untagged) if untagged else None
                picked = next((b for b in bf16 if b['build'] == model_pick), None)
                entry['model_pick_fraction_of_best'] = picked['tflops'] / best['tflops'] if picked else None
                cub = anchors.get('cublas')
                entry['ratio_to_cublas'] = best['tflops'] / cub if cub else None
                if picked and cub:
                    entry['model_pick_ratio_to_cublas'] = picked['tflops'] / cub
        else:
            bf16 = [b for b in timed if b['out_dtype'] == 'bf16'] or timed
            best = max(bf16, key=lambda b: b['tflops']) if bf16 else None
            rule_pick = shapes.attention_choose.choose(shape[0] * shape[1], shape[2], shape[3], shape[4])
            entry['rule_pick'] = rule_pick
            if best:
                entry.update(best_build=best['build'], best_tflops=best['tflops'])
                picked = next((b for b in bf16 if b['build'] == rule_pick), None)
                entry['rule_pick_fraction_of_best'] = picked['tflops'] / best['tflops'] if picked else None
                if picked and anchors.get('sdpa_cudnn'):
                    entry['rule_pick_ratio_to_cudnn'] = picked['tflops'] / anchors['sdpa_cudnn']
                for name in ('sdpa_cudnn', 'sdpa_flash'):
                    if anchors.get(name):
                        entry[f'ratio_to_{name.replace("sdpa_", "")}'] = best['tflops'] / anchors[name]
        summary.append(entry)
    del anchor_key
    return {'rows': rows, 'shapes': summary, 'goals': goals_of(kind, summary, leftover), 'method': METHOD, 'card': card}


def goals_of(kind, summary, leftover):
    """Issue 39's goals over a record's shape summaries (`leftover`: the shapes not measured)."""
    ratio = 'ratio_to_cublas' if kind == 'gemm' else 'ratio_to_cudnn'
    ratios = [e[ratio] for e in summary if e.get(ratio)]
    goals = {'shapes_measured': len(ratios), 'shapes_not_measured': [shapes.shape_key(s) for s in leftover],
             f'min_{ratio}': min(ratios) if ratios else None, f'geomean_{ratio}': geomean(ratios)}
    if kind == 'gemm':
        goals.update(goal='best build per shape >= 0.95x cuBLAS at every shape and >= 1.05x geomean, bf16 out',
                     met=bool(ratios) and min(ratios) >= 0.95 and geomean(ratios) >= 1.05 and not leftover,
                     shapes_below_0_95=[shapes.shape_key(e['shape']) for e in summary if (e.get(ratio) or 0) < 0.95])
    else:
        flash = [e['ratio_to_flash'] for e in summary if e.get('ratio_to_flash')]
        goals.update(min_ratio_to_flash=min(flash) if flash else None, geomean_ratio_to_flash=geomean(flash))
    return goals


def kind_of(record):
    """'gemm' or 'attention': a record's shapes are M N K or B H S D causal."""
    return 'gemm' if len(record['shapes'][0]['shape']) == 3 else 'attention'


def merge(paths):
    """One record from runs of one kind on one card whose shapes do not overlap (a sweep cut
    by its budget, finished by a second run with --shape on the same machine): rows and
    shapes joined, the goals recomputed over all of them, `runs` saying which shapes each
    run measured."""
    records = []
    for path in paths:
        with open(path) as f:
            records.append(json.load(f))
    kind = kind_of(records[0])
    cards = {(r['card'] or {}).get('name') for r in records}
    if len(cards) != 1:
        raise ValueError(f'records of different cards: {sorted(map(str, cards))}')
    seen = set()
    for r in records:
        keys = {shapes.shape_key(e['shape']) for e in r['shapes']}
        if keys & seen:
            raise ValueError(f'a shape measured twice: {sorted(keys & seen)}')
        seen |= keys
    summary = [e for r in records for e in r['shapes']]
    measured = {shapes.shape_key(e['shape']) for e in summary}
    leftover = {k for r in records for k in r['goals'].get('shapes_not_measured', [])} - measured
    every = shapes.GEMM_SHAPES if kind == 'gemm' else shapes.ATTN_SHAPES
    merged = dict(records[0])
    merged.update(rows=[row for r in records for row in r['rows']], shapes=summary,
                  goals=goals_of(kind, summary, [s for s in every if shapes.shape_key(s) in leftover]),
                  runs=[{'file': os.path.basename(p), 'index_commit': r.get('index_commit'), 'seconds': r.get('seconds'),
                         'shapes': [shapes.shape_key(e['shape']) for e in r['shapes']]} for p, r in zip(paths, records)])
    return merged


def compare(old_path, new_path):
    """How two records of one kind (two leases, or two starts of a machine) differ, shape by
    shape over the shapes both measured: the new best build's TFLOP/s over the old one's,
    each anchor's new over old, and each build timed in both, new over old. Returns
    {what: (geomean, min, max, count)} (what: 'best build', an anchor's name, 'same build')."""
    records = []
    for path in (old_path, new_path):
        with open(path) as f:
            records.append(json.load(f))
    if kind_of(records[0]) != kind_of(records[1]):
        raise ValueError('records of different kinds')
    old, new = ({shapes.shape_key(e['shape']): e for e in r['shapes']} for r in records)
    ratios = {}
    for key in sorted(old.keys() & new.keys()):
        if old[key].get('best_tflops') and new[key].get('best_tflops'):
            ratios.setdefault('best build', []).append(new[key]['best_tflops'] / old[key]['best_tflops'])
        for anchor, timed in new[key]['anchors'].items():
            before = old[key]['anchors'].get(anchor) or {}
            if timed.get('tflops') and before.get('tflops'):
                ratios.setdefault(anchor, []).append(timed['tflops'] / before['tflops'])
    old_rows, new_rows = (timed_rows(rec) for rec in records)
    ratios['same build'] = [new_rows[k] / old_rows[k] for k in sorted(old_rows.keys() & new_rows.keys())]
    return {what: (geomean(v), min(v), max(v), len(v)) for what, v in ratios.items() if v}


def timed_rows(record):
    """{(shape key, build): TFLOP/s} of a record's timed rows."""
    return {(shapes.shape_key(r['shape']), r['build']): r['tflops'] for r in record['rows'] if r.get('tflops')}


def paired_ratios(path, pair_of, none_found):
    """One record's builds timed in pairs at a shape: pair_of(build) gives (label, numerator
    build, denominator build) for a build that starts a pair, else None; where both were
    timed at a shape, the numerator's TFLOP/s over the denominator's, in the same process
    and rounds. Returns ({(shape key, label): ratio}, {shape key: geomean of its ratios},
    (geomean, min, max) of all); no pair at all is ValueError(none_found)."""
    with open(path) as f:
        timed = timed_rows(json.load(f))
    pairs = {}
    for key, build in timed:
        pair = pair_of(build)
        if pair and (key, pair[1]) in timed and (key, pair[2]) in timed:
            pairs[(key, pair[0])] = timed[(key, pair[1])] / timed[(key, pair[2])]
    if not pairs:
        raise ValueError(none_found)
    by_shape = {}
    for (key, _), ratio in pairs.items():
        by_shape.setdefault(key, []).append(ratio)
    ratios = list(pairs.values())
    return pairs, {key: geomean(v) for key, v in by_shape.items()}, (geomean(ratios), min(ratios), max(ratios))


def tags(path, old_tag, new_tag):
    """One record's builds compiled twice (bench/tc_sweep_build.py --tag): for each shape and
    build timed as NAME@OLD and NAME@NEW, NEW's TFLOP/s over OLD's (paired_ratios, labelled
    NAME)."""
    def pair_of(build):
        base, tag = shapes.split_tag(build)
        return (base, shapes.tagged(base, new_tag), build) if tag == old_tag else None
    return paired_ratios(path, pair_of, f'no build timed as both NAME@{old_tag} and NAME@{new_tag} at one shape')


def twin_base(build, option):
    """The base of a twin build named with `_OPTION` inserted (GEMM: before `_ob16`, as
    u128_ws_sks_pdl_ob16; attention: at the end, as flpgw_r128_k128_o16_lpt), or None."""
    mark = f'_{option}'
    if build.endswith(mark):
        return build[:-len(mark)]
    return build.replace(f'{mark}_', '_', 1) if f'{mark}_' in build else None


def twins(path, option):
    """One record's twin builds (each its base build with one more gen.py option, named with
    `_OPTION`: choose.py's *_pdl_*, *_rw_*, *_lpt): for each shape where a twin and its base
    were both timed, the twin's TFLOP/s over the base's (paired_ratios, labelled by the twin)."""
    def pair_of(build):
        base = twin_base(build, option)
        return (build, build, base) if base else None
    return paired_ratios(path, pair_of, f'no twin named with _{option} timed beside its base at one shape')


def print_ratios(result, width, ratio, every, total, count):
    """paired_ratios' result as the tags and twins commands print it: a line per pair, per
    shape and for all."""
    pairs, by_shape, (geo, low, high) = result
    for (key, label), value in sorted(pairs.items()):
        print(f'{key:18} {label:{width}} {ratio} {value:.3f}')
    for key, value in sorted(by_shape.items()):
        print(f'{key:18} {every:{width}} {ratio} {value:.3f}')
    print(f'{total}: {geo:.3f} in geomean ({low:.3f} to {high:.3f}, {len(pairs)} {count})')


def summary_lines(kind, record):
    lines = [f'== {kind} ({(record["card"] or {}).get("name", "?")})']
    for e in record['shapes']:
        anchors = ' '.join(f'{k}={v["tflops"]:.1f}' if v.get('tflops') else f'{k}=({v.get("error", "not timed")[:40]})'
                           for k, v in e['anchors'].items())
        ratio = e.get('ratio_to_cublas', e.get('ratio_to_cudnn'))
        extra = f' model_pick={e["model_pick"]}' if 'model_pick' in e else ''
        lines.append(f'{shapes.shape_key(e["shape"]):18} best={e.get("best_build", "-"):18} {e.get("best_tflops", 0) or 0:7.1f} TF  '
                     f'{anchors}  ratio={ratio if ratio is None else round(ratio, 3)}{extra}')
    bad = [r for r in record['rows'] if not r.get('ok')]
    for r in bad:
        lines.append(f'  NOT OK {shapes.shape_key(r["shape"])} {r.get("build")}: {r.get("failed") or ("rel_err %.3g exact %s" % (r.get("rel_err", -1), r.get("exact")))}')
    lines.append('goals: ' + json.dumps(record['goals']))
    return lines


def run(args, command=None):
    out = os.path.abspath(args.out)
    index_path = os.path.join(os.path.abspath(args.builds), 'index.json')
    with open(index_path) as f:
        index = json.load(f)
    kinds = [k for k in ('gemm', 'attention') if args.only in (None, k)]
    # Each kind's shapes that have a build to run, chosen before anything starts (the
    # output folder, nvidia-smi's logger), so a misnamed --shape leaves nothing behind.
    # A shape named with --shape that the folder has no build of is recorded as not
    # measured, not dropped: a carry cut too small shows in the record.
    todos, unbuilt = {}, {}
    for kind in kinds:
        every = [list(s) for s in (shapes.GEMM_SHAPES if kind == 'gemm' else shapes.ATTN_SHAPES)]
        built = [s for s in every if any(r['ok'] and r['shape'] == s for r in index[kind])]
        named = getattr(args, 'shape', None)
        try:
            todos[kind] = shapes.pick(built, args.shapes, named)
        except ValueError as e:
            sys.exit(f'tc_sweep.py: {e}')
        unbuilt[kind] = [s for s in shapes.pick(every, None, named) if s not in built] if named else []
    os.makedirs(out, exist_ok=True)
    start = time.time()
    deadline = start + args.budget_s
    log = open(os.path.join(out, 'sweep-log.txt'), 'a')
    smi_path = os.path.join(out, 'smi.csv')
    smi = None if args.fake else smi_logger(smi_path)
    sup = Supervisor(command or [sys.executable, os.path.abspath(__file__)], log, args.step_timeout_s, deadline)
    sup.index = index
    cache_path = os.path.join(out, 'gemm-choices.json')
    records = {}
    for kind, todo in todos.items():
        # GEMM gets its share of the budget; attention the rest.
        sup.deadline = min(deadline, time.time() + args.gemm_share * (deadline - time.time())) if kind == 'gemm' and len(kinds) > 1 else deadline
        rounds = args.rounds or (GEMM_ROUNDS if kind == 'gemm' else ATTN_ROUNDS)
        results, failures, leftover = sup.run(kind, todo, index_path, os.path.abspath(args.builds), rounds)
        samples = read_smi(smi_path)
        if sup.card is not None and samples:
            sup.card.update(driver=samples[-1]['driver'], smi_name=samples[-1]['name'])
        record = assemble(kind, index, results, failures, leftover + unbuilt[kind], sup.card, samples, cache_path)
        record['index_commit'] = index.get('commit')
        record['seconds'] = round(time.time() - start, 1)
        records[kind] = record
        with open(os.path.join(out, f'{kind}-sweep.json'), 'w') as f:
            json.dump(record, f, indent=1)
    if smi:
        smi.terminate()
    lines = []
    for kind, record in records.items():
        lines += summary_lines(kind, record)
    lines.append(f'total {time.time() - start:.0f} s')
    with open(os.path.join(out, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('--builds', required=True)
    r.add_argument('--out', required=True)
    r.add_argument('--budget-s', type=float, default=480)
    r.add_argument('--gemm-share', type=float, default=0.55, help='share of the budget GEMM may use when both kinds run')
    r.add_argument('--step-timeout-s', type=float, default=45)
    r.add_argument('--only', choices=['gemm', 'attention'])
    r.add_argument('--shapes', type=int, help='the first N shapes of each kind')
    r.add_argument('--shape', action='append', help='only this shape (as the summary names it, e.g. 6000x10000x3000); repeatable, run in the order named')
    r.add_argument('--rounds', type=int)
    r.add_argument('--fake', action='store_true', help=argparse.SUPPRESS)
    c = sub.add_parser('child')
    for name in ('--kind', '--index', '--builds', '--todo', '--exclude'):
        c.add_argument(name, required=True)
    c.add_argument('--rounds', type=int, required=True)
    c.add_argument('--deadline', type=float, required=True)
    d = sub.add_parser('dry-run')
    d.add_argument('--builds', required=True)
    d.add_argument('--out', default=None)
    m = sub.add_parser('merge', help='one record from runs of one kind on one card (merge)')
    m.add_argument('out')
    m.add_argument('records', nargs='+')
    k = sub.add_parser('compare', help='two records of one kind, shape by shape: new over old (compare)')
    k.add_argument('old')
    k.add_argument('new')
    t = sub.add_parser('tags', help='one record: builds tagged NEW over the same builds tagged OLD (tags)')
    t.add_argument('record')
    t.add_argument('old')
    t.add_argument('new')
    w = sub.add_parser('twins', help='one record: twin builds (_OPTION in the name) over their bases (twins)')
    w.add_argument('record')
    w.add_argument('option', help='the twins\' mark without its underscore: pdl, rw, lpt')
    args = parser.parse_args()
    if args.cmd in ('twins', 'tags'):
        try:
            if args.cmd == 'twins':
                result = twins(args.record, args.option)
            else:
                result = tags(args.record, args.old, args.new)
        except ValueError as error:
            sys.exit(f'tc_sweep.py {args.cmd}: error: {error}')
        if args.cmd == 'twins':
            print_ratios(result, 30, 'twin / base', 'every twin (geomean)', f'_{args.option} twins / bases',
                         'twins x shapes')
        else:
            print_ratios(result, 26, f'{args.new} / {args.old}', 'every build (geomean)', f'{args.new} / {args.old}',
                         'builds x shapes')
    elif args.cmd == 'run':
        run(args)
    elif args.cmd == 'merge':
        try:
            record = merge(args.records)
        except ValueError as error:
            sys.exit(f'tc_sweep.py merge: error: {error}')
        with open(args.out + '.tmp', 'w') as f:
            json.dump(record, f, indent=1)
        os.replace(args.out + '.tmp', args.out)
        print('\n'.join(summary_lines(kind_of(record), record)))
    elif args.cmd == 'compare':
        try:
            table = compare(args.old, args.new)
        except ValueError as error:
            sys.exit(f'tc_sweep.py compare: error: {error}')
        for what, (geo, low, high, count) in table.items():
            print(f'{what}: new / old {geo:.3f} in geomean ({low:.3f} to {high:.3f}, {count} shapes or builds x shapes)')
    elif args.cmd == 'child':
        child(args)
    else:
        import tc_sweep_test
        sys.exit(tc_sweep_test.dry_run(args.builds, args.out))


if __name__ == '__main__':
    main()
