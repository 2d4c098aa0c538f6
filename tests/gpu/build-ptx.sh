#!/usr/bin/env bash
# Compiles the GPU suite's kernels (tests/gpu/kernels/*.mlir) to PTX with
# acopy-opt, in process (no mlir-opt, llc or ptxas needed):
#   tests/gpu/ptx/<name>.ptx                 for every kernel
#   tests/gpu/ptx/<name>.manifest.json       as well, for kernels whose chip is sm_90 or newer (TMA)
#
# Usage: tests/gpu/build-ptx.sh [NAME...]    (default: every kernel)
# acopy-opt is $ACOPY_OPT, else target/release/acopy-opt or target/debug/acopy-opt,
# else it is built with cargo.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
kernels="$here/kernels"
out="$here/ptx"

opt="${ACOPY_OPT:-}"
if [[ -z "$opt" ]]; then
  for candidate in "$root/target/release/acopy-opt" "$root/target/debug/acopy-opt"; do
    if [[ -x "$candidate" ]]; then opt="$candidate"; break; fi
  done
fi
if [[ -z "$opt" ]]; then
  (cd "$root" && cargo build -q -p acopy-opt)
  opt="$root/target/debug/acopy-opt"
fi

if [[ $# -gt 0 ]]; then
  names=("$@")
else
  names=()
  for file in "$kernels"/*.mlir; do
    names+=("$(basename "$file" .mlir)")
  done
fi

mkdir -p "$out"
failed=0
for name in "${names[@]}"; do
  src="$kernels/$name.mlir"
  if [[ ! -f "$src" ]]; then
    echo "build-ptx: no kernel $src" >&2
    failed=1
    continue
  fi
  args=(--acopy-lower --emit=ptx -o "$out/$name.ptx")
  # cp.async kernels target sm_80..sm_89; anything newer uses TMA and has a manifest.
  if ! grep -qE 'chip = "sm_8[0-9]"' "$src"; then
    args+=(--tma-manifest="$out/$name.manifest.json")
  fi
  if "$opt" "$src" "${args[@]}"; then
    echo "build-ptx: $name"
  else
    echo "build-ptx: FAILED $name" >&2
    failed=1
  fi
done
exit "$failed"
