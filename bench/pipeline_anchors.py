#!/usr/bin/env python3
"""Anchors for the pipelined-loop bandwidth (bench/results/pipeline-h200.json).

On the GPU machine, in the same device session as acopy-gpu-pipeline --bandwidth:
torch's own int32 sum and add_ (alpha 2) on 1 GiB tensors, and Triton kernels of
the same shape as acopy's pipe_bw_reduce / pipe_bw_axpy (a persistent grid of 1 or 2
programs per SM, a tl.range loop over tiles with num_stages = S, 4 and 8 warps), at
acopy's tile sizes (8 KiB for the reduction's int32 16x128 tile, 4 KiB per axpy
input) and at 32 KiB. Prints one JSON object: anchors[] of {name, kernel, stages,
blocks_per_sm, tile_bytes, gbps}. Median of 11 timed runs after 3 warm-up runs.
With --profile: one launch of one Triton reduction only (for ncu).
"""
import json
import sys

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


def main():
    anchors = []
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    n = GIB // 4
    xi = torch.randint(-1000, 1000, (n,), dtype=torch.int32, device="cuda")
    x = torch.randint(-1000, 1000, (n,), device="cuda").float() * 0.25
    y = torch.randint(-1000, 1000, (n,), device="cuda").float() * 0.25
    out = torch.empty_like(x)
    # Not with --profile: torch's own sum kernel is also named reduce_kernel, and ncu
    # would profile it instead of Triton's (as it did on 2026-12-02).
    if "--profile" not in sys.argv:
        ms = median_ms(lambda: torch.sum(xi))
        anchors.append({"name": "torch.sum", "kernel": "pipe_reduce", "stages": None,
                        "blocks_per_sm": None, "tile_bytes": None, "gbps": GIB / ms / 1e6})
        ms = median_ms(lambda: y.add_(x, alpha=2.0))
        anchors.append({"name": "torch.add_", "kernel": "pipe_axpy", "stages": None,
                        "blocks_per_sm": None, "tile_bytes": None, "gbps": 3 * GIB / ms / 1e6})
    try:
        import triton
        import triton.language as tl
    except Exception as error:  # noqa: BLE001
        print(json.dumps({"anchors": anchors, "triton": f"not available: {error}"}))
        return

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

    partial = torch.empty(4 * sms, dtype=torch.int32, device="cuda")
    if "--profile" in sys.argv:
        # One launch of the Triton reduction at acopy's tile size, S = 3, one program per
        # SM, 8 warps: the kernel ncu profiles next to acopy's (bench/RESULTS.md).
        reduce_kernel[(sms,)](xi, partial, n // 2048, BLOCK=2048, STAGES=3, num_warps=8)
        torch.cuda.synchronize()
        return
    for tile_bytes in (8192, 32768):
        block = tile_bytes // 4
        tiles = n // block
        for stages in (1, 2, 3, 4):
            for bps in (1, 2):
                grid = (sms * bps,)
                for warps in (4, 8):
                    try:
                        ms = median_ms(lambda: reduce_kernel[grid](xi, partial, tiles, BLOCK=block,
                                                                   STAGES=stages, num_warps=warps))
                        anchors.append({"name": f"triton_{warps}w", "kernel": "pipe_reduce",
                                        "stages": stages, "blocks_per_sm": bps,
                                        "tile_bytes": tile_bytes, "gbps": GIB / ms / 1e6})
                    except Exception as error:  # noqa: BLE001
                        print(f"triton reduce {tile_bytes} {stages} {bps} {warps}: {error}", file=sys.stderr)
                    ablock = block // 2 if tile_bytes == 8192 else block
                    atiles = n // ablock
                    try:
                        ms = median_ms(lambda: axpy_kernel[grid](x, y, out, atiles, BLOCK=ablock,
                                                                 STAGES=stages, num_warps=warps))
                        anchors.append({"name": f"triton_{warps}w", "kernel": "pipe_axpy",
                                        "stages": stages, "blocks_per_sm": bps,
                                        "tile_bytes": ablock * 4, "gbps": 3 * GIB / ms / 1e6})
                    except Exception as error:  # noqa: BLE001
                        print(f"triton axpy {tile_bytes} {stages} {bps} {warps}: {error}", file=sys.stderr)
    print(json.dumps({"anchors": anchors, "triton": triton.__version__, "torch": torch.__version__}))


if __name__ == "__main__":
    main()
