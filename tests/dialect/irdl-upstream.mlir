// What plain mlir-opt does with dialect/acopy.irdl.mlir (docs/dialect.md,
// "Upstream tools"): it reads and prints the generic form, and checks operand
// counts, segment sizes and the index and i1 operands.
// RUN: mlir-opt --irdl-file=%S/../../dialect/acopy.irdl.mlir %s --split-input-file --verify-diagnostics | FileCheck %s
// It cannot parse the custom form, and fails without a word (MLIR 22's IRDL
// loader gives the ops a parser that fails silently): acopy-opt parses it.
// RUN: not mlir-opt --irdl-file=%S/../../dialect/acopy.irdl.mlir %S/Inputs/custom-form.mlir > %t.out 2>&1
// RUN: count 0 < %t.out
// RUN: acopy-opt %S/Inputs/custom-form.mlir | FileCheck %s --check-prefix=ACOPY
// ACOPY: acopy.barrier_init %arg0 : memref<1xi64, 3>

// CHECK-LABEL: func.func @generic
func.func @generic(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>, %p: i1) {
  // CHECK: "acopy.copy_gmem_to_smem"(%arg0, %arg1, %arg2, %arg2, %arg3) {oob_mode = "zeros", operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"}
      : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
  // CHECK: "acopy.barrier_wait"(%arg3, %arg4) : (memref<1xi64, 3>, i1) -> ()
  "acopy.barrier_wait"(%bar, %p) : (memref<1xi64, 3>, i1) -> ()
  // CHECK: "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
  "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
  return
}

// -----

func.func @parity_not_i1(%bar: memref<1xi64, 3>, %i: index) {
  // expected-error @+1 {{expected 'i1' but got 'index'}}
  "acopy.barrier_wait"(%bar, %i) : (memref<1xi64, 3>, index) -> ()
  return
}

// -----

func.func @segments_do_not_add_up(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index) -> ()
  return
}
