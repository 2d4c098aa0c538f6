#!/usr/bin/env bash
# The main job: lower the shipped streaming tile-copy examples with acopy-opt,
# for an Ampere (cp.async) and a Hopper (TMA) target, and print NVVM and PTX.
# Installs missing system packages and builds acopy-opt first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo build --quiet -p acopy-opt
OPT=target/debug/acopy-opt

run() { # title, example, chip
  local title=$1 example=$2 chip=$3
  echo "===== $title: $example, chip $chip: NVVM after acopy-lower ====="
  "$OPT" "$example" --chip="$chip" --acopy-lower
  echo "===== $title: $example, chip $chip: PTX ====="
  "$OPT" "$example" --chip="$chip" --acopy-lower --emit=ptx
}

run "Ampere (cp.async)" examples/tile_copy_sm80.mlir sm_80
run "Hopper (TMA)" examples/tile_copy_sm90.mlir sm_90
