#!/usr/bin/env bash
# Runs every test: Rust unit tests and the lit + FileCheck suites (through
# `cargo test`). Installs missing system packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo test --workspace --all-targets
