#!/usr/bin/env bash
# Here (no GPU needed): the extension for bench/frontends_gpu.py's device run. Builds
# `acopy._native` in release (abi3, so the GPU machine's CPython 3.12 loads it), strips it
# and compresses it with xz into target/frontends-device/_native.abi3.so.xz (about 32 MB;
# the stripped library, MLIR linked in, is 175 MB, over a device call's 64 MiB carry).
# Takes ~3 min of xz on 2 cores after the build.
#   bash bench/frontends_prepare.sh
# Then one device call, carrying target/frontends-device:
#   bash bench/frontends_device.sh "$OUT"
set -euo pipefail
cargo build --release -p acopy-python
mkdir -p target/frontends-device
strip -o target/frontends-device/_native.abi3.so target/release/lib_native.so
xz -T0 -6 -f target/frontends-device/_native.abi3.so
ls -la target/frontends-device/_native.abi3.so.xz
