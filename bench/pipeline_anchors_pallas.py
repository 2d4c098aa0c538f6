#!/usr/bin/env python3
"""Pallas anchors for the pipelined-loop bandwidth (bench/results/pipeline-h200.json).

On the GPU machine, in the same device session as acopy-gpu-pipeline --bandwidth and
bench/pipeline_anchors.py, in a process of its own (JAX and torch would share the
card's memory): Pallas Mosaic GPU kernels of the same shape as acopy's pipe_bw_reduce
and pipe_bw_axpy. A persistent grid of 1 or 2 blocks per SM (`plgpu.kernel`'s grid);
in each block `plgpu.emit_pipeline` with `max_concurrent_steps = S` walks the block's
tiles b, b + grid, ... of 1 GiB (the tiles that fill whole steps for every block).
The reduction carries an int32 tile of partial sums through the pipeline and stores
it once; the axpy writes 2x + y through an output spec (a TMA store per step). Each
result is checked (the reduction's total, the axpy's every element of the tiles it
covers). Prints one JSON object: anchors[] of {name, kernel, path, stages,
blocks_per_sm, tile_bytes, gbps, exact} and errors[] of what Pallas refused, with its
message. Time: 5 calls per sample, median of 11 samples after 3 warm-up calls.
Usage: pipeline_anchors_pallas.py [SMS] [flags]   (SMS: default the device's count)
  --reduce-rows/--axpy-rows  tile rows, comma-separated (default 16,64 and 8,32: 8 and
                             32 KiB per stage); tile_bytes counts all tiles one step loads
                             (2 x rows x 512 for the axpy, as acopy counts them)
  --stages LIST              the S to run, in this order (e.g. 3,1,2,4: S = 3 for every
                             tile first); --blocks-per-sm LIST (default 1,2)
  --deadline-s N             start no configuration after N seconds (skipped[] lists them)
  --jsonl                    one JSON line per anchor as it comes, then {"meta": ...}
"""
import argparse
import functools
import json
import os
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import mosaic_gpu as plgpu  # noqa: E402

GIB = 1 << 30
ROWS = GIB // 4 // 128


def median_s(fn):
    for _ in range(3):
        jax.block_until_ready(fn())
    samples = []
    for _ in range(11):
        start = time.perf_counter()
        for _ in range(5):
            out = fn()
        jax.block_until_ready(out)
        samples.append((time.perf_counter() - start) / 5)
    samples.sort()
    return samples[len(samples) // 2]


def mgpu_kernel(body, out, grid):
    """plgpu.kernel, whose output argument was renamed (out_shape -> out_type)."""
    try:
        return plgpu.kernel(body, out_type=out, grid=(grid,), grid_names=("b",))
    except TypeError:
        return plgpu.kernel(body, out_shape=out, grid=(grid,), grid_names=("b",))


def reduce_call(rows, stages, grid):
    steps = ROWS // rows // grid

    def kernel(x_ref, o_ref):
        b = lax.axis_index("b")

        def body(_, x_smem, carry):
            return carry + x_smem[...]

        total = plgpu.emit_pipeline(
            body,
            grid=(steps,),
            in_specs=[plgpu.BlockSpec((rows, 128), lambda i: (b + i * grid, 0))],
            max_concurrent_steps=stages,
            init_carry=jnp.zeros((rows, 128), jnp.int32),
        )(x_ref)

        def store(acc_smem):
            acc_smem[...] = total
            plgpu.commit_smem()
            plgpu.copy_smem_to_gmem(acc_smem, o_ref.at[pl.ds(b * rows, rows)])
            plgpu.wait_smem_to_gmem(0)

        pl.run_scoped(store, plgpu.SMEM((rows, 128), jnp.int32))

    out = jax.ShapeDtypeStruct((grid * rows, 128), jnp.int32)
    return mgpu_kernel(kernel, out, grid), steps * grid * rows * 128 * 4


def axpy_call(rows, stages, grid):
    steps = ROWS // rows // grid

    def kernel(x_ref, y_ref, o_ref):
        b = lax.axis_index("b")

        def body(_, x_smem, y_smem, o_smem):
            o_smem[...] = 2.0 * x_smem[...] + y_smem[...]

        spec = plgpu.BlockSpec((rows, 128), lambda i: (b + i * grid, 0))
        plgpu.emit_pipeline(
            body, grid=(steps,), in_specs=[spec, spec], out_specs=[spec],
            max_concurrent_steps=stages,
        )(x_ref, y_ref, o_ref)

    out = jax.ShapeDtypeStruct((ROWS, 128), jnp.float32)
    return mgpu_kernel(kernel, out, grid), 3 * steps * grid * rows * 128 * 4


def ints(text):
    return [int(part) for part in text.split(",") if part]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sms", nargs="?", type=int, help="SMs (default: the device's)")
    ap.add_argument("--reduce-rows", type=ints, default=[16, 64])
    ap.add_argument("--axpy-rows", type=ints, default=[8, 32])
    ap.add_argument("--stages", type=ints, default=[1, 2, 3, 4])
    ap.add_argument("--blocks-per-sm", type=ints, default=[1, 2])
    ap.add_argument("--deadline-s", type=float)
    ap.add_argument("--jsonl", action="store_true")
    return ap.parse_args()


def device_sms():
    device = jax.devices()[0]
    return int(getattr(device, "core_count", 0) or 132)


def one(kernel, rows, stages, bps, sms, data):
    """One configuration, checked and timed: its anchor row."""
    xi, x, y = data
    grid = sms * bps
    covered = ROWS // rows // grid * grid * rows
    if kernel == "pipe_reduce":
        call, nbytes = reduce_call(rows, stages, grid)
        run = functools.partial(jax.jit(call), xi)
        got = np.asarray(run()).astype(np.int64).sum()
        want = np.asarray(xi[:covered]).astype(np.int64).sum()
        # int32 partial sums wrap the same way on both sides.
        exact = (got - want) % (1 << 32) == 0
        tile_bytes = rows * 512
    else:
        call, nbytes = axpy_call(rows, stages, grid)
        run = functools.partial(jax.jit(call), x, y)
        out = run()
        exact = bool(jnp.array_equal(out[:covered], 2.0 * x[:covered] + y[:covered]))
        tile_bytes = 2 * rows * 512
    seconds = median_s(run)
    return {"name": "pallas_emit_pipeline", "kernel": kernel, "path": "tma", "rows": rows,
            "stages": stages, "blocks_per_sm": bps, "tile_bytes": tile_bytes,
            "gbps": nbytes / seconds / 1e9, "exact": bool(exact)}


def main():
    args = parse_args()
    started = time.monotonic()
    sms = args.sms or device_sms()
    key = jax.random.PRNGKey(20261202)
    k1, k2, k3 = jax.random.split(key, 3)
    xi = jax.random.randint(k1, (ROWS, 128), -1000, 1000, dtype=jnp.int32)
    x = jax.random.randint(k2, (ROWS, 128), -1000, 1000).astype(jnp.float32) * 0.25
    y = jax.random.randint(k3, (ROWS, 128), -1000, 1000).astype(jnp.float32) * 0.25
    anchors, errors, skipped = [], [], []
    for stages in args.stages:
        for kernel, tile_rows in (("pipe_reduce", args.reduce_rows), ("pipe_axpy", args.axpy_rows)):
            for rows in tile_rows:
                for bps in args.blocks_per_sm:
                    name = f"pallas {kernel} rows={rows} S={stages} bps={bps}"
                    if args.deadline_s is not None and time.monotonic() - started > args.deadline_s:
                        skipped.append(name)
                        continue
                    try:
                        anchors.append(one(kernel, rows, stages, bps, sms, (xi, x, y)))
                        print(f"{name}: {anchors[-1]['gbps']:.0f} GB/s exact={anchors[-1]['exact']}", file=sys.stderr)
                        if args.jsonl:
                            print(json.dumps({"anchor": anchors[-1]}), flush=True)
                    except Exception as error:  # noqa: BLE001
                        text = f"{type(error).__name__}: {error}".splitlines()
                        errors.append({"what": name, "error": " ".join(text[:3])[:600]})
                        print(f"{name}: {errors[-1]['error']}", file=sys.stderr)
    meta = {"errors": errors, "skipped": skipped, "jax": jax.__version__, "sms": sms,
            "seconds": time.monotonic() - started}
    if args.jsonl:
        print(json.dumps({"meta": meta}), flush=True)
    else:
        print(json.dumps({"anchors": anchors, **meta}))


if __name__ == "__main__":
    main()
