// --verify-diagnostics passes when every expected diagnostic appears, and fails,
// saying which, when one is missing or unexpected.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics > /dev/null
// RUN: not acopy-opt %S/Inputs/missing-expected.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing-expected.mlir:3:6: error: expected error "this error never comes" was not produced
// RUN: not acopy-opt %S/Inputs/bad.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// UNEXPECTED: bad.mlir:2:3: error: unexpected error: attribute 'swizzle' must be one of

func.func @designators(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @below {{attribute 'oob_mode' must be one of}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "zero"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, swizzle = 1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  // expected-error @above {{attribute 'swizzle' must be one of}}
  "acopy.wait_gmem_to_smem"() {pending = -3 : i64} : () -> ()
  // expected-error @-1 {{attribute 'pending'}}
  return
}

// -----

func.func @same_line(%bar: memref<1xi64>) {
  "acopy.barrier_init"(%bar) : (memref<1xi64>) -> () // expected-error {{barrier must be memref<1xi64> in shared memory}}
  return
}
