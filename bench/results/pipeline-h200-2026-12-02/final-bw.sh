#!/usr/bin/env bash
# One bandwidth module per process: the TMA path at 32 KiB per stage, then cp.async.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
for m in pipe_bw_reduce_r64_s1_tma pipe_bw_reduce_r64_s2_tma pipe_bw_reduce_r64_s3_tma pipe_bw_reduce_r64_s4_tma \
         pipe_bw_axpy_r32_s1_tma pipe_bw_axpy_r32_s2_tma pipe_bw_axpy_r32_s3_tma pipe_bw_axpy_r32_s4_tma \
         pipe_bw_axpy_r32_s1_cp_async pipe_bw_axpy_r32_s3_cp_async pipe_bw_reduce_r64_s3_cp_async pipe_bw_reduce_r64_s4_cp_async; do
  s=$(date +%s)
  timeout 25 ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --reduce-rows 64 --axpy-rows 32 --only-module $m --results-json /tmp/one.json 2>&1 | grep -v "^gpu-pipeline\|^acopy-gpu-pipeline" >> $OUT/bw.log
  echo "$m $(( $(date +%s)-s ))s" >> $OUT/bw.log
done
tail -c 3000 $OUT/bw.log
