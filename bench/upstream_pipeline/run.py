#!/usr/bin/env python3
"""Times the upstream-MLIR anchor (README.md here) on the GPU machine, with CuPy.

Loads ptx/up_<stem>.ptx (build.sh; stem reduce_s<S>_g<G> at 16 rows, reduce_r<R>_s<S>_g<G>
at R rows), launches G blocks of 128 threads on 1 GiB of random int32 (bare pointers:
src, out), checks every thread's sum against the loop's sequential meaning, and times
it: median of 11 after 3 warm-up launches, CUDA events. Slots over 48 KiB live in
dynamic shared memory (gen.py): upstream lowers gpu.dynamic_shared_memory to a
zero-size internal global that the NVPTX back end demotes to a 1-byte static .shared
variable at the start of the block's shared memory, so the launch asks for the slots'
bytes plus 1 KiB of dynamic shared memory, which covers every access from there.
Prints one JSON object: anchors[] of {name, kernel, path, stages, blocks_per_sm,
tile_bytes, gbps, exact, module} and the compile-time results of build.sh; with --jsonl, one
line per anchor as it is measured instead, then {"compile": [...]}.
Usage: run.py PTX_DIR [--rows 4,8,16,32,64] [--deadline-s N] [--jsonl]
"""
import argparse
import json
import os
import sys
import time

import cupy as cp

ROWS = 2097152
STATIC_SMEM = 48 * 1024


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


def stem(rows, stages, grid):
    """gen.py's file name of the twin."""
    return f"reduce_s{stages}_g{grid}" if rows == 16 else f"reduce_r{rows}_s{stages}_g{grid}"


def dynamic_bytes(rows, stages):
    """The dynamic shared memory the launch asks for (0: the slots are static)."""
    slots = stages * rows * 128 * 4
    return 0 if slots <= STATIC_SMEM else slots + 1024


def time_one(ptx_dir, x, out, rows, stages, bps, sms):
    """One twin: the anchor row, or None when build.sh made no PTX for it."""
    grid = sms * bps
    path = os.path.join(ptx_dir, f"up_{stem(rows, stages, grid)}.ptx")
    if not os.path.exists(path):
        return None
    kernel = cp.RawModule(path=path).get_function("up_reduce")
    dyn = dynamic_bytes(rows, stages)
    if dyn:
        kernel.max_dynamic_shared_size_bytes = dyn
    trips = ROWS // rows // grid

    def launch():
        kernel((grid,), (128,), (x, out), shared_mem=dyn)

    out.fill(0xFFFFFFFF)
    launch()
    cp.cuda.Device().synchronize()
    # Tile b + grid k, vector t + 128 j of it: thread t of block b.
    tiles = x[: trips * grid * rows * 128].reshape(trips, grid, rows // 4, 128, 4)
    want = (tiles.astype(cp.int64).sum(axis=(0, 2, 4)) % (1 << 32)).astype(cp.uint32)
    exact = bool(cp.array_equal(out[: grid * 128].reshape(grid, 128), want))
    del tiles, want
    ms = median_ms(launch)
    return {"name": "upstream_nvgpu_pipeline", "module": f"up_{stem(rows, stages, grid)}",
            "kernel": "pipe_reduce", "path": "cp_async",
            "stages": stages, "blocks_per_sm": bps, "tile_bytes": rows * 512,
            "gbps": trips * grid * rows * 512 / ms / 1e6, "exact": exact,
            "dynamic_shared_memory": dyn}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ptx_dir")
    ap.add_argument("--rows", default="16", help="tile rows, comma-separated")
    ap.add_argument("--deadline-s", type=float, help="start nothing new after this many seconds")
    ap.add_argument("--jsonl", action="store_true", help="one JSON line per anchor as it comes")
    args = ap.parse_args()
    started = time.monotonic()
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    rng = cp.random.default_rng(20261202)
    x = rng.integers(-(1 << 31), (1 << 31) - 1, size=ROWS * 128, dtype=cp.int32)
    out = cp.empty(65536, dtype=cp.uint32)
    anchors, errors = [], []
    for rows in [int(r) for r in args.rows.split(",") if r]:
        for stages in (1, 2, 3, 4):
            for bps in (1, 2):
                what = f"upstream rows={rows} S={stages} bps={bps}"
                if args.deadline_s is not None and time.monotonic() - started > args.deadline_s:
                    errors.append({"what": what, "skipped": "deadline"})
                    continue
                try:
                    row = time_one(args.ptx_dir, x, out, rows, stages, bps, sms)
                except Exception as error:  # noqa: BLE001 - a failing twin must not stop the rest
                    errors.append({"what": what, "error": f"{type(error).__name__}: {error}"[:600]})
                    print(f"{what}: {errors[-1]['error']}", file=sys.stderr)
                    continue
                if row is None:
                    continue
                anchors.append(row)
                print(json.dumps(row), file=sys.stderr)
                if args.jsonl:
                    print(json.dumps({"anchor": row}), flush=True)
    results_path = os.path.join(args.ptx_dir, "results.txt")
    results = open(results_path).read().splitlines() if os.path.exists(results_path) else []
    if args.jsonl:
        print(json.dumps({"compile": results, "errors": errors}), flush=True)
    else:
        print(json.dumps({"anchors": anchors, "errors": errors, "compile": results}))


if __name__ == "__main__":
    main()
