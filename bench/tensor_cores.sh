#!/usr/bin/env bash
# On the GPU machine, from the repository root, after bench/tensor_cores_prepare.sh here:
# the GPU suite (every case, its own process each), the warp-specialized pipelined matrix,
# the GEMM modules (exactness and TFLOP/s through acopy-runtime, no Python package), and
# cuBLAS and Triton at the GEMM's timed shapes in the same run. Everything goes into
# $OUT/tensor-cores.tgz (the device tool brings back at most 8 files), with env.txt and
# summary.txt beside it.
set -uo pipefail
dev="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?}"
w="$(mktemp -d)/tensor-cores"
mkdir -p "$w"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'; } > "$w/env.txt" 2>&1
timeout 150 "$dev/bin/acopy-gpu-pipeline" --ptx-dir "$dev/pipeline" --kernels ws_copy,ws_slow,ws_reduce,ws_axpy,ws_outer,copy,slow,outer \
  --results-json "$w/pipeline-ws.json" > "$w/pipeline.log" 2>&1; echo "pipeline rc $?" >> "$w/env.txt"
for dir in "$dev"/gemm_*; do
  name=$(basename "$dir")
  timeout 100 "$dev/bin/acopy-gpu-gemm" "$dir" --time --json "$w/$name.json" >> "$w/gemm.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
done
for chip in sm_90a sm_80; do
  timeout 90 python3 "$dev/bench_gemm.py" --baselines --chip "$chip" --json "$w/baselines-$chip.json" >> "$w/gemm.log" 2>&1; echo "baselines $chip rc $?" >> "$w/env.txt"
done
for dir in "$dev"/attn_*; do
  name=$(basename "$dir")
  timeout 120 "$dev/bin/acopy-gpu-attention" "$dir" --time --json "$w/$name.json" >> "$w/attention.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
done
timeout 90 python3 "$dev/bench_attention.py" --baselines --json "$w/sdpa.json" >> "$w/attention.log" 2>&1; echo "sdpa rc $?" >> "$w/env.txt"
timeout 240 "$dev/bin/acopy-gpu-suite" --ptx-dir "$dev/suite" --no-bandwidth --results-json "$w/suite.json" > "$w/suite.log" 2>&1; echo "suite rc $?" >> "$w/env.txt"
{ tail -3 "$w/suite.log"; grep -E "exact" "$w/pipeline.log" | tail -60; cat "$w/gemm.log" "$w/attention.log"; } > "$w/summary.txt" 2>&1
tar czf "$OUT/tensor-cores.tgz" -C "$(dirname "$w")" tensor-cores
cp "$w/env.txt" "$w/summary.txt" "$OUT/"
cat "$OUT/env.txt"
