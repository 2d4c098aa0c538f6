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
covers). Tile sizes: acopy's (16x128 i32, 8x128 f32) and 32 KiB. Prints one JSON
object: anchors[] of {name, kernel, stages, blocks_per_sm, tile_bytes, gbps} and
errors[] of what Pallas refused, with its message. Time: 5 calls per sample, median
of 11 samples after 3 warm-up calls.
"""
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


def main():
    sms = int(sys.argv[1]) if len(sys.argv) > 1 else 132
    key = jax.random.PRNGKey(20261202)
    k1, k2, k3 = jax.random.split(key, 3)
    xi = jax.random.randint(k1, (ROWS, 128), -1000, 1000, dtype=jnp.int32)
    x = jax.random.randint(k2, (ROWS, 128), -1000, 1000).astype(jnp.float32) * 0.25
    y = jax.random.randint(k3, (ROWS, 128), -1000, 1000).astype(jnp.float32) * 0.25
    anchors, errors = [], []
    for kernel, tile_rows in (("pipe_reduce", (16, 64)), ("pipe_axpy", (8, 64))):
        for rows in tile_rows:
            for stages in (1, 2, 3, 4):
                for bps in (1, 2):
                    grid = sms * bps
                    name = f"pallas {kernel} rows={rows} S={stages} bps={bps}"
                    try:
                        if kernel == "pipe_reduce":
                            call, nbytes = reduce_call(rows, stages, grid)
                            fn = jax.jit(call)
                            run = functools.partial(fn, xi)
                            got = np.asarray(run()).astype(np.int64).sum()
                            covered = ROWS // rows // grid * grid * rows
                            want = np.asarray(xi[:covered]).astype(np.int64).sum()
                            # int32 partial sums wrap the same way on both sides.
                            exact = (got - want) % (1 << 32) == 0
                        else:
                            call, nbytes = axpy_call(rows, stages, grid)
                            fn = jax.jit(call)
                            run = functools.partial(fn, x, y)
                            covered = ROWS // rows // grid * grid * rows
                            out = run()
                            exact = bool(jnp.array_equal(out[:covered], 2.0 * x[:covered] + y[:covered]))
                        seconds = median_s(run)
                        anchors.append({"name": "pallas_emit_pipeline", "kernel": kernel, "stages": stages,
                                        "blocks_per_sm": bps, "tile_bytes": rows * 512,
                                        "gbps": nbytes / seconds / 1e9, "exact": bool(exact)})
                        print(f"{name}: {anchors[-1]['gbps']:.0f} GB/s exact={exact}", file=sys.stderr)
                    except Exception as error:  # noqa: BLE001
                        text = f"{type(error).__name__}: {error}".splitlines()
                        errors.append({"what": name, "error": " ".join(text[:3])[:600]})
                        print(f"{name}: {errors[-1]['error']}", file=sys.stderr)
    print(json.dumps({"anchors": anchors, "errors": errors, "jax": jax.__version__}))


if __name__ == "__main__":
    main()
