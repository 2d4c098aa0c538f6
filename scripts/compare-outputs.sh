#!/usr/bin/env bash
# Proves a refactor is one: builds acopy-opt at BASE (a git revision) and from
# the working tree, runs both over BASE's corpus with scripts/output-snapshot.sh
# (every .mlir under tests/ and examples/, and the generated bench inputs; lowered
# MLIR, LLVM IR and PTX for each gpu.module's own chip, sm_80 and sm_90;
# diagnostics, exit statuses and tensor-map manifests), and diffs the two.
#
#   scripts/compare-outputs.sh BASE        # e.g. scripts/compare-outputs.sh fd44969
#
# Exit 0 and "identical" when every byte matches; otherwise the diff and exit 1.
# The base builds in target/compare-base, so a first run builds everything once
# more (release: several minutes); later runs rebuild only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ne 1 ]]; then
  echo "usage: scripts/compare-outputs.sh BASE_REVISION" >&2
  exit 2
fi
root=$PWD
base_rev=$(git rev-parse --verify "$1^{commit}")
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --quiet --detach "$work/base" "$base_rev"
(cd "$work/base" && CARGO_TARGET_DIR="$root/target/compare-base" cargo build --release -q -p acopy-opt)
cargo build --release -q -p acopy-opt
CORPUS_ROOT="$work/base" scripts/output-snapshot.sh "$work/before" "$root/target/compare-base/release/acopy-opt"
CORPUS_ROOT="$work/base" scripts/output-snapshot.sh "$work/after" "$root/target/release/acopy-opt"
if diff -r "$work/before" "$work/after"; then
  echo "compare-outputs: identical to $base_rev ($(find "$work/after" -name '*.rc' | wc -l) runs)"
else
  echo "compare-outputs: output differs from $base_rev (diff above)" >&2
  exit 1
fi
