#!/usr/bin/env bash
# One GPU call for the warp-specialization work (tests/gpu/ws_diff/README.md) and the
# tensor-core sweep (bench/README.md, "The tensor-core sweep"), on the GPU machine.
# Build here first (no Rust there):
#   cargo build --release -p acopy-opt -p acopy-runtime
#   bash tests/gpu/ws_diff/build.sh target/ws-diff
#   ACOPY_OPT=target/release/acopy-opt bash tests/gpu/pipeline/build.sh
#   ACOPY_OPT=target/release/acopy-opt bash tests/gpu/build-ptx.sh
#   ACOPY_OPT=target/release/acopy-opt bash bench/tc_sweep_prepare.sh
# then carry target/ws-diff, target/tc-sweep, tests/gpu/pipeline/ptx, tests/gpu/ptx and
# target/release/acopy-gpu-{ws-diff,pipeline,suite}, and run
#   bash bench/gpu_round.sh OUT PARTS     (PARTS: any of ws,pipeline,sweep,suite; comma-separated)
# Writes into OUT: smi.csv, ws-diff.log + ws-differential.json, pipeline.log +
# pipeline.json, the sweep's files, suite.log + gpu-suite.json. Exits 1 when a part failed.
set -uo pipefail
out=${1:?usage: bench/gpu_round.sh OUT PARTS}
parts=",${2:-ws,pipeline,sweep,suite},"
mkdir -p "$out"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$out/smi.csv"
if [[ $parts == *,ws,* ]]; then
  echo "== differential test of marked loops"
  timeout 300 ./target/release/acopy-gpu-ws-diff --dir "${WS_DIR:-target/ws-diff}" \
    --results-json "$out/ws-differential.json" > "$out/ws-diff.log" 2>&1 || status=1
  grep -v ' match: $' "$out/ws-diff.log" | tail -15
fi
if [[ $parts == *,pipeline,* ]]; then
  echo "== pipelined matrix: warp-specialized kernels and their models"
  timeout 200 ./target/release/acopy-gpu-pipeline --ptx-dir tests/gpu/pipeline/ptx \
    --kernels ws_copy,ws_slow,ws_reduce,ws_axpy,ws_outer,copy,axpy_store \
    --results-json "$out/pipeline.json" > "$out/pipeline.log" 2>&1 || status=1
  tail -4 "$out/pipeline.log"
fi
if [[ $parts == *,sweep,* ]]; then
  echo "== tensor-core sweep"
  timeout "${SWEEP_TIMEOUT_S:-330}" python3 bench/tc_sweep.py run --builds target/tc-sweep --out "$out" \
    --budget-s "${SWEEP_BUDGET_S:-280}" > "$out/sweep-stdout.txt" 2>&1 || status=1
  tail -40 "$out/sweep-stdout.txt"
fi
if [[ $parts == *,suite,* ]]; then
  echo "== GPU suite"
  timeout 400 ./target/release/acopy-gpu-suite --ptx-dir tests/gpu/ptx --no-bandwidth \
    --case-timeout-s 30 --results-json "$out/gpu-suite.json" > "$out/suite.log" 2>&1 || status=1
  grep -v '^PASS\|exact$' "$out/suite.log" | tail -8
fi
exit $status
