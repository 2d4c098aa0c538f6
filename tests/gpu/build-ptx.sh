#!/usr/bin/env bash
# Compiles the GPU suite's kernels (tests/gpu/kernels/*.mlir) to PTX with
# acopy-opt, in process (no mlir-opt, llc or ptxas needed):
#   tests/gpu/ptx/<name>.ptx                 for every kernel
#   tests/gpu/ptx/<name>.manifest.json       its manifest (tensor maps, launch facts)
#
# The chip is the kernel's own #nvvm.target. Kernels named fb_* are built with
# --acopy-fallback (the GPU suite's cases follow the same naming rule).
#
# A kernel that fails to build is reported by name and skipped (its old PTX and manifest
# are removed, so the suite reports "missing PTX" for its cases); the others are still
# built. Exits 1 when any kernel failed.
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
failed=()
for name in "${names[@]}"; do
  src="$kernels/$name.mlir"
  rm -f "$out/$name.ptx" "$out/$name.manifest.json"
  if [[ ! -f "$src" ]]; then
    echo "build-ptx: no kernel $src" >&2
    failed+=("$name")
    continue
  fi
  # Every kernel gets its manifest: TMA kernels list their tensor maps, and any kernel
  # records the dynamic shared memory its pipelined slots moved to.
  args=(--acopy-lower --emit=ptx -o "$out/$name.ptx" --tma-manifest="$out/$name.manifest.json")
  mode=""
  if [[ "$name" == fb_* ]]; then
    args+=(--acopy-fallback)
    mode=" (--acopy-fallback)"
  fi
  if "$opt" "$src" "${args[@]}"; then
    echo "build-ptx: $name$mode"
  else
    echo "build-ptx: FAILED $name$mode (acopy-opt's diagnostic is above)" >&2
    rm -f "$out/$name.ptx" "$out/$name.manifest.json"
    failed+=("$name")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "build-ptx: ${#failed[@]} of ${#names[@]} kernels failed to build: ${failed[*]}" >&2
  exit 1
fi
echo "build-ptx: all ${#names[@]} kernels built"
