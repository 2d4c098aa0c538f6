#!/usr/bin/env bash
# The tile-size benchmark of pipelined loops, on the GPU machine, in one call of at most
# about 7.5 minutes (each step has a deadline inside and a `timeout` around it).
# Run from the folder bench/pipeline_tiles_prepare.sh fills (.device/tiles/: PTX, the
# release acopy-gpu-pipeline, the Python anchors, config.sh); needs no Rust and no MLIR,
# and Python with torch, triton, jax (Pallas) and cupy for the anchors:
#   OUT=/some/dir bash .device/tiles/pipeline_tiles.sh
# Steps, in one device session so the anchors share the card's state with acopy:
#   1. acopy: pipe_bw_reduce and pipe_bw_axpy over 1 GiB, every tile of config.sh x S = 1..4
#      x 1 and 2 blocks per SM x 128 and 256 threads x both paths, and the device copy
#      (acopy-gpu-pipeline --bandwidth: one child process times the modules, a failing
#      module costs only itself, shapes that do not fit an SM are skipped rows);
#   2. torch sum/add_ and Triton (same tiles, num_stages = S, 1 and 2 programs per SM,
#      4 warps first, then 8);
#   3. upstream MLIR's hand-written cp.async twin of the reduction (CuPy);
#   4. Pallas emit_pipeline, S = 3 for every tile first, then S = 1, 2, 4 while time lasts.
# Writes 7 files into $OUT: driver.log (times, exit codes, nvidia-smi), stderr.log (every
# step's stderr), acopy.json and acopy.log, triton.jsonl, upstream.jsonl, pallas.jsonl.
# Every step runs whatever happens to the one before it. Exit status 0; the merge
# (bench/pipeline_tiles_merge.py, here-side) judges the results.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
OUT="${OUT:-${1:-/tmp/pipeline-tiles}}"
mkdir -p "$OUT"
# shellcheck source=/dev/null
source ./config.sh
THREADS="${THREADS:-128,256}"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XLA_PYTHON_CLIENT_PREALLOCATE=false
log="$OUT/driver.log"; err="$OUT/stderr.log"
: > "$log"; : > "$err"
started=$(date +%s)
step() { # name timeout command...: runs it, logs its exit code and seconds
  local name=$1 limit=$2; shift 2
  local s; s=$(date +%s)
  echo "== $name" >> "$err"
  timeout "$limit" "$@"
  echo "$name rc=$? $(( $(date +%s) - s ))s (at $(( $(date +%s) - started ))s)" >> "$log"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$log" 2>&1
echo "rows: reduce $REDUCE_ROWS, axpy $AXPY_ROWS; threads $THREADS" >> "$log"

step acopy 150 ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --bw-kernels reduce,axpy \
  --reduce-rows "$REDUCE_ROWS" --axpy-rows "$AXPY_ROWS" --blocks-per-sm 1,2 --threads "$THREADS" \
  --bw-deadline-s 125 --bw-module-timeout-s 40 --results-json "$OUT/acopy.json" > "$OUT/acopy.log" 2>> "$err"
step triton 105 python3 pipeline_anchors.py --jsonl --reduce-rows "$REDUCE_ROWS" --axpy-rows "$AXPY_ROWS" \
  --stages 1,2,3,4 --blocks-per-sm 1,2 --warps 4,8 --deadline-s 80 > "$OUT/triton.jsonl" 2>> "$err"
step upstream 50 python3 up_run.py up --rows "$REDUCE_ROWS" --jsonl --deadline-s 35 > "$OUT/upstream.jsonl" 2>> "$err"
step pallas 130 python3 pipeline_anchors_pallas.py --jsonl --reduce-rows "$REDUCE_ROWS" --axpy-rows "$AXPY_ROWS" \
  --stages 3,1,2,4 --blocks-per-sm 1,2 --deadline-s 95 > "$OUT/pallas.jsonl" 2>> "$err"

echo "total $(( $(date +%s) - started ))s" >> "$log"
cat "$log"
echo "acopy rows: $(grep -c '"gbps":[0-9]' "$OUT/acopy.log") measured, $(grep -c '"skipped"' "$OUT/acopy.log") skipped, $(grep -c '"exact":false' "$OUT/acopy.log") not exact"
for f in triton upstream pallas; do echo "$f anchors: $(grep -c '"anchor"' "$OUT/$f.jsonl")"; done
tail -c 1500 "$err"
exit 0
