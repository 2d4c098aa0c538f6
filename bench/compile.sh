#!/usr/bin/env bash
# Compile speed against upstream, N copies per route (issue 11):
#   bench/compile.sh N [COPIES_PER_KERNEL (10 or 100, default 100)] [REPEAT (>= 3, default 3)]
# Kernels compiled in parallel (issue 18):
#   bench/compile.sh threads [REPEAT (>= 3, default 21: one-thread runs on this
#   2-core VM move by up to 1.6x between back-to-back runs, bench/RESULTS.md)]
# 16 gpu.modules of 100 copies each, cp.async (sm_80) and TMA (sm_90), to PTX,
# with --mlir-disable-threading and with MLIR's pool (one thread per core),
# alternately; one line per path with the ratio of median wall times:
#   PATH-16x100-ptx wall 1 thread / pool: X (A s / B s) cpu C s / D s
# For cp.async (sm_80) and TMA (sm_90), static and dynamic starts, the acopy
# form through `acopy-opt --acopy-lower` (and `--emit=ptx`) and the
# hand-written upstream nvgpu form through `mlir-opt --convert-nvgpu-to-nvvm`
# (and `--gpu-lower-to-nvvm-pipeline`), run alternately; medians of CPU time
# (user + sys), wall time and peak RSS (bench/compile_speed.py says how).
# Standard output: one line per route,
#   ROUTE ratio acopy/upstream: X rss acopy/upstream: A/B MB
# (X: ratio of CPU times; below 1 means acopy is faster); the full table
# (wall times too) goes to standard error.
# Environment: ROUTES_LEVELS (default lower,ptx), ROUTES_PATHS (cpasync,tma),
# ROUTES_STARTS (static,dynamic) narrow the run; UPSTREAM_THREADS=1 runs
# mlir-opt on one thread (default: MLIR's pool, one thread per core, as for
# acopy-opt, whose one gpu.module here runs on one); COMPILE_JSON=FILE appends
# each cell to FILE as JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == threads ]]; then
    repeat=${2:-21}
    if [[ ! $repeat =~ ^[1-9][0-9]*$ ]] || (( repeat < 3 )); then
        echo "usage: bench/compile.sh threads [REPEAT (>= 3)]" >&2
        exit 2
    fi
    cargo build --release -q -p acopy-opt
    exec python3 bench/compile_speed.py --threads-case --modules 16 --per-kernel 100 \
        --repeat "$repeat" ${COMPILE_JSON:+--json "$COMPILE_JSON"} --acopy-opt target/release/acopy-opt
fi
if [[ $# -lt 1 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: bench/compile.sh N [COPIES_PER_KERNEL] [REPEAT]" >&2
    exit 2
fi
n=$1
per_kernel=${2:-100}
repeat=${3:-3}
if [[ ! $per_kernel =~ ^[1-9][0-9]*$ || ! $repeat =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: bench/compile.sh N [COPIES_PER_KERNEL] [REPEAT]" >&2
    exit 2
fi
if (( repeat < 3 )); then
    echo "bench/compile.sh: REPEAT must be at least 3 (the cell is a median)" >&2
    exit 2
fi
# The release build is what frontends ship; a debug build is several times slower.
cargo build --release -q -p acopy-opt
exec python3 bench/compile_speed.py --lines --sizes "$n" --per-kernel "$per_kernel" \
    --repeat "$repeat" --levels "${ROUTES_LEVELS:-lower,ptx}" \
    --paths "${ROUTES_PATHS:-cpasync,tma}" --starts "${ROUTES_STARTS:-static,dynamic}" \
    --upstream-threads "${UPSTREAM_THREADS:-all}" ${COMPILE_JSON:+--json "$COMPILE_JSON"} \
    --acopy-opt target/release/acopy-opt
