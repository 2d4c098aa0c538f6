#!/usr/bin/env bash
# Builds the one-barrier experiment (bench/experiments/one_barrier.py) into .device/perf/:
# gemm_sm_80_w64_t128_1bar (the sm_80 GEMM of bench/gemm_variants_prepare.sh's w64_t128)
# and attn_sm_80_sw_1bar / attn_sm_80_sw_s3_1bar (examples/attention at S = 2 and 3,
# swizzled), each module pipelined by acopy-opt, rewritten, then lowered. On the GPU
# machine: BUILDS='... _1bar builds and their baselines' bash .device/perf/perf.sh attention gemm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
here=bench/experiments
out=.device/perf/gemm_sm_80_w64_t128_1bar
rm -rf "$out"; mkdir -p "$out"; : > "$out/ptxas-v.log"
for shape in $(python3 -c "import sys; sys.path.insert(0, 'examples/gemm'); import bench_gemm as b; print(' '.join(f'{m}x{n}x{k}' for m, n, k in b.CHECK_SHAPES + b.TIME_SHAPES))"); do
  IFS=x read -r m n k <<< "$shape"
  name="gemm_f16_${m}x${n}x${k}"
  python3 examples/gemm/gen.py "$m" "$n" "$k" 3 block --chip=sm_80 --swizzle=128 --tile=128x128 --bk=64 --warp=64x64 --vstore=1 > "$out/$name.mlir"
  mode=(); grep -q 'oob_mode = "zeros"' "$out/$name.mlir" && mode=(--acopy-fallback)
  "$opt" "$out/$name.mlir" "${mode[@]}" --acopy-pipeline -o "$out/$name.p.mlir" 2>/dev/null
  python3 "$here/one_barrier.py" "$out/$name.p.mlir" "$out/$name.q.mlir"
  "$opt" "$out/$name.q.mlir" "${mode[@]}" --acopy-lower --emit=ptx -o "$out/$name.ptx" --tma-manifest="$out/$name.manifest.json" 2>/dev/null
  { echo "== $name"; .venv/bin/ptxas -v -arch=sm_80 "$out/$name.ptx" -o /dev/null 2>&1; } >> "$out/ptxas-v.log"
  rm -f "$out/$name.mlir" "$out/$name.p.mlir" "$out/$name.q.mlir"
done
python3 examples/gemm/mma_peak.py 4096 --dtype=f16 | "$opt" --acopy-lower --emit=ptx -o "$out/mma_peak_f16_4096.ptx"
# The attention builds: examples/attention/build.sh with the rewrite between the passes.
# (a copy beside it, which finds gen.py next to itself)
script=examples/attention/.build_one_barrier.sh
trap 'rm -f "$script"' EXIT
sed 's#^  "\$opt" "\$out/\$name.mlir" "\${mode\[@\]}" --acopy-lower#  "$opt" "$out/$name.mlir" "${mode[@]}" --acopy-pipeline -o "$out/$name.p.mlir" 2>/dev/null; python3 '"$root/$here"'/one_barrier.py "$out/$name.p.mlir" "$out/$name.q.mlir"; "$opt" "$out/$name.q.mlir" "${mode[@]}" --acopy-lower#' examples/attention/build.sh > "$script"
grep -q one_barrier "$script" || { echo "one_barrier_build: examples/attention/build.sh changed; update the rewrite" >&2; exit 1; }
for stages in 2 3; do
  dir=.device/perf/attn_sm_80_sw_1bar
  if [[ $stages == 3 ]]; then dir=.device/perf/attn_sm_80_sw_s3_1bar; fi
  rm -rf "$dir"
  bash "$script" "$dir" "$stages" sm_80 bf16 128 64 mma mma > /dev/null
  rm -f "$dir"/*.mlir
done
