// The cp.async lowering's own errors: windows it cannot move in 4-, 8- or
// 16-byte chunks, and layouts it cannot address.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @odd_row_bytes(%src: memref<64x64xf16>) workgroup(%tile : memref<4x3xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{cp.async cannot copy rows of 6 bytes (3 x f16): each contiguous row of the window must be a multiple of 4 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x3xf16, 3>, index, index) -> ()
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

// A constant start at an odd f16 column is 2 bytes off every chunk size.
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @misaligned_start(%src: memref<64x64xf16>) workgroup(%tile : memref<4x8xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{cp.async cannot copy this window: its rows do not start at 4-byte aligned addresses (the window start, a memref offset or a stride is not a multiple of 4 bytes)}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c1) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x8xf16, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// An odd row stride in the tile.
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @misaligned_tile(%src: memref<64x64xf16>, %tile: memref<4x8xf16, strided<[9, 1]>, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{cp.async cannot copy this window}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x8xf16, strided<[9, 1]>, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @not_strided(%src: memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>) workgroup(%tile : memref<4x8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{src has a layout that is not strided (memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>); acopy-lower needs a strided layout}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<4x8xf32, 3>, index, index) -> ()
    gpu.return
  }
}
