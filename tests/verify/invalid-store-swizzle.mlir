// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Swizzled stores (copy_smem_to_gmem with swizzle = S, docs/dialect.md): the
// src tile is in TMA's swizzled layout, so the TMA shape rule T4 and the
// tile alignment A25 (8 × S bytes) apply as to swizzled loads; pre-Hopper
// chips have no stores at all (A5).

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @row_not_one_span(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x64xf32, 3>) kernel {
    // RULE: T4
    // expected-error @+1 {{Async copies with swizzle=128 require the last dimension of the slice to be exactly 128 bytes i.e.  32 elements, but got 64 elements.}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x64xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @tile_not_on_the_pattern(%dst: memref<256x512xf32>, %i: index) workgroup(%buf: memref<72x32xf32, 3>) kernel {
    %view = memref.subview %buf[2, 0] [64, 32] [1, 1] : memref<72x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: 64>, 3>
    // RULE: A25
    // expected-error @+1 {{the src tile memref<64x32xf32, strided<[32, 1], offset: 64>, 3> of a TMA copy must be 1024-byte aligned in shared memory, but it starts 256 bytes into its buffer (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    "acopy.copy_smem_to_gmem"(%view, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x32xf32, strided<[32, 1], offset: 64>, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @not_contiguous(%dst: memref<256x512xf32>, %i: index) workgroup(%buf: memref<64x64xf32, 3>) kernel {
    %view = memref.subview %buf[0, 0] [64, 32] [1, 1] : memref<64x64xf32, 3> to memref<64x32xf32, strided<[64, 1]>, 3>
    // RULE: A14
    // expected-error @+1 {{TMA copies a box to or from contiguous shared memory, but the src tile memref<64x32xf32, strided<[64, 1]>, 3> is not contiguous}}
    "acopy.copy_smem_to_gmem"(%view, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x32xf32, strided<[64, 1]>, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @bad_value(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    // expected-error @+1 {{attribute 'swizzle' must be one of 0, 32, 64, 128 (i64), but got 48 : i64}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 48 : i64} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

// No cp.async chip stores, swizzled or not: a swizzled store is refused as
// every store is.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @ampere(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    // RULE: A5
    // expected-error @+1 {{copy_smem_to_gmem is only supported on Hopper and newer GPUs, which have TMA stores; sm_80 uses the cp.async implementation, which only copies GMEM->SMEM}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

// Valid: every swizzle with rows of one span, reductions, an aligned view.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @valid(%dst: memref<256x512xf32>, %h: memref<256x512xf16>, %i: index)
      workgroup(%t32: memref<64x8xf32, 3>, %t64: memref<64x16xf32, 3>, %t128: memref<64x32xf32, 3>, %h128: memref<64x64xf16, 3>, %buf: memref<72x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%t32, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 32 : i64} : (memref<64x8xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t64, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 64 : i64} : (memref<64x16xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t128, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%h128, %h, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64, reduction_op = "max"} : (memref<64x64xf16, 3>, memref<256x512xf16>, index, index) -> ()
    %view = memref.subview %buf[8, 0] [64, 32] [1, 1] : memref<72x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: 256>, 3>
    "acopy.copy_smem_to_gmem"(%view, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x32xf32, strided<[32, 1], offset: 256>, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
}
