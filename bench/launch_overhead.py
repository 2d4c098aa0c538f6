"""Host cost of one kernel launch, in the same process run on one GPU: acopy's
Python launch (acopy.Kernel.__call__ on torch tensors), the Rust runtime's
(acopy-launch-overhead: Runtime::bind + LoadedKernel::launch_on) and Triton's
launcher (kernel[grid](...) of a @triton.jit kernel), each on a kernel that
does almost nothing with the same arguments: two 1024-element f32 arrays and
one integer.

    python3 bench/launch_overhead.py --rust target/release/acopy-launch-overhead --out FILE.json

Each launch is timed on its own (time.perf_counter_ns / Instant); launches go
out in batches of 200 with an untimed synchronisation between batches, so the
GPU's launch queue never fills and the host's work is what is measured. The
result is the median, in microseconds. Also timed: acopy on a TMA kernel
(tma_tile_2d, whose two tensor maps come from the cache after the first call).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

import acopy
from noop_kernel import NOOP

BATCH = 200



def per_launch_us(launch, launches):
    for _ in range(BATCH):
        launch()
    torch.cuda.synchronize()
    times = []
    clock = time.perf_counter_ns
    while len(times) < launches:
        for _ in range(BATCH):
            start = clock()
            launch()
            times.append(clock() - start)
        torch.cuda.synchronize()
    return statistics.median(times) / 1000.0, statistics.fmean(times) / 1000.0


def triton_launch(src, out):
    import triton
    import triton.language as tl

    @triton.jit
    def noop(src, out, n):
        if tl.program_id(0) == 0:
            tl.store(out + n, tl.load(src + n))

    return lambda: noop[(1,)](src, out, 3, num_warps=4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rust", help="the acopy-launch-overhead binary")
    parser.add_argument("--launches", type=int, default=20000)
    parser.add_argument("--kernels", default="tests/gpu/kernels", help="for tma_tile_2d.mlir")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    src = torch.randn(1024, device="cuda")
    out = torch.zeros(1024, device="cuda")
    compiled = acopy.compile(NOOP)
    noop = compiled.kernel("noop")
    result = {"device": torch.cuda.get_device_name(), "launches": args.launches, "batch": BATCH}

    median, mean = per_launch_us(lambda: noop(src, out, 3, grid=1, block=128), args.launches)
    result["acopy"] = {"median_us": median, "mean_us": mean}
    torch.cuda.synchronize()
    assert torch.equal(out[3], src[3]), "the acopy noop kernel did not run"

    tma = acopy.compile((Path(args.kernels) / "tma_tile_2d.mlir").read_text()).kernel("tma_tile_2d")
    big, tile = torch.randn(256, 512, device="cuda"), torch.zeros(64, 128, device="cuda")
    median, mean = per_launch_us(lambda: tma(big, tile, grid=1, block=128), args.launches)
    result["acopy_tma_cached_maps"] = {"median_us": median, "mean_us": mean, "tensor_maps_cached": tma.cached_tensor_maps()}

    try:
        launch = triton_launch(src, out)
        median, mean = per_launch_us(launch, args.launches)
        result["triton"] = {"median_us": median, "mean_us": mean}
        import triton

        result["triton_version"] = triton.__version__
    except Exception as error:  # recorded, not hidden
        result["triton"] = {"error": f"{type(error).__name__}: {error}"}

    if args.rust:
        with tempfile.TemporaryDirectory() as folder:
            ptx = Path(folder) / "noop.ptx"
            ptx.write_text(compiled.ptx["noop"])
            run = subprocess.run([args.rust, str(ptx), "noop", str(args.launches)], capture_output=True, text=True)
            if run.returncode == 0 and run.stdout.strip().startswith("{"):
                result["rust"] = json.loads(run.stdout)
            else:
                result["rust"] = {"error": (run.stdout + run.stderr).strip()[-2000:]}

    result["launch_overhead_us"] = {
        name: round(result[name]["median_us"], 2) if "median_us" in result.get(name, {}) else None
        for name in ("acopy", "rust", "triton")
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["launch_overhead_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
