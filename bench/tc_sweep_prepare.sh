#!/usr/bin/env bash
# Prepares, here (no GPU), the one device call of the tensor-core sweep (issue 39):
# builds every GEMM build of examples/gemm/choose.py and every attention build at every
# shape of bench/tc_sweep_shapes.py into target/tc-sweep/ (git-ignored; PTX, manifests,
# ptxas cubins and index.json with registers, spills and stages: a few MB), then checks
# all of it on the CPU (bench/tc_sweep.py dry-run: every module's parameters against its
# PTX, the parent's restart logic and the records over a fake child).
#   bash bench/tc_sweep_prepare.sh            (acopy-opt: $ACOPY_OPT or target/debug/acopy-opt)
# On the GPU machine, from the repository root, carrying target/tc-sweep (about 5 minutes;
# the run stops starting shapes at --budget-s and writes what it has):
#   timeout 590 python3 bench/tc_sweep.py run --builds target/tc-sweep --out "$OUT" --budget-s 470
# Then here, with the files it wrote ($OUT: gemm-sweep.json, attention-sweep.json,
# gemm-choices.json, smi.csv, sweep-log.txt, summary.txt):
#   cp DIR/{gemm,attention}-sweep.json DIR/gemm-choices.json bench/results/
#   python3 bench/plot_tc_sweep.py bench/results      # -> bench/results/{gemm,attention}-sweep.svg
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
opt="${ACOPY_OPT:-$root/target/debug/acopy-opt}"
[[ -x $opt ]] || cargo build --quiet -p acopy-opt
# A private copy: a cargo build running beside this one may relink target/debug/acopy-opt.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$opt" "$tmp/acopy-opt"
rm -rf target/tc-sweep
ACOPY_OPT="$tmp/acopy-opt" python3 bench/tc_sweep_build.py target/tc-sweep "$@" | tail -3
python3 bench/tc_sweep.py dry-run --builds target/tc-sweep --out "$tmp/dry"
du -sh target/tc-sweep
