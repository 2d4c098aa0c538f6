#!/usr/bin/env bash
# Writes what acopy-opt prints for a fixed corpus into OUT_DIR, so that two
# builds can be compared byte for byte (a refactor must not change the output):
#
#   scripts/output-snapshot.sh OUT_DIR [ACOPY_OPT]
#   diff -r BEFORE_DIR AFTER_DIR            # empty when nothing changed
#
# scripts/compare-outputs.sh does both for a git revision and the working tree.
# CORPUS_ROOT=DIR takes the corpus (and bench/compile_speed.py) from another
# checkout, so that two builds can be run over the same files.
#
# The corpus: every .mlir under tests/ (lit cases, their Inputs/ and the GPU
# suite's kernels), examples/*.mlir, and the bench inputs that
# bench/compile_speed.py generates (4 modules x 25 copies, cp.async and TMA,
# static and dynamic starts). Each file is run through `--acopy-lower` to MLIR,
# LLVM IR and PTX, with each gpu.module's own chip and again with --chip=sm_80 and
# --chip=sm_90 (files with `// -----` are run with --split-input-file); GPU
# kernels named fb_* also get --acopy-fallback, as tests/gpu/build-ptx.sh does.
# For every run the snapshot holds standard output, standard error, the exit
# status and, for TMA, the tensor-map manifest. Diagnostics are compared too.
#
# ACOPY_OPT defaults to target/release/acopy-opt, built if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/output-snapshot.sh OUT_DIR [ACOPY_OPT]" >&2
  exit 2
fi
out=$1
opt=${2:-}
if [[ -z "$opt" ]]; then
  cargo build --release -q -p acopy-opt
  opt=target/release/acopy-opt
fi
opt=$(realpath "$opt")
mkdir -p "$out"
out=$(realpath "$out")
cd "${CORPUS_ROOT:-.}"

inputs=$(mktemp -d)
trap 'rm -rf "$inputs"' EXIT
for path in cpasync tma; do
  for start in static dynamic; do
    python3 bench/compile_speed.py --emit acopy --path "$path" --start "$start" -n 100 \
      --per-kernel 25 > "$inputs/bench-$path-$start.mlir"
  done
done

files=()
while IFS= read -r file; do files+=("$file"); done < <(
  { git ls-files 'tests/*.mlir' 'examples/*.mlir'; } | sort)
for file in "$inputs"/*.mlir; do files+=("$file"); done

runs=0
for file in "${files[@]}"; do
  case "$file" in
    "$inputs"/*) name="bench/$(basename "$file")" ;;
    *) name="$file" ;;
  esac
  common=(--acopy-lower)
  if grep -q '^// -----' "$file"; then common+=(--split-input-file); fi
  if [[ "$(basename "$file")" == fb_* ]]; then common+=(--acopy-fallback); fi
  for chip in own sm_80 sm_90; do
    chip_args=()
    if [[ $chip != own ]]; then chip_args=(--chip="$chip"); fi
    for emit in mlir llvm ptx; do
      stem="$out/$name.$chip.$emit"
      mkdir -p "$(dirname "$stem")"
      set +e
      # Relative paths, so that locations in diagnostics do not depend on where
      # the tree is checked out.
      "$opt" "$file" "${common[@]}" "${chip_args[@]}" --emit="$emit" \
        --tma-manifest="$stem.manifest.json" >"$stem.out" 2>"$stem.err"
      echo $? >"$stem.rc"
      set -e
      # Bench inputs live in a temporary folder: their paths are not compared.
      sed -i "s|$inputs/|bench/|g" "$stem.err"
      runs=$((runs + 1))
    done
  done
done
echo "output-snapshot: ${#files[@]} files, $runs runs, in $out"
