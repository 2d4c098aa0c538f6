#!/usr/bin/env bash
# Builds, here, the attention variants whose speed one device call measures, into
# .device/perf/ (git-ignored): examples/attention/gen.py with swizzled tiles (--swizzle=128,
# every ldmatrix through acopy.swizzled_index) and 64 or 128 query rows per block (4 or 8
# warps), on both paths, S = Q Kᵀ by wgmma on sm_90 (--qk=wgmma) and P V too (--pv=wgmma),
# plus the unswizzled build
# as the baseline of the same call; and the
# release runner acopy-gpu-attention with bench/bench_attention.py (the SDPA
# anchors). On the GPU machine, carrying .device/perf: `bash .device/perf/perf.sh`.
# Usage: bash bench/attention_variants_prepare.sh        (acopy-opt: $ACOPY_OPT or target/debug)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dev="$root/.device/perf"
mkdir -p "$dev/bin"
rm -rf "$dev"/attn_*
cargo build --quiet --release -p acopy-runtime --bin acopy-gpu-attention --bin acopy-gpu-gemm
cp target/release/acopy-gpu-attention target/release/acopy-gpu-gemm "$dev/bin/"
# name  stages chip swizzle rows qk pv
while read -r name stages chip swizzle rows qk pv; do
  bash examples/attention/build.sh "$dev/attn_$name" "$stages" "$chip" bf16 "$swizzle" "$rows" "$qk" "$pv" > /dev/null
  rm -f "$dev/attn_$name"/*.mlir
  printf '%-22s' "$name"; grep -A3 "32x4096x128$" "$dev/attn_$name/ptxas-v.log" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' '; echo
done <<'LIST'
sm_90_plain 2 sm_90 0 64 mma mma
sm_90_sw 2 sm_90 128 64 mma mma
sm_90_sw_r128 2 sm_90 128 128 mma mma
sm_90_wgmma 2 sm_90 128 64 wgmma mma
sm_90_wgmma_s3 3 sm_90 128 64 wgmma mma
sm_90_wgmma_pv 2 sm_90 128 64 wgmma wgmma
sm_90_wgmma_pv_s3 3 sm_90 128 64 wgmma wgmma
sm_80_sw 2 sm_80 128 64 mma mma
sm_80_sw_r128 2 sm_80 128 128 mma mma
LIST
cp bench/bench_attention.py bench/perf.sh "$dev/"
du -sh "$dev"
