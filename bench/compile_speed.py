#!/usr/bin/env python3
"""Compile-speed benchmark: acopy-opt against upstream mlir-opt, in the same run.

Routes (each: acopy input through acopy-opt, the hand-written upstream nvgpu
input through mlir-opt, on equal work):
  cp.async (sm_80) and TMA (sm_90), static and dynamic starts,
  at pass level (acopy-opt --acopy-lower vs mlir-opt --convert-nvgpu-to-nvvm)
  and to PTX    (acopy-opt --acopy-lower --emit=ptx vs mlir-opt
                 --gpu-lower-to-nvvm-pipeline=... cubin-format=isa).

Equal work: each copy moves one 32x32 f32 tile into shared memory.
  * cp.async: 256 threads, 16 bytes each. acopy: one acopy.copy_gmem_to_smem per
    tile, block size 256 declared; reference: thread-indexed addresses and one
    nvgpu.device_async_copy per tile, one group per kernel.
  * TMA: one bulk tensor copy per tile onto one mbarrier. acopy: one
    acopy.copy_gmem_to_smem with the barrier per tile; reference: per tile one
    nvgpu.mbarrier.arrive.expect_tx and one nvgpu.tma.async.load, all in one
    `scf.if` on thread 0, the tensor map a kernel parameter.
Static starts are constants; dynamic starts are a kernel argument plus a constant.

Method: for every route the two tools run alternately (acopy, upstream, acopy,
...), --repeat times each; a cell is the median. Each run records the child's
CPU time (user + sys, from wait4), wall time and peak RSS. The ratio is
acopy / upstream from the same run: below 1 means acopy is faster / smaller.

Threads: both tools use MLIR's thread pool by default (one thread per core);
acopy-opt spreads the gpu.modules over it, and these inputs have one, so it
works on one thread. --upstream-threads 1 runs mlir-opt with
--mlir-disable-threading. CPU time counts every thread, wall time does not.

Threads case (--threads-case): acopy-opt alone, --modules gpu.modules of
--per-kernel copies each (one kernel per module), to PTX, for cp.async and
TMA (static starts), with --mlir-disable-threading and with the pool, run
alternately; the cell is the median wall time of each and their ratio.

Usage:
  bench/compile_speed.py [--sizes 10000,100000] [--per-kernel 100] [--repeat 3]
                         [--paths cpasync,tma] [--starts static,dynamic]
                         [--levels lower,ptx] [--acopy-opt PATH] [--lines]
                         [--upstream-threads all|1] [--json FILE]
  --json appends one JSON object per cell to FILE (bench/plot_compile.py
  draws time per copy against size from such files).
  With --lines the table goes to standard error and standard output gets one
  line per route and size (bench/compile.sh):
    ROUTE ratio acopy/upstream: X rss acopy/upstream: A/B MB
  where ROUTE is path-start-level (e.g. cpasync-dynamic-lower), X the ratio of
  the median CPU times, A and B the median peak RSS.
  bench/compile_speed.py --emit acopy|upstream --path cpasync|tma --start static|dynamic
                         [--no-block-size] -n N [--per-kernel K]   (writes one input to stdout)
  bench/compile_speed.py --threads-case [--modules 16] [--per-kernel 100] [--repeat 5]
                         [--paths cpasync,tma] [--acopy-opt PATH] [--json FILE]
  prints per path: PATH-MODULESxCOPIES-ptx wall 1 thread / pool: X (A s / B s)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
CHIP = {"cpasync": "sm_80", "tma": "sm_90"}
PTX_FEATURES = {"cpasync": "+ptx70", "tma": "+ptx80"}
TILE = "memref<32x32xf32, 3>"
GLOBAL = "memref<4096x4096xf32>"


def kernel_counts(n, per_kernel):
    full, rest = divmod(n, per_kernel)
    return [per_kernel] * full + ([rest] if rest else [])


def start_of(i, start, lines):
    """The row where copy i starts: a constant, or the argument %r plus a constant."""
    lines.append(f'      %i{i} = arith.constant {(i % 100) * 32} : index')
    if start == "static":
        return f"%i{i}"
    lines.append(f'      %s{i} = arith.addi %r, %i{i} : index')
    return f"%s{i}"


def acopy_input(n, path, start, per_kernel, block_size=True):
    lines = ['module attributes {gpu.container_module} {',
             f'  gpu.module @kernels [#nvvm.target<chip = "{CHIP[path]}">] {{']
    for k, count in enumerate(kernel_counts(n, per_kernel)):
        attrs = ' attributes {gpu.known_block_size = array<i32: 256, 1, 1>}' if block_size else ''
        if path == "cpasync":
            lines.append(f'    gpu.func @k{k}(%src: {GLOBAL}, %r: index) '
                         f'workgroup(%tile: {TILE}) kernel{attrs} {{')
        else:
            lines.append(f'    gpu.func @k{k}(%src: {GLOBAL}, %r: index) '
                         f'workgroup(%tile: {TILE}, %bar: memref<1xi64, 3>) kernel{attrs} {{')
            lines.append('      "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()')
        lines.append('      %c0 = arith.constant 0 : index')
        for i in range(count):
            row = start_of(i, start, lines)
            if path == "cpasync":
                lines.append(f'      "acopy.copy_gmem_to_smem"(%src, %tile, {row}, %c0) '
                             '{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} '
                             f': ({GLOBAL}, {TILE}, index, index) -> ()')
            else:
                lines.append(f'      "acopy.copy_gmem_to_smem"(%src, %tile, {row}, %c0, %bar) '
                             '{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} '
                             f': ({GLOBAL}, {TILE}, index, index, memref<1xi64, 3>) -> ()')
        if path == "cpasync":
            lines.append('      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()')
        else:
            lines.append('      %parity = arith.constant false')
            lines.append('      "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()')
        lines.append('      gpu.return')
        lines.append('    }')
    lines += ['  }', '}']
    return "\n".join(lines) + "\n"


def acopy_modules(modules, path, per_module):
    """`modules` gpu.modules, each with one kernel of `per_module` copies."""
    one = acopy_input(per_module, path, "static", per_module).splitlines()
    body = one[1:-1]
    lines = [one[0]]
    for m in range(modules):
        lines += [line.replace("@kernels", f"@kernels{m}") for line in body]
    lines.append(one[-1])
    return "\n".join(lines) + "\n"


def threads_case(args):
    print(f"threads case, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}, {args.modules} gpu.modules x {args.per_kernel} copies, "
          f"to PTX, median of {args.repeat} alternated runs", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.paths.split(","):
            source = os.path.join(tmp, f"acopy-{path}-{args.modules}-modules.mlir")
            with open(source, "w") as f:
                f.write(acopy_modules(args.modules, path, args.per_kernel))
            base = [args.acopy_opt, source, "--acopy-lower", "--emit=ptx"]
            one, pool = [], []
            for _ in range(args.repeat):
                one.append(measure(base + ["--mlir-disable-threading"]))
                pool.append(measure(base))
            a = [statistics.median(r[j] for r in one) for j in range(3)]
            b = [statistics.median(r[j] for r in pool) for j in range(3)]
            route = f"{path}-{args.modules}x{args.per_kernel}-ptx"
            print(f"{route} wall 1 thread / pool: {a[1] / b[1]:.2f} ({a[1]:.3f} s / {b[1]:.3f} s) "
                  f"cpu {a[0]:.3f} s / {b[0]:.3f} s", flush=True)
            if args.json:
                with open(args.json, "a") as record:
                    record.write(json.dumps({
                        "case": "threads", "path": path, "modules": args.modules,
                        "per_module": args.per_kernel, "one_thread_wall_s": a[1], "pool_wall_s": b[1],
                        "one_thread_cpu_s": a[0], "pool_cpu_s": b[0], "load": os.getloadavg()[0],
                        "date": time.strftime('%Y-%m-%d', time.gmtime())}) + "\n")


BARRIER = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
TENSOR_MAP = ("!nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, 3>, swizzle = none, "
              "l2promo = none, oob = zero, interleave = none>")


def upstream_input(n, path, start, per_kernel):
    # No target on the gpu.module: the pipeline attaches one from its cubin-chip
    # and cubin-features (a target already there keeps its default PTX version).
    lines = ['module attributes {gpu.container_module} {',
             '  gpu.module @kernels {']
    for k, count in enumerate(kernel_counts(n, per_kernel)):
        if path == "cpasync":
            lines.append(f'    gpu.func @k{k}(%src: {GLOBAL}, %r: index) '
                         f'workgroup(%tile: {TILE}) kernel {{')
            lines.append('      %c4 = arith.constant 4 : index')
            lines.append('      %c8 = arith.constant 8 : index')
            lines.append('      %tid = gpu.thread_id x')
            lines.append('      %row = arith.divui %tid, %c8 : index')
            lines.append('      %q = arith.remui %tid, %c8 : index')
            lines.append('      %col = arith.muli %q, %c4 : index')
            for i in range(count):
                base = start_of(i, start, lines)
                lines.append(f'      %a{i} = arith.addi {base}, %row : index')
                lines.append(f'      %t{i} = nvgpu.device_async_copy %src[%a{i}, %col], %tile[%row, %col], 4 {{bypassL1}} '
                             f': {GLOBAL} to {TILE}')
            group = ", ".join(f"%t{i}" for i in range(count))
            lines.append(f'      %g = nvgpu.device_async_create_group {group}')
            lines.append('      nvgpu.device_async_wait %g {numGroups = 0 : i32}')
        else:
            # The tensor map arrives as a pointer, as acopy's does: the upstream
            # pipeline cannot convert a gpu.func argument of the descriptor type.
            lines.append(f'    gpu.func @k{k}(%mapptr: !llvm.ptr, %r: index) '
                         f'workgroup(%tile: {TILE}) kernel {{')
            lines.append(f'      %map = builtin.unrealized_conversion_cast %mapptr : !llvm.ptr to {TENSOR_MAP}')
            lines.append('      %c0 = arith.constant 0 : index')
            lines.append('      %c1 = arith.constant 1 : index')
            lines.append('      %bytes = arith.constant 4096 : index')
            lines.append('      %ticks = arith.constant 10000000 : index')
            lines.append('      %parity = arith.constant false')
            lines.append(f'      %bar = nvgpu.mbarrier.create -> {BARRIER}')
            lines.append('      %tid = gpu.thread_id x')
            lines.append('      %leader = arith.cmpi eq, %tid, %c0 : index')
            lines.append('      scf.if %leader {')
            lines.append(f'        nvgpu.mbarrier.init %bar[%c0], %c1 : {BARRIER}')
            lines.append('      }')
            lines.append('      gpu.barrier')
            lines.append('      scf.if %leader {')
            for i in range(count):
                row = start_of(i, start, lines)
                lines.append(f'        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : {BARRIER}')
                lines.append(f'        nvgpu.tma.async.load %map[%c0, {row}], %bar[%c0] to %tile '
                             f': {TENSOR_MAP}, {BARRIER} -> {TILE}')
            lines.append('      }')
            lines.append(f'      nvgpu.mbarrier.try_wait.parity %bar[%c0], %parity, %ticks : {BARRIER}')
        lines.append('      gpu.return')
        lines.append('    }')
    lines += ['  }', '}']
    return "\n".join(lines) + "\n"


def measure(command):
    """(cpu s, wall s, peak RSS MB) of one run of `command`, the child alone (wait4)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{stderr.decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024.0


def commands(path, level, acopy_opt, ours, ref, upstream_threads="all"):
    threading = ["--mlir-disable-threading"] if upstream_threads == "1" else []
    if level == "lower":
        return [acopy_opt, ours, "--acopy-lower"], [MLIR_OPT, ref, "--convert-nvgpu-to-nvvm"] + threading
    pipeline = (f"--gpu-lower-to-nvvm-pipeline=cubin-chip={CHIP[path]} "
                f"cubin-features={PTX_FEATURES[path]} cubin-format=isa")
    return [acopy_opt, ours, "--acopy-lower", "--emit=ptx"], [MLIR_OPT, ref, pipeline] + threading


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--per-kernel", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paths", default="cpasync,tma")
    parser.add_argument("--starts", default="static,dynamic")
    parser.add_argument("--levels", default="lower,ptx")
    parser.add_argument("--acopy-opt", default="target/release/acopy-opt")
    parser.add_argument("--emit", choices=["acopy", "upstream"])
    parser.add_argument("--path", choices=["cpasync", "tma"], default="cpasync")
    parser.add_argument("--start", choices=["static", "dynamic"], default="static")
    parser.add_argument("--no-block-size", action="store_true")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--lines", action="store_true")
    parser.add_argument("--upstream-threads", choices=["all", "1"], default="all")
    parser.add_argument("--json")
    parser.add_argument("--threads-case", action="store_true")
    parser.add_argument("--modules", type=int, default=16)
    args = parser.parse_args()
    if args.threads_case:
        if not os.path.exists(args.acopy_opt):
            sys.exit(f"{args.acopy_opt} not found: cargo build --release -p acopy-opt")
        threads_case(args)
        return
    if args.emit == "acopy":
        sys.stdout.write(acopy_input(args.n, args.path, args.start, args.per_kernel, not args.no_block_size))
        return
    if args.emit == "upstream":
        sys.stdout.write(upstream_input(args.n, args.path, args.start, args.per_kernel))
        return
    if not os.path.exists(args.acopy_opt):
        sys.exit(f"{args.acopy_opt} not found: cargo build --release -p acopy-opt")
    table = sys.stderr if args.lines else sys.stdout
    print(f"compile speed, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
          f"{args.per_kernel} copies per kernel, median of {args.repeat} alternated runs; ratio = acopy / upstream; "
          f"acopy-opt MLIR's pool (one gpu.module: one thread), mlir-opt {'1 thread' if args.upstream_threads == '1' else 'all cores'}",
          file=table)
    print(file=table)
    print("| route | copies | acopy cpu s | upstream cpu s | cpu ratio | acopy wall s | upstream wall s "
          "| wall ratio | acopy RSS MB | upstream RSS MB | RSS ratio | acopy µs/copy (cpu) |", file=table)
    print("|---|---|---|---|---|---|---|---|---|---|---|---|", file=table)
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            for path in args.paths.split(","):
                for start in args.starts.split(","):
                    ours = os.path.join(tmp, f"acopy-{path}-{start}-{n}.mlir")
                    ref = os.path.join(tmp, f"upstream-{path}-{start}-{n}.mlir")
                    with open(ours, "w") as f:
                        f.write(acopy_input(n, path, start, args.per_kernel))
                    with open(ref, "w") as f:
                        f.write(upstream_input(n, path, start, args.per_kernel))
                    for level in args.levels.split(","):
                        a_cmd, u_cmd = commands(path, level, args.acopy_opt, ours, ref, args.upstream_threads)
                        a_runs, u_runs = [], []
                        for _ in range(args.repeat):
                            a_runs.append(measure(a_cmd))
                            u_runs.append(measure(u_cmd))
                        a = [statistics.median(r[j] for r in a_runs) for j in range(3)]
                        u = [statistics.median(r[j] for r in u_runs) for j in range(3)]
                        route = f"{path} {start} {level}"
                        print(f"| {route} | {n} | {a[0]:.3f} | {u[0]:.3f} | {a[0] / u[0]:.2f} | {a[1]:.3f} | "
                              f"{u[1]:.3f} | {a[1] / u[1]:.2f} | {a[2]:.0f} | {u[2]:.0f} | {a[2] / u[2]:.2f} | "
                              f"{a[0] / n * 1e6:.1f} |", file=table, flush=True)
                        if args.json:
                            with open(args.json, "a") as record:
                                record.write(json.dumps({
                                    "path": path, "start": start, "level": level, "copies": n,
                                    "per_kernel": args.per_kernel, "upstream_threads": args.upstream_threads,
                                    "acopy_cpu_s": a[0], "upstream_cpu_s": u[0], "acopy_wall_s": a[1],
                                    "upstream_wall_s": u[1], "acopy_rss_mb": a[2], "upstream_rss_mb": u[2],
                                    "date": time.strftime('%Y-%m-%d', time.gmtime())}) + "\n")
                        if args.lines:
                            print(f"{path}-{start}-{level} ratio acopy/upstream: {a[0] / u[0]:.2f} "
                                  f"rss acopy/upstream: {a[2]:.0f}/{u[2]:.0f} MB", flush=True)


if __name__ == "__main__":
    main()
