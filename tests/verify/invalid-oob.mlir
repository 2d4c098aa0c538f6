// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// E11: oob_mode = "promise_in_bounds" with a window that provably leaves src.
// It applies when every index is an arith.constant and every src dimension
// is static; ranges are half-open and the shape is a Python tuple.

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @rows_past_the_end(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>) kernel {
    %c200 = arith.constant 200 : index
    %c0 = arith.constant 0 : index
    // RULE: E11
    // expected-error @+1 {{Out-of-bounds read of src: reading [200:264, 0:128] but buffer has shape (256, 512).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c200, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @columns_past_the_end(%src: memref<256x512xf32>) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c400 = arith.constant 400 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [0:64, 400:528] but buffer has shape (256, 512).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c400, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @negative_start(%src: memref<100xf32>, %dst: memref<64xf32, 3>) kernel {
    %cm1 = arith.constant -1 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [-1:63] but buffer has shape (100,).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %cm1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<100xf32>, memref<64xf32, 3>, index) -> ()
    gpu.return
  }
}

// -----

// A rank-reducing copy reads length 1 along the leading dimensions.
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @leading_dim(%src: memref<4x8x16xi8>, %dst: memref<8x16xi8, 3>) kernel {
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [4:5, 0:8, 0:16] but buffer has shape (4, 8, 16).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c4, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x8x16xi8>, memref<8x16xi8, 3>, index, index, index) -> ()
    gpu.return
  }
}

// -----

// No error where E11 cannot be proven, or where the window stays inside:
// a dynamic index, a dynamic src dimension, another oob_mode, the last
// in-bounds window.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @unprovable(%src: memref<256x512xf32>, %dyn: memref<?x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    %c1000 = arith.constant 1000 : index
    %c192 = arith.constant 192 : index
    %c384 = arith.constant 384 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c1000, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%dyn, %dst, %c1000, %c1000, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<?x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c1000, %c1000, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c1000, %c1000, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c192, %c384, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
