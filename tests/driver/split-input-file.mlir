// RUN: acopy-opt %s --split-input-file | FileCheck %s
// RUN: not acopy-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// Each case is parsed on its own and the outputs are printed in order, separated by `// -----`.

// CHECK: func.func @first
// CHECK-NEXT: return
// CHECK: // -----
// CHECK: func.func @first
// WHOLE: error: redefinition of symbol named 'first'
func.func @first() {
  return
}

// -----

func.func @first() {
  return
}

// A diagnostic in a later case carries its line in the whole file, not in the case.
// RUN: not acopy-opt %S/Inputs/split-bad.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=LINE
// LINE: split-bad.mlir:6:3: error: attribute 'swizzle' must be one of
