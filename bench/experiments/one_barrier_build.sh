#!/usr/bin/env bash
# Builds the one-barrier experiment (bench/experiments/one_barrier.py) into .device/perf/:
# gemm_sm_80_w64_t128_1bar (the sm_80 GEMM of bench/gemm_variants_prepare.sh's w64_t128)
# and attn_sm_80_sw_1bar / attn_sm_80_sw_s3_1bar (examples/attention at S = 2 and 3,
# swizzled), with the examples' own build scripts, whose acopy-opt is
# one_barrier_opt.sh (pipeline, rewrite, lower). On the GPU machine:
# BUILDS='... _1bar builds and their baselines' bash .device/perf/perf.sh attention gemm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
real="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
build() { ONE_BARRIER_REAL_OPT="$real" ACOPY_OPT="$root/bench/experiments/one_barrier_opt.sh" bash "$@" > /dev/null; }
dir=.device/perf/gemm_sm_80_w64_t128_1bar
rm -rf "$dir"
build examples/gemm/build.sh "$dir" 3 block sm_80 128 "" "--tile=128x128 --bk=64 --warp=64x64 --vstore=1"
# The register-only mma.sync peak the GEMM is measured against.
python3 bench/mma_peak.py 4096 --dtype=f16 | "$real" --acopy-lower --emit=ptx -o "$dir/mma_peak_f16_4096.ptx"
for stages in 2 3; do
  dir=.device/perf/attn_sm_80_sw_1bar
  if [[ $stages == 3 ]]; then dir=.device/perf/attn_sm_80_sw_s3_1bar; fi
  rm -rf "$dir"
  build examples/attention/build.sh "$dir" "$stages" sm_80 bf16 128 64 mma mma
done
rm -f .device/perf/*_1bar/*.mlir
