// --mlir-print-debuginfo prints each op's location; the input is named `-`, and
// with --split-input-file lines count from the line of each chunk's separator (as the
// passes see them). Without the flag no location is printed.
// RUN: acopy-opt %s --split-input-file --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: acopy-opt %s --split-input-file | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: loc(

// CHECK-LABEL: func.func @first
// CHECK-NEXT: return loc("-":[[# @LINE + 2]]:3)
func.func @first() {
  return
}

// -----

// CHECK-LABEL: func.func @second
// CHECK-NEXT: arith.constant 1 : index loc("-":6:9)
// CHECK-NEXT: return loc("-":7:3)
func.func @second() {
  %c1 = arith.constant 1 : index
  return
}
