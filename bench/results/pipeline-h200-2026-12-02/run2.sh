#!/usr/bin/env bash
# Device run 2 of the pipebench helper: acopy bandwidth with every anchor in one run, then profiles.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
t() { local s=$(date +%s); "$@"; echo "$3 $4 rc=$? $(( $(date +%s)-s ))s" >> $OUT/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/smi.txt 2>&1
t timeout 120 ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --results-json $OUT/acopy.json > $OUT/acopy.log 2>&1
t timeout 40 python3 pipeline_anchors.py > $OUT/anchors.json 2> $OUT/anchors.err
t timeout 40 python3 up/run.py up > $OUT/upstream.json 2> $OUT/upstream.err
t timeout 75 python3 pipeline_anchors_pallas.py 132 > $OUT/pallas.json 2> $OUT/pallas.err
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> $OUT/times.txt
S="--clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis"
t timeout 40 $NCU $S -k regex:pipe_bw_reduce -c 1 ./acopy-gpu-pipeline --ptx-dir ptx --no-cases --bandwidth --only-module pipe_bw_reduce_r16_s3_tma --only-blocks-per-sm 1 --only-threads 256 --results-json /tmp/one.json > $OUT/ncu-acopy.txt 2>&1
t timeout 40 $NCU $S -k regex:reduce_kernel -c 1 python3 pipeline_anchors.py --profile > $OUT/ncu-triton.txt 2>&1
cat $OUT/times.txt; tail -c 1500 $OUT/pallas.err; tail -c 800 $OUT/upstream.err; grep -E "Throughput|Duration|Stall|Warp Cycles" $OUT/ncu-acopy.txt | head -12
