#!/usr/bin/env bash
# On the GPU machine: assemble every collected PTX file with ptxas for its own
# .target chip. Prints one line per file and a summary; exits 1 if any fails.
set -uo pipefail
dir=${1:-bench/ptx-corpus}
pass=0; fail=0
for ptx in "$dir"/*.ptx; do
  chip=$(grep -m1 -oE '^\.target\s+\w+' "$ptx" | awk '{print $2}')
  if out=$(ptxas -arch="$chip" "$ptx" -o /dev/null 2>&1); then
    echo "ok   $chip $(basename "$ptx")"; pass=$((pass + 1))
  else
    echo "FAIL $chip $(basename "$ptx"): $out"; fail=$((fail + 1))
  fi
done
echo "ptxas: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
