#!/usr/bin/env bash
# Everything that needs the GPU, in one go, on the GPU machine. It builds nothing there
# (no Rust, no acopy-opt needed): build first, here:
#   cargo build --release -p acopy-runtime --bin acopy-gpu-suite
#   bash tests/gpu/build-ptx.sh                      # tests/gpu/ptx/*.ptx + manifests
#   python3 bench/collect_ptx.py                     # bench/ptx-corpus/*.ptx (lit suite's PTX)
# and send target/release/acopy-gpu-suite, tests/gpu/ptx and bench/ptx-corpus along.
# Then, on the GPU machine, from the repo root:
#   bash bench/gpu-run.sh [OUT_DIR] [SUITE FLAGS...]
# It writes into OUT_DIR (default bench/results): nvidia-smi.csv, ptxas.log (the lit
# suite's PTX), ptxas-suite.log (the GPU suite's own PTX), gpu-h200.json and gpu-h200.md
# (the suite's results: every case, then the bandwidth table), suite.log, and when python3
# can import acopy and torch, bench/python-gpu.sh's files (python-h200.json, ...). Extra flags
# go to acopy-gpu-suite (e.g. --no-bandwidth, --only NAME, --seed N).
# Exits 1 when anything failed: a ptxas error, a case not exact, a benchmark kernel wrong.
set -uo pipefail
out=${1:-bench/results}
shift || true
mkdir -p "$out"
status=0
suite=./target/release/acopy-gpu-suite
for need in "$suite" tests/gpu/ptx bench/ptx-corpus; do
  if [[ ! -e "$need" ]]; then
    echo "gpu-run: $need is missing: build it on the build machine and send it along (see the top of $0)"
    status=1
  fi
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/nvidia-smi.csv" 2>&1
echo "== ptxas on the lit suite's PTX"
bash bench/ptxas_all.sh bench/ptx-corpus > "$out/ptxas.log" 2>&1 || status=1
tail -1 "$out/ptxas.log"
echo "== ptxas on the GPU suite's PTX"
bash bench/ptxas_all.sh tests/gpu/ptx > "$out/ptxas-suite.log" 2>&1 || status=1
grep '^FAIL' "$out/ptxas-suite.log" | cut -c1-200
tail -1 "$out/ptxas-suite.log"
echo "== GPU suite"
"$suite" --ptx-dir tests/gpu/ptx --case-timeout-s 30 \
  --results-json "$out/gpu-h200.json" --results-md "$out/gpu-h200.md" "$@" 2>&1 | tee "$out/suite.log" || status=1
echo "== Python package (python/tests/gpu, launch overhead)"
if python3 -c "import acopy, torch" 2>/dev/null; then
  bash bench/python-gpu.sh "$out" python3 || status=1
else
  echo "SKIPPED: python3 cannot import acopy and torch (install ./python, or set PYTHONPATH; see bench/python-gpu.sh)"
fi
exit $status
