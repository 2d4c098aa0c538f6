#!/usr/bin/env bash
# Runs every test: Rust unit tests and the lit + FileCheck suites (through
# `cargo test`), 60 s of the fuzzer (scripts/fuzz.sh), the Python package's
# tests (python/tests), then the GPU suite, which runs only where an NVIDIA GPU
# and its driver are present and otherwise prints `SKIPPED: <reason>`.
# Installs missing system packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo test --workspace --all-targets
# The fuzzer, 60 s against the debug acopy-opt just built: replays fuzz/corpus,
# then random kernels; fails on any crash (docs/robustness.md, "The fuzzer").
# The seed is fixed here so that a test run is repeatable (a new finding must not
# fail an unrelated change); scripts/fuzz.sh alone draws a new seed every run.
bash scripts/fuzz.sh 60 --seed 0x20261201
echo "== mlir-opt plugin and C API (tests/plugin, examples/capi)"
# libacopy_capi.so (linked to the shared libMLIR.so) and the plugin shim; then
# upstream mlir-opt-22 with the plugin against acopy-opt on the same inputs, and
# the C and C++ frontends of examples/capi (docs/embedding.md).
cargo build -p acopy-capi -p acopy-mlir-plugin
# Another LLVM's mlir-opt, for the plugin's version check
# (tests/plugin/foreign-mlir-opt.test): Debian 12's mlir-19-tools.
if ! dpkg-query -W -f='${Status}' mlir-19-tools 2>/dev/null | grep -q "install ok installed"; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends mlir-19-tools
fi
ACOPY_OPT=target/debug/acopy-opt ACOPY_PLUGIN=target/debug/libacopy_mlir_plugin.so \
  /usr/lib/llvm-22/bin/lit -v tests/plugin
bash examples/capi/build.sh
# The README's `cargo run --example embed`, exactly as documented (at the workspace
# root, no -p): it must build kernels for both chips and print their PTX.
cargo run --quiet --example embed > target/embed-example.out 2> target/embed-example.err \
  && grep -qx '.target sm_80' target/embed-example.out \
  && grep -qx '.target sm_90' target/embed-example.out \
  || { cat target/embed-example.err >&2; echo "cargo run --example embed did not print PTX for sm_80 and sm_90" >&2; exit 1; }
# A crate outside the workspace that embeds acopy (README, "Embedding"): its own
# [workspace] and .cargo/config.toml; target/ is shared so nothing builds twice.
CARGO_TARGET_DIR="$PWD/target" cargo run --quiet --manifest-path examples/embed-crate/Cargo.toml
# The lit suite again against an optimised acopy-opt: undefined behaviour can hide in a
# debug build (it once did: a dangling context reference crashed only in release).
cargo test --release -p acopy-opt --test lit
# The differential test of marked loops (tests/gpu/ws_diff/README.md), its dry run:
# every drawn kernel (320, both paths, three builds each) is compiled by the release
# acopy-opt and assembled by ptxas; a crash, an internal error or a ptxas error fails.
bash tests/gpu/ws_diff/build.sh target/ws-diff
echo "== tensor-core sweep (bench/tc_sweep_test.py: shape refusal, chooser, launcher packing, the sweep's parent; no GPU, ~5 s)"
python3 bench/tc_sweep_test.py
echo "== Python package (python/)"
# Built (release, reusing target/) and installed into the project's .venv, then
# its pytest suite. Reinstalling an unchanged package takes ~20 s.
.venv/bin/python -m pip install --quiet --disable-pip-version-check pytest==9.2.0 ./python
.venv/bin/python -m pytest -q -p no:cacheprovider python/tests
echo "== acopy.jax and acopy.torch on CPU (python/tests/test_frontends.py)"
# In the Python 3.12 virtualenv of scripts/frontends-venv.sh (jax 0.11.2, torch 2.11),
# where it exists; the package is installed there too (abi3: the same build).
if [ -x target/fe-venv/bin/python ]; then
  target/fe-venv/bin/python -m pip install --quiet --disable-pip-version-check ./python
  target/fe-venv/bin/python -m pytest -q -p no:cacheprovider python/tests/test_frontends.py
else
  echo "SKIPPED: no target/fe-venv (bash scripts/frontends-venv.sh makes it)"
fi
echo "== GPU suite (tests/gpu)"
# Every GPU kernel must build (a failure is named on stderr and fails the run).
bash tests/gpu/build-ptx.sh > /dev/null
cargo run --quiet -p acopy-runtime --bin acopy-gpu-suite -- --no-bandwidth --results-json target/gpu-suite.json
cargo run --quiet -p acopy-runtime --bin acopy-gpu-ws-diff -- --dir target/ws-diff --results-json target/ws-diff.json
