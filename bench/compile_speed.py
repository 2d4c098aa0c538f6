#!/usr/bin/env python3
"""Compile-speed benchmark: acopy-opt against upstream mlir-opt, in the same run.

For N copies (N/100 kernels of 100 copies each) it times
  * acopy:     acopy-opt --acopy-lower            on N acopy.copy_gmem_to_smem (cp.async, sm_80)
  * reference: mlir-opt  --convert-nvgpu-to-nvvm  on N nvgpu.device_async_copy
and the same two inputs all the way to PTX (acopy-opt --emit=ptx; mlir-opt
--gpu-lower-to-nvvm-pipeline ... cubin-format=isa). Each cell is the median of
--repeat runs (wall clock, whole process). It prints a markdown table with the
ratio acopy / reference: below 1 means acopy is faster.

Both inputs do the same work: each copy moves one 32x32 f32 tile into shared
memory with 256 threads, 16 bytes per thread. The acopy kernel says so with one
acopy.copy_gmem_to_smem per tile (block size 256 declared, so acopy unrolls to one
chunk per thread); the reference is what a frontend writes by hand with upstream
nvgpu: thread-indexed addresses and one nvgpu.device_async_copy per tile, the way
upstream MLIR's own nvgpu examples copy global to shared memory.

Usage: bench/compile_speed.py [--sizes 1000,10000] [--repeat 3] [--acopy-opt PATH]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def acopy_input(n: int) -> str:
    lines = ['module attributes {gpu.container_module} {',
             '  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {']
    for k in range(n // 100):
        lines.append(f'    gpu.func @k{k}(%src: memref<4096x4096xf32>) '
                     'workgroup(%tile: memref<32x32xf32, 3>) kernel '
                     'attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {')
        lines.append('      %c0 = arith.constant 0 : index')
        for i in range(100):
            lines.append(f'      %i{i} = arith.constant {i * 32} : index')
            lines.append(f'      "acopy.copy_gmem_to_smem"(%src, %tile, %i{i}, %c0) '
                         '{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} '
                         ': (memref<4096x4096xf32>, memref<32x32xf32, 3>, index, index) -> ()')
        lines.append('      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()')
        lines.append('      gpu.return')
        lines.append('    }')
    lines += ['  }', '}']
    return "\n".join(lines) + "\n"


def reference_input(n: int) -> str:
    lines = ['module attributes {gpu.container_module} {',
             '  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {']
    for k in range(n // 100):
        lines.append(f'    gpu.func @k{k}(%src: memref<4096x4096xf32>) '
                     'workgroup(%tile: memref<32x32xf32, 3>) kernel {')
        lines.append('      %c4 = arith.constant 4 : index')
        lines.append('      %c8 = arith.constant 8 : index')
        lines.append('      %tid = gpu.thread_id x')
        lines.append('      %row = arith.divui %tid, %c8 : index')
        lines.append('      %q = arith.remui %tid, %c8 : index')
        lines.append('      %col = arith.muli %q, %c4 : index')
        for i in range(100):
            lines.append(f'      %i{i} = arith.constant {i * 32} : index')
            lines.append(f'      %r{i} = arith.addi %i{i}, %row : index')
            lines.append(f'      %t{i} = nvgpu.device_async_copy %src[%r{i}, %col], %tile[%row, %col], 4 {{bypassL1}} '
                         ': memref<4096x4096xf32> to memref<32x32xf32, 3>')
        group = ", ".join(f"%t{i}" for i in range(100))
        lines.append(f'      %g = nvgpu.device_async_create_group {group}')
        lines.append('      nvgpu.device_async_wait %g {numGroups = 0 : i32}')
        lines.append('      gpu.return')
        lines.append('    }')
    lines += ['  }', '}']
    return "\n".join(lines) + "\n"


def time_command(command, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
        times.append(elapsed)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--acopy-opt", default="target/release/acopy-opt")
    args = parser.parse_args()
    if not os.path.exists(args.acopy_opt):
        sys.exit(f"{args.acopy_opt} not found: cargo build --release -p acopy-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            ours = os.path.join(tmp, f"acopy{n}.mlir")
            ref = os.path.join(tmp, f"ref{n}.mlir")
            open(ours, "w").write(acopy_input(n))
            open(ref, "w").write(reference_input(n))
            lower_ours = time_command([args.acopy_opt, ours, "--acopy-lower"], args.repeat)
            lower_ref = time_command([MLIR_OPT, ref, "--convert-nvgpu-to-nvvm"], args.repeat)
            ptx_ours = time_command([args.acopy_opt, ours, "--acopy-lower", "--emit=ptx"], args.repeat)
            ptx_ref = time_command([MLIR_OPT, ref, "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_80 cubin-features=+ptx70 cubin-format=isa"], args.repeat)
            rows.append((n, lower_ours, lower_ref, ptx_ours, ptx_ref))
    print(f"compile speed, median of {args.repeat} runs, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs")
    print()
    print("| copies | acopy lower s | mlir-opt nvgpu lower s | ratio | acopy to PTX s | mlir-opt to PTX s | ratio | acopy copies/s to PTX |")
    print("|---|---|---|---|---|---|---|---|")
    for n, lo, lr, po, pr in rows:
        print(f"| {n} | {lo:.3f} | {lr:.3f} | {lo / lr:.2f} | {po:.3f} | {pr:.3f} | {po / pr:.2f} | {n / po:.0f} |")


if __name__ == "__main__":
    main()
