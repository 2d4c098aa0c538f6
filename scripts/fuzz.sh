#!/usr/bin/env bash
# Fuzzes acopy-opt with random acopy kernels for SECONDS (default 60):
#   bash scripts/fuzz.sh [SECONDS] [acopy-fuzz flags...]
# e.g. `bash scripts/fuzz.sh 3600 --seed 7 --grow`, or one case again:
# `bash scripts/fuzz.sh 0 --seed 0x1234 --case 17`.
# Replays fuzz/corpus/ first, then draws new inputs; prints `executions: N`
# and `crashes: N` and fails when crashes > 0. FUZZ_BIN tests another
# acopy-opt (a release build, say). docs/robustness.md, "The fuzzer".
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
cargo build --quiet -p acopy-opt -p acopy-fuzz
bin=${FUZZ_BIN:-target/debug/acopy-opt}
exec target/debug/acopy-fuzz --bin "$bin" --seconds "$seconds" --corpus fuzz/corpus "$@"
