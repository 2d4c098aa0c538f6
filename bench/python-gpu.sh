#!/usr/bin/env bash
# The Python package on the GPU machine: python/tests/gpu (each test in its own
# process) and the launch-overhead comparison, then bench/results/python-h200.json.
#   bash bench/python-gpu.sh OUT_DIR [PYTHON]
# Needs `import acopy` to work for PYTHON (the package installed, or PYTHONPATH set),
# torch (and for two cases CuPy and JAX), and target/release/acopy-launch-overhead
# (ACOPY_LAUNCH_OVERHEAD overrides the path). Writes into OUT_DIR: python-gpu.log,
# python-cases/*.json, launch-overhead.json, python-h200.json and python-h200.md.
# Exits 1 when a test failed or a case was not exact.
set -uo pipefail
out=${1:?usage: bench/python-gpu.sh OUT_DIR [PYTHON]}
py=${2:-python3}
here=$(cd "$(dirname "$0")" && pwd)
tests=${ACOPY_PYTHON_TESTS:-python/tests/gpu}
mkdir -p "$out/python-cases"
export ACOPY_GPU_RESULTS="$out/python-cases" ACOPY_ROOT=${ACOPY_ROOT:-$PWD}
export XLA_PYTHON_CLIENT_PREALLOCATE=false
status=0
log="$out/python-gpu.log"
: > "$log"
# --rootdir=.: ids relative to where they are run (python/pyproject.toml would
# otherwise make them relative to python/).
ids=$("$py" -m pytest --collect-only -q -p no:cacheprovider --rootdir=. "$tests" 2>>"$log" | grep '::')
set -f  # the ids hold [brackets], which are no globs here
for id in $ids; do
  [[ $id == *device_fault* ]] && export ACOPY_GPU_FAULT_TEST=1 || unset ACOPY_GPU_FAULT_TEST
  if timeout 300 "$py" -m pytest -q -rs -p no:cacheprovider --rootdir=. "$id" >> "$log" 2>&1; then
    echo "PASS $id" | tee -a "$log"
  else
    echo "FAIL $id" | tee -a "$log"
    status=1
  fi
done
echo "== launch overhead"
timeout 300 "$py" "$here/launch_overhead.py" --out "$out/launch-overhead.json" \
  --rust "${ACOPY_LAUNCH_OVERHEAD:-target/release/acopy-launch-overhead}" 2>&1 | tee -a "$log" || status=1
"$py" "$here/python_results.py" "$out" || status=1
exit $status
