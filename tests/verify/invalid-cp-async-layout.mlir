// What the cp.async lowering needs of a copy's memrefs: strided layouts
// (A28) and contiguous rows of a multiple of 4 bytes (A29), the rows as
// plan/chunk.rs plans them. Fallback mode changes neither, but a zero-filling
// copy keeps every dimension as its own row (no merging), which A29 follows.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @odd_row_bytes(%src: memref<64x64xf16>) workgroup(%tile : memref<4x3xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // RULE: A29
    // expected-error @+1 {{cp.async cannot copy rows of 6 bytes (3 x f16): each contiguous row of the window must be a multiple of 4 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x3xf16, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A window as wide as src is one row of 4 x 3 f16 = 24 bytes: fine.
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @full_rows(%src: memref<64x3xf16>) workgroup(%tile : memref<4x3xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x3xf16>, memref<4x3xf16, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A non-unit innermost stride makes every element a row of its own.
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @strided_f16(%src: memref<64x32xf16, strided<[64, 2]>>) workgroup(%tile : memref<4x8xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{cp.async cannot copy rows of 2 bytes (1 x f16): each contiguous row of the window must be a multiple of 4 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x32xf16, strided<[64, 2]>>, memref<4x8xf16, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @not_strided(%src: memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>) workgroup(%tile : memref<4x8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // RULE: A28
    // expected-error @+1 {{the cp.async implementation addresses memrefs through their strides, but src memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>> has a layout that is not strided}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<4x8xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_86">] {
  gpu.func @tile_not_strided(%src: memref<64x64xf32>, %tile : memref<8x8xf32, affine_map<(d0, d1) -> (d1, d0)>, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{but dst memref<8x8xf32, affine_map<(d0, d1) -> (d1, d0)>, 3> has a layout that is not strided}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<8x8xf32, affine_map<(d0, d1) -> (d1, d0)>, 3>, index, index) -> ()
    gpu.return
  }
}
