#!/usr/bin/env bash
# Mutation testing: cargo-mutants changes the plan layer, the pipeliner, the
# lowering, the verifier and the dialect's attribute parsing one small edit at a time and runs the lit suite
# (cargo test -p acopy-opt --test lit) plus the acopy-passes unit tests on each
# mutant; a mutant that passes them is a gap in the tests. Slow (a build and a
# lit run per mutant, about 1000 mutants in all), so not part of
# scripts/test.sh or CI. docs/testing.md has the results and how to read them.
#
# Usage: scripts/mutants.sh [FILE...]      (default: the targets below)
#   e.g. scripts/mutants.sh passes/src/lower/barrier.rs passes/src/lower/tma/load.rs
# Environment: MUTANTS_JOBS (default 1) parallel builds; each needs a copy of
# target/ (about 2.5 GB) and the memory of a full build. MUTANTS_SHARD=K/N tests
# only every N-th mutant (cargo-mutants' shard K of N, round-robin): a
# systematic sample of the whole set, for an estimate when the full run is too
# long (docs/testing.md). MUTANTS_ITERATE=1 skips the mutants that
# target/mutants/mutants.out/{caught,unviable}.txt already list (cargo-mutants'
# --iterate), so a run can go on where an earlier one stopped. MUTANTS_RE=REGEX
# tests only the mutants whose names (as `cargo mutants --list` prints them)
# match, e.g. MUTANTS_RE='truncate' after changing that function.
# MUTANTS_TIMEOUT=SECONDS sets the per-mutant test timeout and skips the
# baseline run below (for a run that goes on from an earlier one on the same
# tree, whose baseline passed).
# Results: target/mutants/mutants.out/{caught,missed,unviable,timeout}.txt
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if ! command -v cargo-mutants >/dev/null; then
  cargo install --locked cargo-mutants
fi

if [ $# -eq 0 ]; then
  set -- 'passes/src/plan/**/*.rs' 'passes/src/pipeliner/**/*.rs' 'passes/src/lower/**/*.rs' \
    'passes/src/verify/**/*.rs' dialect/src/attributes.rs
fi
files=()
for file in "$@"; do files+=(--file "$file"); done

# Mutants are built in a copy of the tree, which has no .venv: name ptxas by
# its absolute path (tools/acopy-opt/tests/lit.rs reads ACOPY_PTXAS).
export ACOPY_PTXAS="$PWD/.venv/bin/ptxas"
# A mutant is caught by its first failing lit case: lit stops there (it reads
# LIT_OPTS), so a caught mutant costs seconds, not the whole suite.
export LIT_OPTS="${LIT_OPTS:+$LIT_OPTS }--max-failures=1"

# The test command for every mutant: the lit suite and the unit tests of the
# passes and the dialect.
packages=(acopy-opt acopy-passes acopy-dialect)
test_args=(--test lit --lib)

# cargo-mutants' own baseline only tests the mutated packages, where
# `--test lit` does not exist, so the unmutated tree is tested here instead
# (same command), and its time sets the per-mutant timeout.
if [[ -n ${MUTANTS_TIMEOUT:-} ]]; then
  if [[ ! $MUTANTS_TIMEOUT =~ ^[1-9][0-9]*$ ]]; then
    echo "mutants.sh: MUTANTS_TIMEOUT must be a number of seconds" >&2
    exit 2
  fi
  timeout=$MUTANTS_TIMEOUT
  echo "mutants.sh: baseline skipped (MUTANTS_TIMEOUT); test timeout per mutant ${timeout}s"
else
  echo "mutants.sh: baseline: cargo test ${packages[*]/#/-p } ${test_args[*]}"
  start=$(date +%s)
  cargo test --quiet "${packages[@]/#/--package=}" "${test_args[@]}" > target/mutants-baseline.log 2>&1 || {
    echo "mutants.sh: the unmutated tree fails its tests (target/mutants-baseline.log)" >&2
    exit 1
  }
  seconds=$(( $(date +%s) - start ))
  timeout=$(( seconds * 3 + 60 ))
  echo "mutants.sh: baseline passed in ${seconds}s; test timeout per mutant ${timeout}s"
fi

# --copy-target keeps the dependency builds (MLIR bindings), so each mutant
# rebuilds only acopy's own crates.
packages_csv=$(IFS=,; echo "${packages[*]}")
cargo mutants \
  --copy-target=true \
  --baseline=skip \
  --timeout "$timeout" \
  --build-timeout 900 \
  --jobs "${MUTANTS_JOBS:-1}" \
  --test-package "$packages_csv" \
  --output target/mutants \
  ${MUTANTS_SHARD:+--shard "$MUTANTS_SHARD" --sharding round-robin} \
  ${MUTANTS_ITERATE:+--iterate} \
  ${MUTANTS_RE:+--re "$MUTANTS_RE"} \
  "${files[@]}" \
  -- "${test_args[@]}"
