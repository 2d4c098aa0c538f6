#!/usr/bin/env bash
# Everything that needs the GPU, in one go, on the GPU machine (no Rust there).
# Build first, here:
#   cargo build --release -p acopy-runtime --bin acopy-gpu-suite
#   bash tests/gpu/build-ptx.sh                      # tests/gpu/ptx/*.ptx + manifests
#   python3 bench/collect_ptx.py                     # bench/ptx-corpus/*.ptx (lit suite's PTX)
# Then, on the GPU machine, from the repo root:
#   bash bench/gpu-run.sh [OUT_DIR]
# It writes the suite's JSON and markdown, the ptxas log and nvidia-smi into OUT_DIR.
set -uo pipefail
out=${1:-bench/results}
mkdir -p "$out"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/nvidia-smi.csv" 2>&1
echo "== ptxas on the lit suite's PTX"
bash bench/ptxas_all.sh bench/ptx-corpus > "$out/ptxas.log" 2>&1 || status=1
tail -1 "$out/ptxas.log"
echo "== GPU suite"
./target/release/acopy-gpu-suite --ptx-dir tests/gpu/ptx \
  --results-json "$out/gpu-h200.json" --results-md "$out/gpu-h200.md" 2>&1 | tee "$out/suite.log" || status=1
exit $status
