#!/usr/bin/env bash
# Builds the attention kernels of examples/attention/gen.py for one chip: OUT/attn_f16_*.ptx
# and .manifest.json for every shape runtime/src/bin/acopy-gpu-attention checks (small,
# against a host softmax) and times (32 heads x 4096, as the SDPA anchors), with
# acopy-opt ($ACOPY_OPT or target/debug/acopy-opt; fallback mode where the sequence is
# ragged on cp.async chips), and ptxas -v into OUT/ptxas-v.log. SWIZZLE 128 writes the tiles
# in TMA's 128-byte pattern and reads them through acopy.swizzled_index (gen.py --swizzle);
# a D = 128 row is then two column panels, which both paths write in fallback mode.
# ROWS: query rows per block, 64 (4 warps, the default) or 128 (8 warps; gen.py --rows).
# QK: mma (the default) or wgmma (sm_90 with SWIZZLE 128 and ROWS 64: S = Q Kᵀ by wgmma; gen.py --qk).
# PV: mma (the default) or wgmma (with QK wgmma: P V by wgmma with P from registers; gen.py --pv).
# Usage: bash examples/attention/build.sh OUT [STAGES [CHIP [DTYPE [SWIZZLE [ROWS [QK [PV]]]]]]]     (CHIP: sm_80 or sm_90; DTYPE: bf16, the default, or f16; SWIZZLE: 0, the default, or 128)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out=${1:?usage: examples/attention/build.sh OUT [STAGES [CHIP]]}
stages=${2:-2}
chip=${3:-sm_80}
dtype=${4:-bf16}
swizzle=${5:-0}
rows=${6:-64}
qk=${7:-mma}
pv=${8:-mma}
arch=$chip; [[ $qk == wgmma ]] && arch=${chip}a
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
ptxas="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
mkdir -p "$out"
: > "$out/ptxas-v.log"; : > "$out/remarks.log"
# BH S D and causal (c) or not (-): checked shapes, then timed ones.
shapes="2x256x64- 2x256x64c 2x256x128- 2x256x128c 3x200x64c 1x1x64- 1x64x128c 32x4096x64- 32x4096x64c 32x4096x128- 32x4096x128c"
for shape in $shapes; do
  IFS=x read -r bh s rest <<< "$shape"
  d=${rest%?}; causal=${rest: -1}
  flags=(); suffix=""
  if [[ $causal == c ]]; then flags+=(--causal); suffix=_causal; fi
  name="attn_${dtype}_${bh}x${s}x${d}${suffix}"
  python3 "$here/gen.py" "$bh" "$s" "$d" "$stages" "${flags[@]}" --chip="$chip" --dtype="$dtype" --swizzle="$swizzle" --rows="$rows" --qk="$qk" --pv="$pv" > "$out/$name.mlir"
  mode=()
  if [[ $chip == sm_80 ]] && (( s % 64 )); then mode=(--acopy-fallback); fi
  if (( swizzle && d * 2 > swizzle )); then mode=(--acopy-fallback); fi
  "$opt" "$out/$name.mlir" "${mode[@]}" --acopy-lower --emit=ptx -o "$out/$name.ptx" --tma-manifest="$out/$name.manifest.json" 2>> "$out/remarks.log"
  echo "== $name" >> "$out/ptxas-v.log"
  "$ptxas" -v -arch="$arch" "$out/$name.ptx" -o /dev/null >> "$out/ptxas-v.log" 2>&1
done
echo "built $(ls "$out"/*.ptx | wc -l) attention kernels in $out"
