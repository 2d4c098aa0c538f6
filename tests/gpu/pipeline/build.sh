#!/usr/bin/env bash
# Builds the pipelined GPU kernels: gen.py and gen_big.py write kernels/*.mlir, then
# each is compiled for sm_80 (cp.async; not the TMA-store kernels) and sm_90 (TMA), each
# with its manifest (the tensor maps; the dynamic shared memory of slots that moved
# there), into
# ptx/<name>_<path>.ptx, and ptxas -v reports registers, spills and shared memory per
# module into ptx/ptxas-v.log (ACOPY_PTXAS, default .venv/bin/ptxas).
# Usage: tests/gpu/pipeline/build.sh [--out DIR] [gen.py flags]
#   (acopy-opt: $ACOPY_OPT or target/debug/acopy-opt)
# gen.py flags, e.g. --reduce-rows 4,8,16,32,64 --axpy-rows 2,4,8,16,32 (lists of tile
# rows), --bandwidth-only (then gen_big.py is not run), --bandwidth-kernels reduce,axpy.
# --out DIR: the kernels go to DIR/kernels and the PTX to DIR/ptx instead of kernels/
# and ptx/ beside this script (bench/pipeline_tiles_prepare.sh).
# A module acopy-opt refuses (e.g. slots over the chip's shared memory) is recorded in
# ptx/refused.log as `<name>_<path>: <first error line>`; the others are still built,
# and the exit status is 1 when any was refused or ptxas failed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
ptxas="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
kernels="$here/kernels"; ptx="$here/ptx"; gen_args=(); bandwidth_only=0
while (( $# )); do
  case $1 in
    --out) [[ $# -ge 2 ]] || { echo "build.sh: --out needs a directory" >&2; exit 2; }
           kernels="$2/kernels"; ptx="$2/ptx"; gen_args+=(--out-dir "$kernels"); shift 2 ;;
    --bandwidth-only) bandwidth_only=1; gen_args+=("$1"); shift ;;
    *) gen_args+=("$1"); shift ;;
  esac
done
python3 "$here/gen.py" "${gen_args[@]}" || exit 2
if (( ! bandwidth_only )); then python3 "$here/gen_big.py" || exit 2; fi
mkdir -p "$ptx"
: > "$ptx/ptxas-v.log"; : > "$ptx/refused.log"
status=0
for kernel in "$kernels"/*.mlir; do
  name="$(basename "$kernel" .mlir)"
  # A TMA store (axpy_store) and the native TMA form (pipe_native*, rule P12) have no
  # cp.async form: sm_90 only.
  paths="cp_async tma"; [[ $name == *axpy_store* || $name == pipe_native* ]] && paths=tma
  for path in $paths; do
    chip=sm_80; [[ $path == tma ]] && chip=sm_90
    out="$ptx/${name}_${path}"
    rm -f "$out.ptx" "$out.manifest.json"
    if ! "$opt" "$kernel" --chip=$chip --acopy-lower --emit=ptx -o "$out.ptx" \
        --tma-manifest="$out.manifest.json" 2> "$ptx/err.txt"; then
      echo "${name}_${path}: $(grep -m1 'error:' "$ptx/err.txt" | sed 's/^[^ ]* error: //')" >> "$ptx/refused.log"
      rm -f "$out.ptx" "$out.manifest.json"
      status=1
      continue
    fi
    echo "== ${name}_${path}" >> "$ptx/ptxas-v.log"
    "$ptxas" -v -arch=$chip "$out.ptx" -o /dev/null >> "$ptx/ptxas-v.log" 2>&1 || status=1
  done
done
rm -f "$ptx/err.txt"
echo "built $(ls "$ptx"/*.ptx 2>/dev/null | wc -l) PTX modules; refused: $(wc -l < "$ptx/refused.log")"
cat "$ptx/refused.log"
exit $status
