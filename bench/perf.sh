#!/usr/bin/env bash
# On the GPU machine, from the repository root, after bench/attention_variants_prepare.sh
# (and bench/gemm_variants_prepare.sh) here: every attention and GEMM build under
# .device/perf (exactness, then TFLOP/s through acopy-runtime), the SDPA anchors, and an
# Nsight Compute profile (clocks left alone) of the timed D = 128 attention kernel of the
# first two attention builds and of the timed 8192^3 GEMM of the gemm builds, for
# shared-memory bank conflicts, tensor-pipe use and stalls. Everything goes into
# $OUT/perf.tgz, with summary.txt beside it. Arguments choose the parts (default: all):
# attention gemm (with cuBLAS and Triton) suite (the GPU suite in .device/perf/suite)
# ncu-attention ncu-gemm (NCU_GEMM names the gemm builds to profile; BASELINE_CHIPS the
# chips whose cuBLAS and Triton baselines run).
set -uo pipefail
dev="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?}"
w="$(mktemp -d)/perf"
mkdir -p "$w"
parts="${*:-attention gemm suite ncu-attention ncu-gemm}"
wants() { [[ " $parts " == *" $1 "* ]]; }
# BUILDS (names of .device/perf/attn_* and gemm_* directories) limits the builds that run.
chosen() { [[ -z ${BUILDS:-} || " $BUILDS " == *" $(basename "$1") "* ]]; }
pack() {
  { cat "$w/env.txt"; cat "$w/attention.log" "$w/gemm.log" 2>/dev/null | grep -v '"ok":true'; for f in "$w"/ncu-*.txt; do echo "== $f"; grep -E "__|Error|error" "$f"; done 2>/dev/null | head -300; } > "$w/summary.txt" 2>&1
  tar czf "$OUT/perf.tgz" -C "$(dirname "$w")" perf
  cp "$w/summary.txt" "$OUT/"
}
trap 'pack; exit 143' TERM
step() { "$@" & wait $!; }
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; git rev-parse --short HEAD 2>/dev/null; } > "$w/env.txt" 2>&1
if wants attention; then
  for dir in "$dev"/attn_*; do
    chosen "$dir" || continue
    name=$(basename "$dir")
    step timeout 150 "$dev/bin/acopy-gpu-attention" "$dir" --time --json "$w/$name.json" > "$w/$name.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
    { echo "== $name"; cat "$w/$name.log"; } >> "$w/attention.log"
  done
  step timeout 90 python3 "$dev/bench_attention.py" --baselines --json "$w/sdpa.json" >> "$w/attention.log" 2>&1; echo "sdpa rc $?" >> "$w/env.txt"
fi
if wants gemm; then
  for dir in "$dev"/gemm_*; do
    [[ -d $dir ]] && chosen "$dir" || continue
    name=$(basename "$dir")
    step timeout 120 "$dev/bin/acopy-gpu-gemm" "$dir" --time --json "$w/$name.json" > "$w/$name.log" 2>&1; echo "$name rc $?" >> "$w/env.txt"
    { echo "== $name"; cat "$w/$name.log"; } >> "$w/gemm.log"
  done
  for chip in ${BASELINE_CHIPS:-sm_90a sm_80}; do
    step timeout 200 python3 "$dev/bench_gemm.py" --baselines --chip "$chip" --json "$w/baselines-$chip.json" >> "$w/gemm.log" 2>&1; echo "baselines $chip rc $?" >> "$w/env.txt"
  done
fi
if wants suite; then
  step timeout 200 "$dev/bin/acopy-gpu-suite" --ptx-dir "$dev/suite" --no-bandwidth --results-json "$w/suite.json" > "$w/suite.log" 2>&1; echo "suite rc $?" >> "$w/env.txt"
  { grep -v " exact$" "$w/suite.log" | tail -15; } >> "$w/env.txt"
fi
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
if wants ncu-attention; then
  for name in attn_sm_90_plain attn_sm_90_sw attn_sm_90_wgmma attn_sm_80_sw; do
    [[ -d $dev/$name ]] || continue
    step timeout 120 ncu --clock-control none --launch-count 1 --metrics "$metrics" "$dev/bin/acopy-gpu-attention" --child "$dev/$name" attn_bf16_32x4096x128 --time > "$w/ncu-$name.txt" 2>&1
  done
fi
if wants ncu-gemm; then
  for name in ${NCU_GEMM:-gemm_sm_90a_t256 gemm_sm_80_w64_t128}; do
    dir="$dev/$name"; [[ -d $dir ]] || continue
    kernel=$(ls "$dir" | grep -m1 -E "8192x8192x8192.ptx" | sed 's/.ptx//')
    [[ -n $kernel ]] || continue
    step timeout 120 ncu --clock-control none --launch-count 1 --metrics "$metrics" "$dev/bin/acopy-gpu-gemm" --child "$dir" "$kernel" --time > "$w/ncu-$name.txt" 2>&1
  done
fi
pack
cat "$OUT/summary.txt" | head -100
