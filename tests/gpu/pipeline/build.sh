#!/usr/bin/env bash
# Builds the pipelined GPU kernels: gen.py and gen_big.py write kernels/*.mlir, then
# each is compiled for sm_80 (cp.async; not the TMA-store kernels) and sm_90 (TMA), each
# with its manifest (the tensor maps; the dynamic shared memory of slots that moved
# there), into
# ptx/<name>_<path>.ptx, and ptxas -v reports registers, spills and shared memory per
# module into ptx/ptxas-v.log (ACOPY_PTXAS, default .venv/bin/ptxas).
# Usage: tests/gpu/pipeline/build.sh [gen.py flags, e.g. --reduce-rows 64 --axpy-rows 64]    (acopy-opt: $ACOPY_OPT or target/debug/acopy-opt)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
ptxas="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
python3 "$here/gen.py" "$@"
python3 "$here/gen_big.py"
mkdir -p "$here/ptx"
: > "$here/ptx/ptxas-v.log"
for kernel in "$here"/kernels/*.mlir; do
  name="$(basename "$kernel" .mlir)"
  # A TMA store (axpy_store) and the native TMA form (pipe_native*, rule P12) have no
  # cp.async form: sm_90 only.
  paths="cp_async tma"; [[ $name == *axpy_store* || $name == pipe_native* ]] && paths=tma
  [[ $paths == tma ]] || "$opt" "$kernel" --chip=sm_80 --acopy-lower --emit=ptx -o "$here/ptx/${name}_cp_async.ptx" \
    --tma-manifest="$here/ptx/${name}_cp_async.manifest.json"
  "$opt" "$kernel" --chip=sm_90 --acopy-lower --emit=ptx -o "$here/ptx/${name}_tma.ptx" \
    --tma-manifest="$here/ptx/${name}_tma.manifest.json"
  for path in $paths; do
    arch=sm_80; [[ $path == tma ]] && arch=sm_90
    echo "== ${name}_${path}" >> "$here/ptx/ptxas-v.log"
    "$ptxas" -v -arch=$arch "$here/ptx/${name}_${path}.ptx" -o /dev/null >> "$here/ptx/ptxas-v.log" 2>&1
  done
done
echo "built $(ls "$here"/ptx/*.ptx | wc -l) PTX modules"
