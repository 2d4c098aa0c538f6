#!/usr/bin/env bash
# Builds the pipelined GPU kernels: gen.py writes kernels/*.mlir, then each is
# compiled for sm_80 (cp.async) and sm_90 (TMA, with its tensor-map manifest) into
# ptx/<name>_<path>.ptx, and ptxas -v reports registers, spills and shared memory per
# module into ptx/ptxas-v.log (ACOPY_PTXAS, default .venv/bin/ptxas).
# Usage: tests/gpu/pipeline/build.sh    (acopy-opt: $ACOPY_OPT or target/debug/acopy-opt)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
ptxas="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
python3 "$here/gen.py"
mkdir -p "$here/ptx"
: > "$here/ptx/ptxas-v.log"
for kernel in "$here"/kernels/*.mlir; do
  name="$(basename "$kernel" .mlir)"
  # The native TMA form (pipe_native*) has no cp.async path (rule P12).
  paths="cp_async tma"
  [[ $name == pipe_native* ]] && paths=tma
  [[ $paths == tma ]] || "$opt" "$kernel" --chip=sm_80 --acopy-lower --emit=ptx -o "$here/ptx/${name}_cp_async.ptx"
  "$opt" "$kernel" --chip=sm_90 --acopy-lower --emit=ptx -o "$here/ptx/${name}_tma.ptx" \
    --tma-manifest="$here/ptx/${name}_tma.manifest.json"
  for path in $paths; do
    arch=sm_80; [[ $path == tma ]] && arch=sm_90
    echo "== ${name}_${path}" >> "$here/ptx/ptxas-v.log"
    "$ptxas" -v -arch=$arch "$here/ptx/${name}_${path}.ptx" -o /dev/null >> "$here/ptx/ptxas-v.log" 2>&1
  done
done
echo "built $(ls "$here"/ptx/*.ptx | wc -l) PTX modules"
