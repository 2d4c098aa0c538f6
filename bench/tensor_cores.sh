#!/usr/bin/env bash
# On the GPU machine, from the repository root, after bench/tensor_cores_prepare.sh here:
# the GPU suite (every case, its own process each), the warp-specialized pipelined matrix,
# the GEMM modules (exactness and TFLOP/s through acopy-runtime, no Python package), and
# cuBLAS and Triton at the GEMM's timed shapes in the same run. Everything goes into
# $OUT/tensor-cores.tgz (the device tool brings back at most 8 files), with env.txt and
# summary.txt beside it. Arguments choose the parts (default: all of them), so that one
# device call of at most 10 minutes can run some and a second call the rest:
#   bash .device/tc/tensor_cores.sh pipeline gemm        bash .device/tc/tensor_cores.sh attention suite
# Whatever finished is packed even if the call is stopped (TERM) part-way.
set -uo pipefail
dev="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?}"
w="$(mktemp -d)/tensor-cores"
mkdir -p "$w"
parts="${*:-pipeline gemm attention suite}"
wants() { [[ " $parts " == *" $1 "* ]]; }
pack() {
  { tail -3 "$w/suite.log"; grep -E "exact" "$w/pipeline.log" | tail -60; cat "$w/gemm.log" "$w/attention.log"; } > "$w/summary.txt" 2>&1
  tar czf "$OUT/tensor-cores.tgz" -C "$(dirname "$w")" tensor-cores
  cp "$w/env.txt" "$w/summary.txt" "$OUT/"
}
trap 'pack; exit 143' TERM
# A step runs in the background so that a TERM interrupts `wait` and packs at once.
step() { "$@" & wait $!; }
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'; } > "$w/env.txt" 2>&1
wants pipeline && { step timeout 150 "$dev/bin/acopy-gpu-pipeline" --ptx-dir "$dev/pipeline" --kernels ws_copy,ws_slow,ws_reduce,ws_axpy,ws_outer,copy,slow,outer \
  --results-json "$w/pipeline-ws.json" > "$w/pipeline.log" 2>&1; echo "pipeline rc $?" >> "$w/env.txt"; }
wants gemm && for dir in "$dev"/gemm_*; do
  name=$(basename "$dir")
  step timeout 100 "$dev/bin/acopy-gpu-gemm" "$dir" --time --json "$w/$name.json" >> "$w/gemm.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
done
wants gemm && for chip in sm_90a sm_80; do
  step timeout 90 python3 "$dev/bench_gemm.py" --baselines --chip "$chip" --json "$w/baselines-$chip.json" >> "$w/gemm.log" 2>&1; echo "baselines $chip rc $?" >> "$w/env.txt"
done
wants attention && for dir in "$dev"/attn_*; do
  name=$(basename "$dir")
  step timeout 120 "$dev/bin/acopy-gpu-attention" "$dir" --time --json "$w/$name.json" >> "$w/attention.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
done
wants attention && { step timeout 90 python3 "$dev/bench_attention.py" --baselines --json "$w/sdpa.json" >> "$w/attention.log" 2>&1; echo "sdpa rc $?" >> "$w/env.txt"; }
wants suite && { step timeout 240 "$dev/bin/acopy-gpu-suite" --ptx-dir "$dev/suite" --no-bandwidth --results-json "$w/suite.json" > "$w/suite.log" 2>&1; echo "suite rc $?" >> "$w/env.txt"; }
pack
cat "$OUT/env.txt"
