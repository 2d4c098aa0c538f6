// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower
// A16: a shared tile larger than any block's shared memory (227 KiB) is an
// error at the op on every chip, for loads and stores. The lowering never
// sees it: a tile of 2^63 rows made the cp.async lowering overflow its chunk
// count and abort.

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @huge(%src: memref<?x128xf32>, %i: index) workgroup(%tile : memref<9223372036854775807x128xf32, 3>) kernel {
    // RULE: A16
    // expected-error @+1 {{the dst tile memref<9223372036854775807x128xf32, 3> holds 4722366482869645213184 bytes, more than the 232448 bytes (227 KiB) of shared memory a block can have on any chip}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x128xf32>, memref<9223372036854775807x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// TMA: a box within T2's 256 per dimension can still be too large.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store(%dst: memref<1024x1024xf32>, %tile: memref<256x256xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{the src tile memref<256x256xf32, 3> holds 262144 bytes, more than the 232448 bytes}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<256x256xf32, 3>, memref<1024x1024xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

// A saturated size, and the largest tile that fits (227 KiB of f32) passes.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @saturated(%src: memref<?x?x?xf32>, %i: index) workgroup(%tile : memref<9223372036854775807x9223372036854775807x9223372036854775807xf32, 3>) kernel {
    // expected-error @+1 {{holds more than 2^128 bytes, more than the 232448 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x?x?xf32>, memref<9223372036854775807x9223372036854775807x9223372036854775807xf32, 3>, index, index, index) -> ()
    gpu.return
  }

  gpu.func @fits(%src: memref<4096x4096xf32>, %i: index) workgroup(%tile : memref<454x128xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x4096xf32>, memref<454x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
