#!/usr/bin/env bash
# Builds, here, everything the tile-size benchmark needs on the GPU machine, and puts it in
# .device/tiles/ (git-ignored) for bench/pipeline_tiles.sh:
#   - acopy's bandwidth kernels pipe_bw_reduce (tile rows REDUCE_ROWS, default 4,8,16,32,64:
#     2..32 KiB per stage) and pipe_bw_axpy (two tiles of AXPY_ROWS, default 2,4,8,16,32:
#     2..32 KiB per stage), S = 1..4, sm_80 (cp.async) and sm_90 (TMA) PTX with manifests,
#     by tests/gpu/pipeline/build.sh with $ACOPY_OPT (whatever acopy-opt it is given);
#     modules acopy-opt refuses are listed in ptx/refused.log and become skipped rows;
#   - upstream MLIR's hand-written cp.async twin of the reduction at REDUCE_ROWS
#     (bench/upstream_pipeline/build.sh, $MLIR_OPT);
#   - the release acopy-gpu-pipeline binary (cargo build --release -p acopy-runtime);
#   - the Python anchors (bench/pipeline_anchors.py, pipeline_anchors_pallas.py,
#     upstream_pipeline/run.py) and the driver bench/pipeline_tiles.sh, with config.sh
#     holding the tile rows.
# Kept here, in .device/tiles-build/ (not sent): the .mlir, ptxas -v logs (registers,
# spills) of both builds, and census.md/census.json (bench/ptx_loop_census.py on the
# reduction and the axpy at 8 KiB per stage, S = 1..4, both paths, next to the twin),
# which bench/pipeline_tiles_merge.py reads.
# KNOWN_BLOCK_SIZE=128: the acopy kernels declare gpu.known_block_size = 128 (gen.py
# --known-block-size: unrolled copies, consumer loops of constant rounds, like the twin's
# hand-unrolled 128-thread body) and run at 128 threads only.
# Usage: ACOPY_OPT=/path/to/acopy-opt bash bench/pipeline_tiles_prepare.sh
# Then, on the GPU machine, from the repository root (the run tool carries .device/tiles):
#   bash .device/tiles/pipeline_tiles.sh        (writes into $OUT)
# and here: python3 bench/pipeline_tiles_merge.py --device-out DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dev="${TILES_DIR:-$root/.device/tiles}"
build="${TILES_BUILD:-$root/.device/tiles-build}"
reduce_rows="${REDUCE_ROWS:-4,8,16,32,64}"
axpy_rows="${AXPY_ROWS:-2,4,8,16,32}"
: "${ACOPY_OPT:?set ACOPY_OPT to the acopy-opt binary to build the PTX with}"
[[ -x $ACOPY_OPT ]] || { echo "prepare: ACOPY_OPT=$ACOPY_OPT is not an executable" >&2; exit 2; }
rm -rf "$dev" "$build"
mkdir -p "$dev/ptx" "$dev/up" "$build"

echo "== acopy kernels ($ACOPY_OPT)"
status=0
known=()
[[ -n ${KNOWN_BLOCK_SIZE:-} ]] && known=(--known-block-size "$KNOWN_BLOCK_SIZE")
bash tests/gpu/pipeline/build.sh --out "$build/acopy" --bandwidth-only --bandwidth-kernels reduce,axpy \
  --reduce-rows "$reduce_rows" --axpy-rows "$axpy_rows" "${known[@]}" > "$build/acopy-build.log" 2>&1 || status=$?
tail -n 5 "$build/acopy-build.log"
# A refused module is a skipped row on the device; a ptxas error or a build that refused
# nothing but still failed is a broken build.
if (( status != 0 )) && { [[ ! -s $build/acopy/ptx/refused.log ]] || grep -qi 'error' "$build/acopy/ptx/ptxas-v.log"; }; then
  echo "prepare: the acopy build failed (see $build/acopy-build.log)" >&2; exit 1
fi
cp "$build"/acopy/ptx/*.ptx "$build"/acopy/ptx/*.manifest.json "$build/acopy/ptx/refused.log" "$dev/ptx/"

echo "== upstream twin (${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt})"
bash bench/upstream_pipeline/build.sh --rows "$reduce_rows" --out "$build/upstream" > "$build/upstream-build.log" 2>&1 \
  || { echo "prepare: the upstream build failed (see $build/upstream-build.log)" >&2; exit 1; }
grep -c '^up_.*: accepted' "$build/upstream/ptx/results.txt" | sed 's/^/upstream twins accepted: /'
cp "$build"/upstream/ptx/up_*.ptx "$build/upstream/ptx/results.txt" "$dev/up/"

echo "== acopy-gpu-pipeline (release)"
cargo build --release -q -p acopy-runtime --bin acopy-gpu-pipeline
target="${CARGO_TARGET_DIR:-$root/target}"
cp "$target/release/acopy-gpu-pipeline" "$dev/"

echo "== scripts"
cp bench/pipeline_tiles.sh bench/pipeline_anchors.py bench/pipeline_anchors_pallas.py "$dev/"
cp bench/upstream_pipeline/run.py "$dev/up_run.py"
printf 'REDUCE_ROWS=%s\nAXPY_ROWS=%s\n' "$reduce_rows" "$axpy_rows" > "$dev/config.sh"
# Kernels built for one block size run at that size only.
[[ -n ${KNOWN_BLOCK_SIZE:-} ]] && printf 'THREADS=%s\n' "$KNOWN_BLOCK_SIZE" >> "$dev/config.sh"

echo "== PTX census (8 KiB per stage)"
census=()
for kernel in reduce axpy; do
  rows=16; [[ $kernel == axpy ]] && rows=8
  for path in cp_async tma; do
    for s in 1 2 3 4; do census+=("$build/acopy/ptx/pipe_bw_${kernel}_r${rows}_s${s}_${path}.ptx"); done
  done
done
for s in 1 2 3 4; do census+=("$build/upstream/ptx/up_reduce_s${s}_g132.ptx"); done
python3 bench/ptx_loop_census.py --title "Steady-state loop, static PTX instructions (acopy-opt: $ACOPY_OPT)" \
  --json "$build/census.json" "${census[@]}" > "$build/census.md" || true
cat "$build/census.md"

echo "== sent to the device: $dev ($(du -sh "$dev" | cut -f1), $(find "$dev" -type f | wc -l) files)"
