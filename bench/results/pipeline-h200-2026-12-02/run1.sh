#!/usr/bin/env bash
# Device run 1 of the pipebench helper: matrix + bandwidth, per-case process cost, anchors, profile.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/smi.txt 2>&1
s=$(date +%s)
timeout 300 ./acopy-gpu-pipeline --ptx-dir ptx --bandwidth --results-json $OUT/acopy.json > $OUT/acopy.log 2>&1; echo "rc=$? $(( $(date +%s)-s ))s" >> $OUT/times.txt
s=$(date +%s)
timeout 30 ./acopy-gpu-pipeline --ptx-dir ptx --kernels copy --process-per-case --results-json $OUT/per-case.json > $OUT/per-case.log 2>&1; echo "per-case rc=$? $(( $(date +%s)-s ))s" >> $OUT/times.txt
s=$(date +%s)
timeout 120 python3 pipeline_anchors.py > $OUT/anchors.json 2> $OUT/anchors.err; echo "anchors rc=$? $(( $(date +%s)-s ))s" >> $OUT/times.txt
s=$(date +%s)
timeout 90 python3 pipeline_anchors_pallas.py 132 > $OUT/pallas.json 2> $OUT/pallas.err; echo "pallas rc=$? $(( $(date +%s)-s ))s" >> $OUT/times.txt
tail -c 3000 $OUT/pallas.err
cat $OUT/times.txt; tail -5 $OUT/acopy.log; grep -c '"exact": true' $OUT/acopy.json
