// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(canonicalize,cse)' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// PRINT: IR Dump After Canonicalizer
// PRINT: IR Dump After CSE
// RUN: acopy-opt %S/Inputs/ok.mlir --pass-pipeline='builtin.module(acopy-verify{chip=sm_80},canonicalize)' --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: acopy-verify
// TIMING: Canonicalizer
// --debug traces the driver and the passes on stderr, without colour codes in a pipe;
// ACOPY_LOG narrows it (here: to acopy's passes, which still log each run).
// RUN: acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-verify --debug 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// DEBUG: DEBUG acopy_opt::process: running passes pipeline=builtin.module(acopy-verify{chip=sm_80})
// DEBUG: DEBUG acopy_passes::external: running pass="acopy-verify"
// RUN: env ACOPY_LOG=acopy_passes=debug acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=FILTER
// FILTER-NOT: acopy_opt::process
// FILTER: DEBUG acopy_passes::external: running pass="acopy-verify"
// RUN: acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-verify 2>&1 >/dev/null | count 0
