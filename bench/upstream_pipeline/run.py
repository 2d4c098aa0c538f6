#!/usr/bin/env python3
"""Times the upstream-MLIR anchor (README.md here) on the GPU machine, with CuPy.

Loads ptx/up_reduce_s<S>_g<G>.ptx (build.sh), launches G blocks of 128 threads on
1 GiB of random int32 (bare pointers: src, out), checks every thread's sum against
the loop's sequential meaning, and times it: median of 11 after 3 warm-up launches,
CUDA events. Prints one JSON object: anchors[] of {name, kernel, stages,
blocks_per_sm, tile_bytes, gbps, exact}, plus the compile-time results of build.sh.
Usage: run.py PTX_DIR
"""
import json
import os
import sys

import cupy as cp

TILES = 2097152 // 16


def median_ms(fn):
    for _ in range(3):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(11):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    times.sort()
    return times[len(times) // 2]


def main():
    ptx_dir = sys.argv[1]
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    rng = cp.random.default_rng(20261202)
    x = rng.integers(-(1 << 31), (1 << 31) - 1, size=TILES * 2048, dtype=cp.int32)
    out = cp.empty(65536, dtype=cp.uint32)
    anchors = []
    for stages in (1, 2, 3, 4):
        for bps in (1, 2):
            grid = sms * bps
            path = os.path.join(ptx_dir, f"up_reduce_s{stages}_g{grid}.ptx")
            if not os.path.exists(path):
                continue
            kernel = cp.RawModule(path=path).get_function("up_reduce")
            trips = TILES // grid

            def launch():
                kernel((grid,), (128,), (x, out))

            out.fill(0xFFFFFFFF)
            launch()
            cp.cuda.Device().synchronize()
            # Tile b + grid k, vector t + 128 j of it: thread t of block b.
            tiles = x[: trips * grid * 2048].reshape(trips, grid, 4, 128, 4)
            want = (tiles.astype(cp.int64).sum(axis=(0, 2, 4)) % (1 << 32)).astype(cp.uint32)
            exact = bool(cp.array_equal(out[: grid * 128].reshape(grid, 128), want))
            del tiles
            ms = median_ms(launch)
            anchors.append({"name": "upstream_nvgpu_pipeline", "kernel": "pipe_reduce", "stages": stages,
                            "blocks_per_sm": bps, "tile_bytes": 8192,
                            "gbps": trips * grid * 8192 / ms / 1e6, "exact": exact})
            print(json.dumps(anchors[-1]), file=sys.stderr)
    results = open(os.path.join(ptx_dir, "results.txt")).read().splitlines()
    print(json.dumps({"anchors": anchors, "compile": results}))


if __name__ == "__main__":
    main()
