// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(canonicalize,cse)' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// PRINT: IR Dump After Canonicalizer
// PRINT: IR Dump After CSE
// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(acopy-verify{chip=sm_80},canonicalize)' --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: acopy-verify
// TIMING: Canonicalizer
