#!/usr/bin/env bash
# Builds the GEMM kernels of bench/bench_gemm.py: OUT/gemm_bf16_MxNxK.ptx and
# .manifest.json for every shape it checks and times, with acopy-opt ($ACOPY_OPT or
# target/debug/acopy-opt), and ptxas -v into OUT/ptxas-v.log. PRODUCER is gen.py's:
# block (every thread copies and computes) or warp (a producer warp copies).
# CHIP is sm_90a (bf16, TMA + wgmma; the default) or sm_80 (f16, cp.async + ldmatrix +
# mma.sync; gen.py --chip).
# SWIZZLE (sm_80 only): 64 writes the tiles swizzled and reads them through
# acopy.swizzled_index (gen.py --swizzle).
# DTYPE: bf16 or f16 (default bf16 on sm_90a, f16 on sm_80).
# OPTIONS: more gen.py flags in one word, e.g. "--tile=128x256 --raster=16 --vstore=1"
# (gen.py's usage line lists them; none by default). With --b-major=n the modules are
# gemm_<dtype>_MxNxK_bn (B a second argument, K x N); on sm_90a their B tiles are
# column panels, split by fallback mode; on sm_80 ldmatrix reads B transposed. With
# --out=bf16 (sm_90a) out is bf16 and the modules end in _ob16.
# Usage: bash examples/gemm/build.sh OUT [STAGES [PRODUCER [CHIP [SWIZZLE [DTYPE [OPTIONS]]]]]]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out=${1:?usage: examples/gemm/build.sh OUT [STAGES]}
stages=${2:-4}
producer=${3:-block}
chip=${4:-sm_90a}
swizzle=${5:-0}
dtype=bf16; [[ $chip == sm_80 ]] && dtype=f16
dtype=${6:-$dtype}
read -r -a options <<< "${7:-}"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
ptxas="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
mkdir -p "$out"
: > "$out/ptxas-v.log"
: > "$out/refused.log"
: > "$out/remarks.log"
shapes=$(python3 -c "import sys; sys.path.insert(0, '$root/bench'); import bench_gemm as b; print(' '.join(f'{m}x{n}x{k}' for m, n, k in b.CHECK_SHAPES + b.TIME_SHAPES))")
for shape in $shapes; do
  IFS=x read -r m n k <<< "$shape"
  name="gemm_${dtype}_${m}x${n}x${k}"
  [[ " ${options[*]} " == *" --b-major=n "* ]] && name="${name}_bn"
  [[ " ${options[*]} " == *" --out=bf16 "* ]] && name="${name}_ob16"
  python3 "$here/gen.py" "$m" "$n" "$k" "$stages" "$producer" --chip="$chip" --swizzle="$swizzle" --dtype="$dtype" "${options[@]}" > "$out/$name.mlir"
  # Ragged edges take zero-filled copies, which cp.async chips do in fallback mode
  # (gen.py asks for them where the shape is ragged for its tile).
  mode=()
  if [[ $chip == sm_80 ]] && grep -q 'oob_mode = "zeros"' "$out/$name.mlir"; then mode=(--acopy-fallback); fi
  # An N-major B tile of several 128-byte spans is column panels (docs/dialect.md, "Wide tiles").
  if grep -q 'major = "mn"' "$out/$name.mlir"; then mode=(--acopy-fallback); fi
  # A shape the compiler refuses (e.g. TMA's 16-byte row stride for a K x N B of odd N)
  # is listed in OUT/refused.log with its error and the others are still built.
  if ! "$opt" "$out/$name.mlir" "${mode[@]}" --acopy-lower --emit=ptx -o "$out/$name.ptx" --tma-manifest="$out/$name.manifest.json" 2>> "$out/remarks.log"; then
    { echo "== $name"; grep 'error:' "$out/remarks.log" | tail -1; } >> "$out/refused.log"
    continue
  fi
  echo "== $name" >> "$out/ptxas-v.log"
  "$ptxas" -v -arch="$chip" "$out/$name.ptx" -o /dev/null >> "$out/ptxas-v.log" 2>&1
done
echo "built $(ls "$out"/*.ptx | wc -l) GEMM kernels in $out; refused: $(grep -c "^==" "$out/refused.log")"
