#!/usr/bin/env bash
# An acopy-opt for the examples' build scripts (their ACOPY_OPT) in the one-barrier
# experiment: `one_barrier_opt.sh IN.mlir [MODE...] --acopy-lower REST...` runs the real
# acopy-opt ($ONE_BARRIER_REAL_OPT) with --acopy-pipeline, rewrites its output with
# bench/experiments/one_barrier.py, then lowers that with --acopy-lower REST...
set -euo pipefail
real="${ONE_BARRIER_REAL_OPT:?set ONE_BARRIER_REAL_OPT to acopy-opt}"
input=$1; shift
mode=()
while [[ $# -gt 0 && $1 != --acopy-lower ]]; do mode+=("$1"); shift; done
[[ $# -gt 0 ]] || { echo "one_barrier_opt: expected --acopy-lower after the mode flags" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$real" "$input" "${mode[@]}" --acopy-pipeline -o "$work/pipelined.mlir" 2>/dev/null
python3 "$(dirname "${BASH_SOURCE[0]}")/one_barrier.py" "$work/pipelined.mlir" "$work/rewritten.mlir"
"$real" "$work/rewritten.mlir" "${mode[@]}" "$@"
