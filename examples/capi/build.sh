#!/usr/bin/env bash
# Builds and runs the C frontend (main.c) and the C++ one (frontend.cpp, the
# snippet of docs/embedding.md) against libacopy_capi.so, and checks what they
# print (expected.txt). scripts/test.sh runs it after
# `cargo build -p acopy-capi`; alone: bash examples/capi/build.sh.
#
# Link line: the MLIR C API archives (Debian ships the C API only as
# libMLIRCAPI*.a; the linker takes from them only the C functions main.c
# calls), then libacopy_capi.so and the shared libMLIR.so and libLLVM.so of
# LLVM 22, which those C functions call into. The C++ frontend uses MLIR's C++ API,
# which libMLIR.so holds, and needs no archive.
set -euo pipefail
cd "$(dirname "$0")/../.."
llvm="${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}"
lib="$PWD/target/debug"
out="$PWD/target/capi-example"
mkdir -p "$out"
[ -f "$lib/libacopy_capi.so" ] || { echo "build.sh: $lib/libacopy_capi.so is missing: cargo build -p acopy-capi" >&2; exit 1; }
shared=(-L"$lib" -lacopy_capi -Wl,-rpath,"$lib" -L"$llvm/lib" -lMLIR -lLLVM -Wl,-rpath,"$llvm/lib")
cc -std=c11 -Wall -Wextra -Werror -Iinclude -I"$llvm/include" examples/capi/main.c -o "$out/capi-example" \
  -Wl,--start-group "$llvm"/lib/libMLIRCAPI*.a -Wl,--end-group "${shared[@]}" -lstdc++ -lm
c++ -std=c++17 -fno-rtti -Wall -Wextra -Werror -Iinclude -isystem "$llvm/include" examples/capi/frontend.cpp \
  -o "$out/frontend" "${shared[@]}"
"$out/capi-example" examples > "$out/capi-example.out"
"$out/frontend" examples/tile_copy_sm90.mlir > "$out/frontend.out"
cat "$out/capi-example.out" "$out/frontend.out" > "$out/all.out"
diff -u examples/capi/expected.txt "$out/all.out"
echo "examples/capi: the C and C++ frontends compiled both chips (output as examples/capi/expected.txt)"
