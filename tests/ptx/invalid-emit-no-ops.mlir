// expected-error@-0 {{LLVM IR and PTX are compiled from gpu.modules, and this input has none: put the kernels in a gpu.module}}
// An input without an op (empty, or comments only, as this file): MLIR's
// implicit module around it is at line 0, column 0, no place in the file, so
// --emit's error that there is no gpu.module was unlocated (acopy-fuzz,
// --seed 0x3c02 --case 1358 --multicast: a multicast loop cut to nothing). It
// is reported at line 1, column 1.
// RUN: acopy-opt %s --verify-diagnostics --emit=ptx
// RUN: not acopy-opt %s --acopy-lower --emit=llvm 2>&1 | FileCheck %s
// RUN: not acopy-opt %s --split-input-file --emit=ptx 2>&1 | FileCheck %s --check-prefix=SPLIT
// CHECK: invalid-emit-no-ops.mlir:1:1: error: LLVM IR and PTX are compiled from gpu.modules, and this input has none
// SPLIT: invalid-emit-no-ops.mlir:1:1: error: LLVM IR and PTX are compiled from gpu.modules
// SPLIT: invalid-emit-no-ops.mlir:15:1: error: LLVM IR and PTX are compiled from gpu.modules

// -----

// A second chunk without an op: its error is at its own first line.
