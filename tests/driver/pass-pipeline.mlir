// --pass-pipeline takes upstream passes, acopy passes, and both mixed.
// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=CANON
// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(func.func(canonicalize), acopy-verify{chip=sm_80}, cse)' | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func.func @ok
// CANON-NOT: arith.addi
// CANON: acopy.copy_gmem_to_smem

// Without passes the IR is printed unchanged.
// RUN: acopy-opt %S/Inputs/ok.mlir | FileCheck %s --check-prefix=NONE
// NONE: arith.addi

// Bad pipelines are usage errors (exit 2) that say what is wrong.
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir --pass-pipeline="builtin.module(no-such-pass)" 2> %t.upstream; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=UPSTREAM < %t.upstream
// UPSTREAM: no-such-pass
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir --pass-pipeline="builtin.module(acopy-frobnicate)" 2> %t.acopy; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=ACOPY < %t.acopy
// ACOPY: unknown acopy pass 'acopy-frobnicate'; acopy passes are: acopy-pipeline, acopy-verify, acopy-lower
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir --pass-pipeline="builtin.module(acopy-verify{speed=11})" 2> %t.option; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=OPTION < %t.option
// OPTION: unknown option 'speed' for pass 'acopy-verify'; it takes: chip, fallback, max-stages
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir --pass-pipeline="builtin.module(canonicalize" 2> %t.syntax; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=SYNTAX < %t.syntax
// SYNTAX: invalid pass pipeline
