#!/usr/bin/env bash
# Final device run of 2026-12-02 on the merged main: 32 KiB-per-stage bandwidth with every anchor, then the matrices.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
t() { local s=$(date +%s); "$@"; echo "$* rc=$? $(( $(date +%s)-s ))s" | cut -c1-200 >> $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/smi.txt 2>&1
t timeout 150 ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --reduce-rows 64 --axpy-rows 32 --results-json $OUT/acopy-bw.json > $OUT/acopy-bw.log 2>&1
t timeout 45 python3 pipeline_anchors.py > $OUT/anchors.json 2> $OUT/anchors.err
t timeout 40 python3 up/run.py up > $OUT/upstream.json 2> $OUT/upstream.err
t timeout 75 python3 pipeline_anchors_pallas.py 132 > $OUT/pallas.json 2> $OUT/pallas.err
t timeout 130 ./acopy-gpu-pipeline --ptx-dir ptx --results-json $OUT/cases.json > $OUT/cases.log 2>&1
t timeout 90 ./acopy-gpu-pipeline --ptx-dir ptx --big --big-json $OUT/big.json > $OUT/big.log 2>&1
cat $OUT/times.txt; grep -E "exact|cases:" $OUT/cases.log | tail -3; tail -3 $OUT/big.log; grep -c '"exact":true' $OUT/acopy-bw.log
