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
