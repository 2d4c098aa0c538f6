#!/usr/bin/env bash
# Builds, here, the faster GEMM variants of examples/gemm/ (gen.py's --tile, --raster,
# --persistent, --vstore, --bk, --warp) into .device/perf/gemm_<chip>_<variant>/
# (git-ignored), each with every checked and timed shape of bench_gemm.py, for one
# device call; prints ptxas's registers and shared memory per build.
#   sm_90a (bf16, TMA + wgmma):
#     t256         128 x 256 block tile, two warpgroups of wgmma m64n256k16, S = 4
#                  (192 KiB), L2-grouped tile order, st.global.v2 epilogue
#     t256_ws      the same with a producer warp (288 threads)
#     t256_ws_p132 and with a persistent loop over the tiles (132 blocks, one per H200 SM):
#                  the next tile's loads overlap the epilogue; the other blocks of the
#                  launchers' 128 x 128 grid run no tile
#     *_ob16       the same with a bf16 out (gen.py --out=bf16: the f32 sums rounded to
#                  nearest even, half the epilogue's bytes), as cuBLAS's bf16 matmul writes
#     t128_s3      the 128 x 128 kernel at S = 3 (96 KiB): two blocks per SM, one's
#                  epilogue under the other's wgmma; grouped order, st.global.v2
#     t128_ws_p264 the same with a producer warp, persistent over 264 blocks (two per SM)
#     c2           128 x 128, S = 4, A multicast over 2 x 1 x 1 clusters (--cluster=2)
#     bn           B stored K x N, read MN-major by wgmma (--b-major=n; checked shapes)
#   sm_80 (f16, cp.async + ldmatrix + mma.sync; runs on the H200 too):
#     w64_t128     128 x 128 block, 4 warps of 64 x 64, BK = 64 swizzle = 128, S = 3
#                  (96 KiB: two blocks per SM), st.global.v2; holds the mma.sync peak
#     w64_t256     128 x 256 block, 8 warps of 64 x 64, BK = 64 swizzle = 128, S = 3
#                  (144 KiB), L2-grouped tile order
#     w64_t128_bk32 128 x 128, 4 warps of 64 x 64, BK = 32 swizzle = 64, S = 4 (64 KiB)
#   t256_ws_p3_check  exactness only (no timed shape): t256_ws_p132 with 3 blocks looping
#                  over the tiles, so that the check shapes take the persistent loop's
#                  second and later tiles (at 132 blocks each check shape has at most 1)
# Usage: bash bench/gemm_variants_prepare.sh     (acopy-opt: $ACOPY_OPT or target/debug)
# On the GPU machine, from the repository root (.device/perf carried):
#   for d in .device/perf/gemm_*; do .device/perf/bin/acopy-gpu-gemm "$d" --time --json "$OUT/$(basename "$d").json"; done
# and bench_gemm.py --baselines for cuBLAS; here bench_gemm.py --merge adds the ratios.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export ACOPY_OPT="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
dev="$root/.device/perf"
mkdir -p "$dev/bin"
cargo build --quiet --release -p acopy-runtime --bin acopy-gpu-gemm
cp target/release/acopy-gpu-gemm "$dev/bin/"
cp bench/bench_gemm.py "$dev/"
# name stages producer chip swizzle options
variants=(
  "t256 4 block sm_90a 0 --tile=128x256 --raster=16 --vstore=1"
  "t256_ws 4 warp sm_90a 0 --tile=128x256 --raster=16 --vstore=1"
  "t256_ws_p132 4 warp sm_90a 0 --tile=128x256 --raster=16 --vstore=1 --persistent=132"
  "t256_ws_p3_check 4 warp sm_90a 0 --tile=128x256 --raster=16 --vstore=1 --persistent=3"
  "t256_ws_p132_ob16 4 warp sm_90a 0 --tile=128x256 --raster=16 --vstore=1 --persistent=132 --out=bf16"
  "t128_ws_p264_ob16 3 warp sm_90a 0 --raster=16 --vstore=1 --persistent=264 --out=bf16"
  "t128_s3 3 block sm_90a 0 --raster=16 --vstore=1"
  "t128_ws_p264 3 warp sm_90a 0 --raster=16 --vstore=1 --persistent=264"
  "c2 4 block sm_90a 0 --cluster=2"
  "bn 4 block sm_90a 0 --b-major=n"
  "w64_t128 3 block sm_80 128 --tile=128x128 --bk=64 --warp=64x64 --vstore=1"
  "w64_t256 3 block sm_80 128 --tile=128x256 --bk=64 --warp=64x64 --raster=16 --vstore=1"
  "w64_t128_bk32 4 block sm_80 64 --tile=128x128 --bk=32 --warp=64x64 --vstore=1"
)
for variant in "${variants[@]}"; do
  read -r name stages producer chip swizzle options <<< "$variant"
  dir="$dev/gemm_${chip}_${name}"
  rm -rf "$dir"
  nice -n 10 bash examples/gemm/build.sh "$dir" "$stages" "$producer" "$chip" "$swizzle" "" "$options" > /dev/null
  rm -f "$dir"/*.mlir
  if [[ $name == *_check ]]; then
    for shape in $(python3 -c "import sys; sys.path.insert(0, 'bench'); import bench_gemm as b; print(' '.join(f'{m}x{n}x{k}' for m, n, k in b.TIME_SHAPES))"); do
      rm -f "$dir"/gemm_*_"$shape".*
    done
  fi
  echo "gemm_${chip}_${name}: $(grep -o 'Used [0-9]* registers' "$dir/ptxas-v.log" | awk '{print $2}' | sort -nu | paste -sd/) registers," \
    "$(grep -o '[0-9]* bytes spill stores' "$dir/ptxas-v.log" | awk '{print $1}' | sort -nu | paste -sd/) bytes spilled," \
    "$(grep -o '[0-9]* bytes of shared memory' "$dir/remarks.log" | awk '{print $1}' | sort -nu | paste -sd/) bytes of shared memory (per shape: ptxas-v.log, remarks.log)"
done
# The register-only mma.sync peak the sm_80 variants are measured against.
python3 bench/mma_peak.py 4096 --dtype=f16 | "$ACOPY_OPT" --acopy-lower --emit=ptx -o "$dev/gemm_sm_80_w64_t128/mma_peak_f16_4096.ptx"
du -sh "$dev"/gemm_* "$dev/bin"
