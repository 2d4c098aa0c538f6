// The custom form a new user writes first (issue 20): it parses and prints
// back as written. Before the dialect had an assembly format, acopy-opt exited
// 1 on this input and printed nothing at all.
// RUN: acopy-opt %s | FileCheck %s --strict-whitespace
// RUN: acopy-opt %s --verify-diagnostics

func.func @f(%b: memref<1xi64, 3>) {
  acopy.barrier_init %b : memref<1xi64, 3>
  return
}
// CHECK-LABEL: func.func @f(%arg0: memref<1xi64, 3>) {
// CHECK-NEXT: {{^    }}acopy.barrier_init %arg0 : memref<1xi64, 3>{{$}}
// CHECK-NEXT: {{^    }}return
