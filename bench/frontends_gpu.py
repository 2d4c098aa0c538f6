#!/usr/bin/env python3
"""acopy.jax and acopy.torch on the GPU: every GPU case of issue 41 items 3 and 4
in one process, written to OUT_DIR/frontends.json (the shape of
bench/results/frontends.json).

    XLA_PYTHON_CLIENT_PREALLOCATE=false python3 bench/frontends_gpu.py OUT_DIR

Needs `import acopy` (the package on PYTHONPATH or installed), jax with its CUDA
plugin, torch with CUDA and Triton. Kernels come from examples/gemm/gen.py and
examples/attention/gen.py, compiled here by acopy.compile.

JAX (through XLA's FFI, python/src/xla.rs): the GEMM (TMA + wgmma on sm_90a,
cp.async + mma.sync from sm_80 PTX) in a jitted function against jnp.matmul; the
attention kernel (TMA on sm_90, cp.async on sm_80; causal and not) jitted and
eager against jax.nn.dot_product_attention; one jit with two acopy calls and JAX
ops between them, run under jax.transfer_guard("disallow") with its executable's
HLO checked for host ops; the refusals (shape, dtype at trace time; a host
array eagerly and under jit, by the CPU handler). torch (torch.library custom
op): torch.compile(fullgraph=True) of a function calling the attention op
against SDPA, with torch._dynamo.explain's graph and break counts; the op
captured in a CUDA graph and replayed on new inputs; a launch under
torch.cuda.stream(s); the refusals (shape, dtype, device, layout) eagerly and
while compiling. Overheads: median host µs per call, each call timed alone,
batches of 200 with an untimed synchronisation between them (as
bench/launch_overhead.py), all in this process: the jitted acopy call against a
jitted XLA op, the torch op against acopy.Kernel and a Triton kernel.

A case is ok when it is exact or within its tolerance (the largest absolute
difference; 2e-2 for bf16 attention, 1e-2 for f16, as
examples/attention/run_attention.py; 1e-2 for the GEMMs, whose sums of K
products are ordered differently from cuBLAS's), or, for a refusal, when the
expected error names the argument. Exit status 1 when any case is not ok.
"""

import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

from noop_kernel import NOOP

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

ROOT = Path(__file__).resolve().parents[1]
BATCH = 200
CASES = []


def record(frontend, case, path=None, **facts):
    item = {"frontend": frontend, "case": case, "path": path, **facts}
    CASES.append(item)
    print(json.dumps(item), flush=True)
    return item


def guarded(frontend, case, path=None):
    """Runs a case function; an exception is a failed case with its traceback's last line."""
    def wrap(fn):
        start = time.time()
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - every failure is a result
            record(frontend, case, path, ok=False, error=f"{type(e).__name__}: {e}",
                   trace=traceback.format_exc().splitlines()[-3:])
        finally:
            print(f"   ({case}: {time.time() - start:.1f} s)", flush=True)
        return fn
    return wrap


def generate(script, *args):
    return subprocess.run([sys.executable, str(ROOT / "examples" / script), *map(str, args)],
                          check=True, capture_output=True, text=True).stdout


def compiled_kernel(source):
    import acopy

    compiled = acopy.compile(source)
    return compiled.kernel(compiled.manifest["kernels"][0]["kernel"])


def gemm_kernel(m, n, k, chip):
    flags = ["--chip=sm_90a"] if chip == "sm_90a" else ["--chip=sm_80", "--dtype=f16"]
    return compiled_kernel(generate("gemm/gen.py", m, n, k, *flags))


def attention_kernel(bh, s, d, causal, chip, dtype):
    flags = [f"--chip={chip}", f"--dtype={dtype}"] + (["--causal"] if causal else [])
    return compiled_kernel(generate("attention/gen.py", bh, s, d, 2, *flags))


def per_call_us(call, sync, calls=4000):
    for _ in range(BATCH):
        call()
    sync()
    times = []
    clock = time.perf_counter_ns
    while len(times) < calls:
        for _ in range(BATCH):
            start = clock()
            call()
            times.append(clock() - start)
        sync()
    return round(statistics.median(times) / 1000.0, 2)


def refusal(frontend, case, run, kind, needle):
    try:
        run()
    except Exception as e:  # noqa: BLE001
        text = f"{type(e).__name__}: {e}"
        ok = isinstance(e, kind) and needle in str(e)
        return record(frontend, case, ok=ok, refused=True, message=text[:400])
    return record(frontend, case, ok=False, refused=False, message="not refused")


# ------------------------------------------------------------------------ JAX


def jax_cases():
    import jax
    import jax.numpy as jnp

    import acopy.jax

    rng = jax.random.PRNGKey(41)

    for chip, path, dtype in (("sm_90a", "tma", jnp.bfloat16), ("sm_80", "cp_async", jnp.float16)):
        @guarded("jax", "gemm 512x512x512 jit vs jnp.matmul", path)
        def _():
            m = n = k = 512
            g = acopy.jax.function(gemm_kernel(m, n, k, chip), outputs="out", grid=(n // 128, m // 128))

            @jax.jit
            def matmul(a, b):
                # src: A (M x K) over Bᵀ (N x K), the kernel's layout (gen.py).
                return g(jnp.concatenate([a, b.T], axis=0))

            a = jax.random.normal(jax.random.fold_in(rng, 1), (m, k), jnp.float32).astype(dtype)
            b = jax.random.normal(jax.random.fold_in(rng, 2), (k, n), jnp.float32).astype(dtype)
            got = matmul(a, b)
            want = jnp.matmul(a, b, preferred_element_type=jnp.float32, precision="highest")
            err = float(jnp.max(jnp.abs(got - want)))
            record("jax", "gemm 512x512x512 jit vs jnp.matmul", path, shape=[m, n, k], dtype=jnp.dtype(dtype).name,
                   ok=err <= 1e-2, exact=err == 0.0, max_abs_error=err, tolerance=1e-2)

    def reference(q, k, v, causal):
        f = lambda x: x.astype(jnp.float32)[:, :, None, :]  # (B, T, N=1, H)
        return jax.nn.dot_product_attention(f(q), f(k), f(v), is_causal=causal)[:, :, 0, :]

    attn_cases = (("sm_90", "tma", "bf16", False), ("sm_90", "tma", "bf16", True), ("sm_80", "cp_async", "f16", True))
    for chip, path, dtype, causal in attn_cases:
        name = f"attention 2x256x64 {dtype}{' causal' if causal else ''}"

        @guarded("jax", name, path)
        def _():
            bh, s, d = 2, 256, 64
            f = acopy.jax.function(attention_kernel(bh, s, d, causal, chip, dtype), outputs="out", grid=(s // 64, bh))
            jdt = jnp.bfloat16 if dtype == "bf16" else jnp.float16
            q, k, v = (jax.random.normal(jax.random.fold_in(rng, 10 + i), (bh, s, d), jnp.float32).astype(jdt)
                       for i in range(3))
            want = reference(q, k, v, causal)
            tol = 2e-2 if dtype == "bf16" else 1e-2
            for mode, fn in (("jit", jax.jit(f)), ("eager", f)):
                err = float(jnp.max(jnp.abs(fn(q, k, v) - want)))
                record("jax", f"{name} {mode} vs jax.nn.dot_product_attention", path, shape=[bh, s, d],
                       ok=err <= tol, exact=err == 0.0, max_abs_error=err, tolerance=tol)

    @guarded("jax", "two acopy calls and JAX ops in one jit", "tma")
    def _():
        bh, s, d = 2, 256, 64
        f = acopy.jax.function(attention_kernel(bh, s, d, False, "sm_90", "bf16"), outputs="out", grid=(s // 64, bh))

        def chain(q, k, v):
            o = f(q, k, v)
            q2 = (o * 0.5 + q.astype(jnp.float32)).astype(jnp.bfloat16)
            return f(q2, k, v) * 2.0

        def chain_ref(q, k, v):
            o = reference(q, k, v, False)
            q2 = (o * 0.5 + q.astype(jnp.float32)).astype(jnp.bfloat16)
            return reference(q2, k, v, False) * 2.0

        q, k, v = (jax.random.normal(jax.random.fold_in(rng, 20 + i), (bh, s, d), jnp.float32).astype(jnp.bfloat16)
                   for i in range(3))
        jitted = jax.jit(chain)
        hlo = jitted.lower(q, k, v).compile().as_text()
        host_ops = [op for op in ("send(", "recv(", "infeed(", "outfeed(", "callback") if op in hlo]
        with jax.transfer_guard("disallow"):
            got = jitted(q, k, v)
            got.block_until_ready()
        err = float(jnp.max(jnp.abs(got - jax.jit(chain_ref)(q, k, v))))
        calls = hlo.count('custom_call_target="acopy_launch"')
        record("jax", "two acopy calls and JAX ops in one jit", "tma", shape=[bh, s, d],
               ok=err <= 4e-2 and calls == 2 and not host_ops, max_abs_error=err, tolerance=4e-2,
               acopy_calls_in_executable=calls, host_ops=host_ops, transfer_guard="disallow")

    @guarded("jax", "refusals")
    def _():
        bh, s, d = 2, 256, 64
        f = acopy.jax.function(attention_kernel(bh, s, d, False, "sm_90", "bf16"), outputs="out", grid=(s // 64, bh))
        good = jnp.zeros((bh, s, d), jnp.bfloat16)
        refusal("jax", "refused: shape (jit, trace time)", lambda: jax.jit(f)(jnp.zeros((bh, s, 32), jnp.bfloat16), good, good),
                ValueError, "argument 'q' (0,")
        refusal("jax", "refused: dtype (jit, trace time)", lambda: jax.jit(f)(good, good.astype(jnp.float16), good),
                TypeError, "argument 'k' (1,")
        host = jax.device_put(good, jax.devices("cpu")[0])
        refusal("jax", "refused: host array (eager)", lambda: f(good, good, host), ValueError, "argument 'v' (2,")
        refusal("jax", "refused: host array (jit, CPU handler)",
                lambda: jax.jit(f)(host, host, host).block_until_ready(), Exception, "argument 'q' (0,")

    @guarded("jax", "overhead")
    def _():
        import numpy as np

        noop = acopy.jax.function(compiled_kernel(NOOP), outputs="out", grid=1, block=128, scalars={"n": 3})
        x = jnp.asarray(np.arange(1024, dtype=np.float32))
        acopy_call = jax.jit(noop)
        xla_op = jax.jit(lambda a: a * 2.0)
        sync = lambda: acopy_call(x).block_until_ready()  # noqa: E731 - one more call, then a wait
        record("jax", "overhead", ok=True, unit="median host us per call",
               jit_acopy_call=per_call_us(lambda: acopy_call(x), sync),
               jit_xla_op=per_call_us(lambda: xla_op(x), lambda: xla_op(x).block_until_ready()))




# ---------------------------------------------------------------------- torch


def torch_cases():
    import torch
    import torch.nn.functional as F

    import acopy.torch

    bh, s, d = 2, 256, 64
    gen = torch.Generator(device="cuda").manual_seed(41)

    def qkv():
        return [torch.randn((bh, s, d), device="cuda", generator=gen).to(torch.bfloat16) for _ in range(3)]

    def sdpa(q, k, v, causal):
        return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)

    ops = {}

    def op(causal):
        if causal not in ops:
            kernel = attention_kernel(bh, s, d, causal, "sm_90", "bf16")
            ops[causal] = acopy.torch.op(kernel, outputs="out", grid=(s // 64, bh))
        return ops[causal]

    for causal in (False, True):
        name = f"attention 2x256x64 bf16{' causal' if causal else ''} torch.compile(fullgraph=True) vs SDPA"

        @guarded("torch", name, "tma")
        def _():
            attn = op(causal)

            def block(q, k, v):
                o = attn(q * 1.0, k, v)
                return o.to(torch.bfloat16).float() + 0.0

            q, k, v = qkv()
            explained = torch._dynamo.explain(block)(q, k, v)
            torch._dynamo.reset()
            compiled = torch.compile(block, fullgraph=True)
            got = compiled(q, k, v)
            want = sdpa(q, k, v, causal).to(torch.bfloat16).float()
            torch.cuda.synchronize()
            err = (got - want).abs().max().item()
            record("torch", name, "tma", shape=[bh, s, d], ok=err <= 2e-2 and explained.graph_break_count == 0,
                   exact=err == 0.0, max_abs_error=err, tolerance=2e-2, graphs=explained.graph_count,
                   graph_breaks=explained.graph_break_count)

    @guarded("torch", "CUDA graph capture and replay", "tma")
    def _():
        attn = op(False)
        q, k, v = qkv()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                attn(q, k, v)  # loads the module, encodes the tensor maps: nothing of that is captured
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = attn(q, k, v)
        fresh = qkv()
        for static, new in zip((q, k, v), fresh):
            static.copy_(new)
        graph.replay()
        torch.cuda.synchronize()
        err = (out - sdpa(*fresh, False)).abs().max().item()
        record("torch", "CUDA graph capture and replay", "tma", shape=[bh, s, d], ok=err <= 2e-2,
               exact=err == 0.0, max_abs_error=err, tolerance=2e-2)

    @guarded("torch", "launch on the current stream", "tma")
    def _():
        attn = op(True)
        q, k, v = qkv()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            out = attn(q, k, v)
            got = out.clone()  # ordered after the launch only if it went to `side`
        side.synchronize()
        err = (got - sdpa(q, k, v, True)).abs().max().item()
        record("torch", "launch on the current stream", "tma", shape=[bh, s, d], ok=err <= 2e-2,
               max_abs_error=err, tolerance=2e-2)

    @guarded("torch", "refusals")
    def _():
        attn = op(False)
        q, k, v = qkv()
        refusal("torch", "refused: shape", lambda: attn(q[:, :, :32].contiguous(), k, v), ValueError, "argument 'q' (0,")
        refusal("torch", "refused: dtype", lambda: attn(q, k.float(), v), TypeError, "argument 'k' (1,")
        refusal("torch", "refused: device", lambda: attn(q, k, v.cpu()), ValueError, "argument 'v' (2,")
        refusal("torch", "refused: layout", lambda: attn(q.transpose(1, 2).contiguous().transpose(1, 2), k, v),
                ValueError, "argument 'q' (0,")
        compiled = torch.compile(lambda q, k, v: attn(q, k, v), fullgraph=True)
        refusal("torch", "refused: dtype while compiling (fake)", lambda: compiled(q, k.half(), v), Exception,
                "argument 'k' (1,")

    @guarded("torch", "overhead")
    def _():
        import triton
        import triton.language as tl

        kernel = compiled_kernel(NOOP)
        noop_op = acopy.torch.op(kernel, outputs="out", grid=1, block=128, scalars={"n": 3})
        src = torch.arange(1024, device="cuda", dtype=torch.float32)
        out = torch.empty_like(src)

        @triton.jit
        def noop(src, out, n):
            if tl.program_id(0) == 0:
                tl.store(out + n, tl.load(src + n))

        record("torch", "overhead", ok=True, unit="median host us per call",
               torch_op=per_call_us(lambda: noop_op(src), torch.cuda.synchronize),
               acopy_kernel=per_call_us(lambda: kernel(src, out, 3, grid=1, block=128), torch.cuda.synchronize),
               triton=per_call_us(lambda: noop[(1,)](src, out, 3, num_warps=4), torch.cuda.synchronize))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 bench/frontends_gpu.py OUT_DIR")
    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    import torch  # before jax: both share the card (no preallocation)
    import jax

    print(f"== {torch.cuda.get_device_name()}, jax {jax.__version__} {jax.devices()}", flush=True)
    for part in (jax_cases, torch_cases):
        try:
            part()
        except Exception as e:  # noqa: BLE001
            record(part.__name__, "setup", ok=False, error=f"{type(e).__name__}: {e}")
    versions = {"python": platform.python_version(), "torch": torch.__version__, "jax": jax.__version__}
    try:
        import triton
        versions["triton"] = triton.__version__
    except ImportError:
        pass
    result = {
        "what": "acopy.jax (XLA FFI) and acopy.torch (torch.library custom op) on the GPU: bench/frontends_gpu.py",
        "date": time.strftime("%Y-%m-%d"),
        "device": torch.cuda.get_device_name(),
        "versions": versions,
        "seconds": round(time.time() - started, 1),
        "ok": all(c["ok"] for c in CASES),
        "cases": [c for c in CASES if c["case"] != "overhead"],
        "overheads_us": {c["frontend"]: {k: v for k, v in c.items() if k not in ("frontend", "case", "path", "ok")}
                         for c in CASES if c["case"] == "overhead"},
    }
    (out_dir / "frontends.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"== {sum(c['ok'] for c in CASES)} of {len(CASES)} ok, {result['seconds']} s: {out_dir / 'frontends.json'}")
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
