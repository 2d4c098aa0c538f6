// Exit status: 0 on success, 1 on an error diagnostic, 2 on bad usage (README, "acopy-opt").
// RUN: acopy-opt %S/Inputs/ok.mlir > /dev/null
// RUN: sh -c 'acopy-opt %S/Inputs/bad.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=LOCATED < %t.err
// LOCATED: bad.mlir:2:3: error: attribute 'swizzle' must be one of 0, 32, 64, 128 (i64), but got 48 : i64

// Malformed IR: a located parse error and exit 1, never a crash.
// RUN: sh -c 'printf "func.func @f( {\n" | acopy-opt - 2> %t.parse; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=PARSE < %t.parse
// PARSE: <stdin>:1:{{[0-9]+}}: error:

// Bad usage: exit 2.
// RUN: sh -c 'acopy-opt --no-such-flag %S/Inputs/ok.mlir 2> /dev/null; test $? -eq 2'
// RUN: sh -c 'acopy-opt %S/Inputs/does-not-exist.mlir 2> %t.missing; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=MISSING < %t.missing
// MISSING: acopy-opt: error: could not open input file '{{.*}}does-not-exist.mlir'
// RUN: sh -c 'acopy-opt --chip=sm_75 %S/Inputs/ok.mlir 2> %t.chip; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=CHIP < %t.chip
// CHIP: chip "sm_75" is not supported: acopy needs sm_80 or newer
// RUN: sh -c 'acopy-opt --chip=sm_91 %S/Inputs/ok.mlir 2> /dev/null; test $? -eq 2'
// RUN: sh -c 'acopy-opt --acopy-verify --pass-pipeline="builtin.module(canonicalize)" %S/Inputs/ok.mlir 2> /dev/null; test $? -eq 2'
