#!/bin/sh
# Writes the IRDL form of dialect/acopy.td (docs/dialect.md, "Upstream tools"):
# to dialect/acopy.irdl.mlir, or to the file given as the first argument
# (tests/dialect/irdl-generated.mlir compares the two).
set -eu
here=$(dirname "$0")
prefix=${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}
out=${1:-$here/acopy.irdl.mlir}
"$prefix/bin/tblgen-to-irdl" --gen-dialect-irdl-defs --dialect=acopy \
  -I "$prefix/include" "$here/acopy.td" -o "$out"
