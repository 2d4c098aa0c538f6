// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// TMA coordinates are signed 32-bit: a constant window start outside that range
// would be truncated silently by the instruction, so it is an error before lowering.

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @far(%src: memref<?x128xf32>, %bar: memref<1xi64, 3>) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %far = arith.constant 4294967296 : index
    %c0 = arith.constant 0 : index
    // RULE: A17
    // expected-error @+1 {{TMA coordinates are signed 32-bit integers, but the window starts at 4294967296 along dimension 0}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %far, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x128xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The coordinate is the index plus the subview's offset: 2147483600 + 64.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @offset(%src: memref<?x128xf32>) workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    %view = memref.subview %src[2147483600, 0] [128, 128] [1, 1] : memref<?x128xf32> to memref<128x128xf32, strided<[128, 1], offset: 274877900800>>
    // expected-error @+1 {{TMA coordinates are signed 32-bit integers, but the window starts at 2147483664 along dimension 0}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %c64, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x128xf32, strided<[128, 1], offset: 274877900800>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x128xf32, strided<[128, 1], offset: 274877900800>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The largest coordinate TMA holds is accepted; so is a negative start (TMA zero-fills it).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @edge(%src: memref<?x128xf32>, %bar: memref<1xi64, 3>) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %max = arith.constant 2147483647 : index
    %neg = arith.constant -64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %max, %neg, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x128xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The same start is fine on the cp.async path, whose addresses are 64-bit.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @far_cp_async(%src: memref<?x128xf32>) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %far = arith.constant 4294967296 : index
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %far, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
