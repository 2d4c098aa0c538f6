#!/usr/bin/env bash
# Nsight Compute profiles of the small-tile pipelined reduction next to upstream's
# hand-written cp.async twin (issue 28's open gap: acopy's cp.async loop at 0.84-0.94 of
# the twin up to 8 KiB per stage), on the GPU machine, after
# `REDUCE_ROWS=16 AXPY_ROWS=8 ACOPY_OPT=... bash bench/pipeline_tiles_prepare.sh` here
# (the run tool carries .device/tiles):
#   OUT=/some/dir bash .device/tiles/pipeline_profile.sh
# Profiles, one launch each after two warm-up launches, clocks left alone: acopy's
# pipe_bw_reduce at 16 rows (8 KiB per stage), S = 2, 3 and 4, cp.async and TMA, one block
# of 128 threads per SM; and the twin up_reduce_s<S>_g132 (the same tile, S, grid and
# block). Writes $OUT/profile.txt (the metrics of every kernel, one block per kernel).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
: "${OUT:?}"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
report="$OUT/profile.txt"
: > "$report"
profile() { # title, kernel name regex, then the command to profile
  local title=$1 kernel=$2; shift 2
  echo "==== $title" >> "$report"
  timeout 100 ncu --clock-control none -k "regex:$kernel" --launch-skip 2 --launch-count 1 --metrics "$metrics" "$@" >> "$report" 2>&1
  echo "rc $?" >> "$report"
}
for s in 2 3 4; do
  for path in cp_async tma; do
    module="pipe_bw_reduce_r16_s${s}_${path}"
    [[ -f ptx/$module.ptx ]] || { echo "==== $module: not built" >> "$report"; continue; }
    profile "acopy $module" pipe_bw ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --bw-kernels reduce \
      --reduce-rows 16 --only-module "$module" --only-blocks-per-sm 1 --only-threads 128 --results-json "$OUT/ignored.json"
  done
  twin="up_reduce_s${s}_g132"
  mkdir -p "one-$s"
  cp "up/$twin.ptx" "one-$s/" 2>/dev/null || { echo "==== $twin: not built" >> "$report"; continue; }
  profile "upstream $twin" up_reduce python3 up_run.py "one-$s" --rows 16
done
rm -f "$OUT/ignored.json"
grep -E "^====|rc |gpu__time|dram__|inst_executed.sum|issue_active|warps_active|stalled_(barrier|long|short|wait|lg|mio|membar|no_inst|branch|not_sel|selected)|bank_conf|==PROF==|Error" "$report" | head -400
