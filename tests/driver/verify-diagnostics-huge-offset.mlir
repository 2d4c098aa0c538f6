// A directive offset at the end of i64's range is a located error about the
// offset, with exit 1; the line number it points to used to wrap (a panic in
// debug builds, a negative line in release builds).
// RUN: sh -c 'acopy-opt %s --verify-diagnostics 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s < %t.err
// CHECK: verify-diagnostics-huge-offset.mlir:9:4: error: {{.*}} designator points to line 9223372036854775816, past the end of the file (9 lines)
// CHECK-NOT: panicked

// expected-error@+9223372036854775807 {{x}}
