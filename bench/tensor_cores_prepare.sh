#!/usr/bin/env bash
# Builds, here, everything the tensor-core and warp-specialization proof needs on the GPU
# machine, into .device/tc/ (git-ignored), for one device call of bench/tensor_cores.sh:
#   - the GPU suite's PTX (tests/gpu/build-ptx.sh; its wgmma_kloop_* and wgmma_kloop_ws_*
#     cases: K loops of wgmma with and without a producer warp),
#   - the pipelined matrix's warp-specialized kernels ws_copy, ws_slow, ws_reduce, ws_axpy
#     and their block-schedule models copy and slow (tests/gpu/pipeline/build.sh),
#   - the GEMM of examples/gemm/ for sm_90a (bf16, TMA + wgmma) and sm_80 (f16, cp.async
#     + ldmatrix + mma.sync; the H200 runs sm_80 PTX too), each with the block schedule
#     and with a producer warp (examples/gemm/build.sh, S = 4), and sm_80 with swizzled
#     tiles read through acopy.swizzled_index (S = 3), and the register-only mma.sync
#     peak (bench/mma_peak.py) the sm_80 path is measured against,
#   - the attention kernels of examples/attention/ in bf16 for sm_80 and sm_90 and in f16
#     for sm_80 (S = 2),
#   - the release binaries acopy-gpu-suite, acopy-gpu-pipeline, acopy-gpu-gemm and
#     acopy-gpu-attention, bench/bench_gemm.py (cuBLAS and Triton baselines) and
#     bench/bench_attention.py (torch SDPA flash and cuDNN baselines).
# Usage: bash bench/tensor_cores_prepare.sh     (acopy-opt: $ACOPY_OPT or target/debug)
# Then carry .device/tc and run `bash .device/tc/tensor_cores.sh` on the GPU machine from
# the repository root; its $OUT holds suite.json, pipeline-ws.json, gemm-*.json,
# baselines-*.json, attn_*.json, sdpa.json and the logs (in tensor-cores.tgz). Here:
# python3 bench/bench_gemm.py --merge gemm_*.json --with baselines-*.json
# --json bench/results/gemm-h200.json, and bench/bench_attention.py --merge
# attn_*.json --with sdpa.json --json bench/results/attention-h200.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export ACOPY_OPT="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
dev="$root/.device/tc"
rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/suite" "$dev/pipeline"
cargo build --quiet --release -p acopy-runtime --bins
cp target/release/acopy-gpu-suite target/release/acopy-gpu-pipeline target/release/acopy-gpu-gemm \
  target/release/acopy-gpu-attention "$dev/bin/"
bash tests/gpu/build-ptx.sh > /dev/null
cp tests/gpu/ptx/* "$dev/suite/"
bash tests/gpu/pipeline/build.sh > /dev/null || true
for kernel in ws_copy ws_slow ws_reduce ws_axpy ws_outer copy slow outer; do
  cp tests/gpu/pipeline/ptx/pipe_"${kernel}"_s*_* "$dev/pipeline/"
done
for chip in sm_90a sm_80; do
  for producer in block warp; do
    bash examples/gemm/build.sh "$dev/gemm_${chip}_${producer}" 4 "$producer" "$chip" > /dev/null
    rm -f "$dev/gemm_${chip}_${producer}"/*.mlir
  done
done
# sm_80 with swizzled tiles read through acopy.swizzled_index (S = 3: swizzled cp.async
# slots stay in static shared memory).
bash examples/gemm/build.sh "$dev/gemm_sm_80_swizzled" 3 block sm_80 64 > /dev/null
rm -f "$dev/gemm_sm_80_swizzled"/*.mlir
# sm_80 in bf16 (nvvm.mma.sync on the fragments' registers).
bash examples/gemm/build.sh "$dev/gemm_sm_80_bf16" 4 block sm_80 0 bf16 > /dev/null
rm -f "$dev/gemm_sm_80_bf16"/*.mlir
# The register-only mma.sync peak the sm_80 path is measured against, per dtype.
for dtype in f16 bf16; do
  dir="$dev/gemm_sm_80_block"; [[ $dtype == bf16 ]] && dir="$dev/gemm_sm_80_bf16"
  python3 bench/mma_peak.py 4096 --dtype="$dtype" | "$ACOPY_OPT" --acopy-lower --emit=ptx -o "$dir/mma_peak_${dtype}_4096.ptx"
done
for chip in sm_80 sm_90; do
  bash examples/attention/build.sh "$dev/attn_$chip" 2 "$chip" bf16 > /dev/null
  rm -f "$dev/attn_$chip"/*.mlir
done
bash examples/attention/build.sh "$dev/attn_sm_80_f16" 2 sm_80 f16 > /dev/null
rm -f "$dev/attn_sm_80_f16"/*.mlir
cp bench/bench_gemm.py bench/bench_attention.py bench/tensor_cores.sh "$dev/"
du -sh "$dev"
