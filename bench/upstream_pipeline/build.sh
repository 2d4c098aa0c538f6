#!/usr/bin/env bash
# Builds the upstream-MLIR anchor (README.md here): gen.py writes kernels/, then MLIR 22's
# mlir-opt runs transform.nvgpu.pipeline_shared_memory_copies on each loop and lowers
# what it accepts to sm_80 PTX (bare-pointer kernel arguments) in ptx/; what it refuses
# is recorded with its exact message in ptx/results.txt. ptxas -v goes to ptx/ptxas-v.log.
# Usage: bench/upstream_pipeline/build.sh [--rows 4,8,16,32,64] [--out DIR]
#   (MLIR_OPT, default /usr/lib/llvm-22/bin/mlir-opt)
# --rows: the tile rows of the runnable twin (default 16); --out DIR: kernels in
# DIR/kernels and PTX in DIR/ptx instead of kernels/ and ptx/ here
# (bench/pipeline_tiles_prepare.sh). The twin at R rows, S and grid G is
# ptx/up_<stem>.ptx with stem reduce_s<S>_g<G> at 16 rows, reduce_r<R>_s<S>_g<G> else.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
opt="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
ptxas="${ACOPY_PTXAS:-$here/../../.venv/bin/ptxas}"
rows=16; k="$here/kernels"; out="$here/ptx"
while (( $# )); do
  case $1 in
    --rows) rows="${2:?--rows needs a list}"; shift 2 ;;
    --out) k="${2:?--out needs a directory}/kernels"; out="$2/ptx"; shift 2 ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
python3 "$here/gen.py" --rows "$rows" --out-dir "$k" || exit 2
mkdir -p "$out"; : > "$out/results.txt"; : > "$out/ptxas-v.log"
lower="--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa kernel-bare-ptr-calling-convention=true"
pipeline() { # kernel transform -> pipelined IR on stdout, or the message in results.txt
  "$opt" "$1" --transform-preload-library="transform-library-paths=$2" --transform-interpreter -canonicalize -cse 2> "$out/err.txt"
}
# The loop acopy pipelines (dynamic bounds), at each depth.
for s in 1 2 3 4; do
  if pipeline "$k/reduce_dynamic.mlir" "$k/transform_s$s.mlir" > /dev/null; then
    echo "reduce_dynamic S=$s: accepted" >> "$out/results.txt"
  else
    echo "reduce_dynamic S=$s: refused: $(grep -m1 -o 'error: .*' "$out/err.txt")" >> "$out/results.txt"
  fi
done
# multibuffer + pipeline on the memref.alloc form: accepted; the lowering turns the shared
# buffer into a device malloc (the PTX calls malloc and reads it through shared addresses).
for s in 1 2 3 4; do
  if pipeline "$k/reduce_g132.mlir" "$k/transform_s$s.mlir" > "$out/mb_s$s.mlir" && "$opt" "$out/mb_s$s.mlir" "$lower" -o "$out/mb_s$s.low.mlir" 2>> "$out/err.txt"; then
    python3 "$here/extract_ptx.py" "$out/mb_s$s.low.mlir" "$out/mb_s$s.ptx"
    echo "multibuffer S=$s: accepted; malloc calls in the PTX: $(grep -c 'call.uni (retval0), malloc' "$out/mb_s$s.ptx")" >> "$out/results.txt"
  else
    echo "multibuffer S=$s: refused: $(grep -m1 -o 'error: .*' "$out/err.txt")" >> "$out/results.txt"
  fi
done
# Slots by hand, static trip count: the runnable anchor.
for r in ${rows//,/ }; do
  for s in 1 2 3 4; do
    for g in 132 264; do
      stem="reduce_s${s}_g$g"; [[ $r == 16 ]] || stem="reduce_r${r}_s${s}_g$g"
      name="up_$stem"
      if pipeline "$k/$stem.mlir" "$k/transform_pipe_s$s.mlir" > "$out/$name.mlir" && "$opt" "$out/$name.mlir" "$lower" -o "$out/$name.low.mlir" 2>> "$out/err.txt"; then
        python3 "$here/extract_ptx.py" "$out/$name.low.mlir" "$out/$name.ptx"
        echo "== $name" >> "$out/ptxas-v.log"
        "$ptxas" -v -arch=sm_80 "$out/$name.ptx" -o /dev/null > "$out/ptxas1.txt" 2>&1; ok=$?
        cat "$out/ptxas1.txt" >> "$out/ptxas-v.log"
        if (( ok != 0 )); then
          echo "$name: refused by ptxas: $(grep -m1 -i 'error' "$out/ptxas1.txt")" >> "$out/results.txt"
          rm -f "$out/$name.ptx"
          continue
        fi
        echo "$name: accepted; wait_group counts: $(grep -o 'cp.async.wait_group[^;]*' "$out/$name.ptx" | tr -s ' \t' ' ' | sort | uniq -c | tr -s ' \n' ' ')" >> "$out/results.txt"
      else
        echo "$name: refused: $(grep -m1 -o 'error: .*' "$out/err.txt")" >> "$out/results.txt"
      fi
    done
  done
done
rm -f "$out/err.txt" "$out/ptxas1.txt"
cat "$out/results.txt"
