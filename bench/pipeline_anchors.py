#!/usr/bin/env python3
"""Anchors for the pipelined-loop bandwidth: torch and Triton (bench/results/pipeline-*.json).

On the GPU machine, in the same device session as acopy-gpu-pipeline --bandwidth:
torch's own int32 sum and add_ (alpha 2) on 1 GiB tensors, and Triton kernels of the
same shape as acopy's pipe_bw_reduce / pipe_bw_axpy: a persistent grid of 1 or 2
programs per SM, a tl.range loop over tiles b, b + grid, ... with num_stages = S, at
the same tiles (the reduction's rows x 128 int32, the axpy's two rows x 128 f32 inputs
per step), 4 warps (acopy's 128 threads) and 8 (256). Each Triton result is checked:
the reduction's total (int32 wrap-around on both sides), the axpy's every element.
Median of 11 timed runs after 3 warm-up runs.
  --reduce-rows/--axpy-rows  tile rows, comma-separated (default 16,64 and 8,32: the
                             8 and 32 KiB per stage of bench/RESULTS.md's runs)
  --stages, --blocks-per-sm, --warps  lists (default 1,2,3,4 / 1,2 / 4,8); the configs
                             run warps first, so the first warp count is complete first
  --deadline-s N             start no Triton config after N seconds (the rest are
                             listed in skipped[])
  --jsonl                    one JSON line per anchor as it is measured ({"anchor": ...}),
                             then {"meta": ...}; else one object at the end
  --profile                  one launch of one Triton reduction only (for ncu)
Rows: {name, kernel, path, tile_bytes, stages, blocks_per_sm, gbps, ...}. tile_bytes is
the bytes of all tiles one step loads (2 x rows x 512 for the axpy, as acopy counts
them); path is what Triton's PTX uses for the loads (cp_async, tma or ld_global, read
from the compiled kernel), null for torch. registers and spills come from Triton.
"""
import argparse
import json
import sys
import time

import torch

GIB = 1 << 30


def median_ms(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(11):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def ints(text):
    return [int(part) for part in text.split(",") if part]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reduce-rows", type=ints, default=[16, 64])
    ap.add_argument("--axpy-rows", type=ints, default=[8, 32])
    ap.add_argument("--stages", type=ints, default=[1, 2, 3, 4])
    ap.add_argument("--blocks-per-sm", type=ints, default=[1, 2])
    ap.add_argument("--warps", type=ints, default=[4, 8])
    ap.add_argument("--deadline-s", type=float)
    ap.add_argument("--jsonl", action="store_true")
    ap.add_argument("--profile", action="store_true")
    return ap.parse_args()


class Output:
    """Anchors, printed as they come with --jsonl, else at the end."""

    def __init__(self, jsonl):
        self.jsonl, self.anchors, self.errors, self.skipped = jsonl, [], [], []

    def add(self, row):
        self.anchors.append(row)
        print(f"{row['name']} {row['kernel']} {row.get('tile_bytes')} S={row.get('stages')} "
              f"bps={row.get('blocks_per_sm')}: {row['gbps']:.0f} GB/s exact={row.get('exact')}", file=sys.stderr)
        if self.jsonl:
            print(json.dumps({"anchor": row}), flush=True)

    def finish(self, meta):
        meta = {**meta, "errors": self.errors, "skipped": self.skipped}
        if self.jsonl:
            print(json.dumps({"meta": meta}), flush=True)
        else:
            print(json.dumps({"anchors": self.anchors, **meta}))


def torch_anchors(out, xi, x, y):
    ms = median_ms(lambda: torch.sum(xi))
    out.add({"name": "torch.sum", "kernel": "pipe_reduce", "path": None, "stages": None,
             "blocks_per_sm": None, "tile_bytes": None, "gbps": GIB / ms / 1e6})
    yt = y.clone()
    ms = median_ms(lambda: yt.add_(x, alpha=2.0))
    out.add({"name": "torch.add_", "kernel": "pipe_axpy", "path": None, "stages": None,
             "blocks_per_sm": None, "tile_bytes": None, "gbps": 3 * GIB / ms / 1e6})
    del yt


def path_of(compiled):
    """What the compiled Triton kernel loads with, from its PTX."""
    ptx = getattr(compiled, "asm", {}).get("ptx", "") if compiled is not None else ""
    if not ptx:
        return None
    if "cp.async.bulk.tensor" in ptx:
        return "tma"
    return "cp_async" if "cp.async" in ptx else "ld_global"


def triton_kernels():
    import triton
    import triton.language as tl

    @triton.jit
    def reduce_kernel(x_ptr, out_ptr, tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        acc = tl.zeros([BLOCK], dtype=tl.int32)
        offs = tl.arange(0, BLOCK)
        for t in tl.range(pid, tiles, nprog, num_stages=STAGES):
            acc += tl.load(x_ptr + t * BLOCK + offs)
        tl.store(out_ptr + pid, tl.sum(acc))

    @triton.jit
    def axpy_kernel(x_ptr, y_ptr, out_ptr, tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        for t in tl.range(pid, tiles, nprog, num_stages=STAGES):
            a = tl.load(x_ptr + t * BLOCK + offs)
            b = tl.load(y_ptr + t * BLOCK + offs)
            tl.store(out_ptr + t * BLOCK + offs, 2.0 * a + b)

    return triton, reduce_kernel, axpy_kernel


def triton_one(kernels, data, kernel, rows, stages, bps, warps):
    """One Triton configuration, checked and timed: its anchor row."""
    _, reduce_kernel, axpy_kernel = kernels
    xi, x, y, out, partial, sms, want_sum = data
    grid = (sms * bps,)
    block = rows * 128
    tiles = xi.numel() // block
    if kernel == "pipe_reduce":
        def run():
            return reduce_kernel[grid](xi, partial, tiles, BLOCK=block, STAGES=stages, num_warps=warps)
        partial.zero_()
        compiled = run()
        exact = (int(partial[: grid[0]].to(torch.int64).sum().item()) - want_sum) % (1 << 32) == 0
        nbytes, tile_bytes = GIB, rows * 512
    else:
        def run():
            return axpy_kernel[grid](x, y, out, tiles, BLOCK=block, STAGES=stages, num_warps=warps)
        out.fill_(float("nan"))
        compiled = run()
        exact = bool(torch.equal(out, 2.0 * x + y))
        nbytes, tile_bytes = 3 * GIB, 2 * rows * 512
    ms = median_ms(run)
    return {"name": f"triton_{warps}w", "kernel": kernel, "path": path_of(compiled), "rows": rows,
            "tile_bytes": tile_bytes, "stages": stages, "blocks_per_sm": bps, "warps": warps,
            "gbps": nbytes / ms / 1e6, "exact": exact,
            "registers": getattr(compiled, "n_regs", None), "spills": getattr(compiled, "n_spills", None)}


def main():
    args = parse_args()
    started = time.monotonic()
    out = Output(args.jsonl)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    n = GIB // 4
    xi = torch.randint(-1000, 1000, (n,), dtype=torch.int32, device="cuda")
    x = torch.randint(-1000, 1000, (n,), device="cuda").float() * 0.25
    y = torch.randint(-1000, 1000, (n,), device="cuda").float() * 0.25
    # Not with --profile: torch's own sum kernel is also named reduce_kernel, and ncu
    # would profile it instead of Triton's (as it did on 2026-12-02).
    if not args.profile:
        torch_anchors(out, xi, x, y)
    try:
        kernels = triton_kernels()
    except Exception as error:  # noqa: BLE001
        out.finish({"triton": f"not available: {error}", "torch": torch.__version__})
        return
    partial = torch.empty(4 * sms, dtype=torch.int32, device="cuda")
    if args.profile:
        # One launch of the Triton reduction at 16 rows, S = 3, one program per SM,
        # 8 warps: the kernel ncu profiles next to acopy's (bench/RESULTS.md).
        kernels[1][(sms,)](xi, partial, n // 2048, BLOCK=2048, STAGES=3, num_warps=8)
        torch.cuda.synchronize()
        return
    data = (xi, x, y, torch.empty_like(x), partial, sms, int(xi.to(torch.int64).sum().item()))
    for warps in args.warps:
        for kernel, rows_list in (("pipe_reduce", args.reduce_rows), ("pipe_axpy", args.axpy_rows)):
            for rows in rows_list:
                for stages in args.stages:
                    for bps in args.blocks_per_sm:
                        what = f"triton {kernel} rows={rows} S={stages} bps={bps} warps={warps}"
                        if args.deadline_s is not None and time.monotonic() - started > args.deadline_s:
                            out.skipped.append(what)
                            continue
                        try:
                            out.add(triton_one(kernels, data, kernel, rows, stages, bps, warps))
                        except Exception as error:  # noqa: BLE001 - one config must not stop the rest
                            out.errors.append({"what": what, "error": f"{type(error).__name__}: {error}"[:600]})
                            print(f"{what}: {out.errors[-1]['error']}", file=sys.stderr)
    out.finish({"triton": kernels[0].__version__, "torch": torch.__version__,
                "seconds": time.monotonic() - started})


if __name__ == "__main__":
    main()
