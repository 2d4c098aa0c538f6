// Where a TMA copy's global memref comes from: it must be a kernel argument,
// or a unit-stride, same-rank memref.subview of one (A20), of a kernel
// gpu.func (A21), and through a narrower subview the window must provably
// stay inside it unless the load may read anything (A22). Fallback mode
// changes none of this.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %src = memref.alloc() : memref<256x512xf32>
    // RULE: A20
    // expected-error @+1 {{the src of a TMA copy is not a kernel argument; it must be an argument of the enclosing kernel gpu.func, or a memref.subview of one with unit strides and the same rank (memref.casts are looked through), because its TMA tensor map is encoded on the host from that kernel argument}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %src = memref.alloc() : memref<256x512xf32>
    %view = memref.subview %src[0, 0] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1]>>
    // expected-error @+1 {{the src of a TMA copy is a memref.subview of a value that is not a kernel argument; it must be an argument of the enclosing kernel gpu.func}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[512, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [1, 256] [1, 1] : memref<256x512xf32> to memref<256xf32, strided<[1]>>
    // expected-error @+1 {{the src of a TMA copy is a rank-reducing memref.subview (rank 1 of rank 2); it must be an argument of the enclosing kernel gpu.func}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, oob_mode = "undefined"} : (memref<256xf32, strided<[1]>>, memref<64xf32, 3>, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [128, 256] [2, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[1024, 1]>>
    // expected-error @+1 {{the src of a TMA copy is a memref.subview with strides (2, 1); it must be an argument of the enclosing kernel gpu.func}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[1024, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>)  {
    // RULE: A21
    // expected-error @+1 {{the src of a TMA copy is an argument of a gpu.func that is not a kernel; tensor maps are kernel parameters, so TMA copies must use the arguments of a `kernel` gpu.func}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Through a memref.cast of a kernel argument a copy is fine (no error); the
// cast of a value that is not an argument is not.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x512xf32>
    "acopy.copy_gmem_to_smem"(%cast, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    %buf = memref.alloc() : memref<256x512xf32>
    %other = memref.cast %buf : memref<256x512xf32> to memref<?x512xf32>
    // expected-error @+1 {{the src of a TMA copy is not a kernel argument}}
    "acopy.copy_gmem_to_smem"(%other, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Only casts between ranked memrefs are looked through: a cast from an unranked
// kernel argument is not (the host encodes a tensor map from a ranked one).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%u: memref<*xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %src = memref.cast %u : memref<*xf32> to memref<256x512xf32>
    // expected-error @+1 {{the src of a TMA copy is not a kernel argument}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1]>>
    // RULE: A22
    // expected-error @+1 {{the window of this TMA copy cannot be shown to stay inside the memref.subview src along dimension 0: TMA's bounds are the kernel argument's, so it would read argument elements outside the view instead of zero-filling them; use oob_mode = "promise_in_bounds" or "undefined" if that is intended}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xf32, strided<[512, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // With "undefined" anything may be read outside: no error.
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[512, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c224 = arith.constant 224 : index
    %view = memref.subview %dst[0, 0] [256, 256] [1, 1] : memref<256x512xf32> to memref<256x256xf32, strided<[512, 1]>>
    // expected-error @+1 {{the window of this TMA copy cannot be shown to stay inside the memref.subview dst along dimension 1: TMA's bounds are the kernel argument's, so it would write argument elements outside the view}}
    "acopy.copy_smem_to_gmem"(%tile, %view, %c0, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x256xf32, strided<[512, 1]>>, index, index) -> ()
    // Constant and inside: no error.
    "acopy.copy_smem_to_gmem"(%tile, %view, %c0, %c224) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x256xf32, strided<[512, 1]>>, index, index) -> ()
    // Dimension 0 the view covers whole (offset 0, all 256 rows of the
    // argument), so TMA's bounds there are the view's: a dynamic row is fine.
    "acopy.copy_smem_to_gmem"(%tile, %view, %i, %c224) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x256xf32, strided<[512, 1]>>, index, index) -> ()
    gpu.return
  }
}

// -----

// A block argument of a later block of the kernel is not a kernel argument,
// even at a position a kernel argument has (here 0, fed by %src itself).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @later_block(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    cf.br ^next(%src : memref<256x512xf32>)
  ^next(%m: memref<256x512xf32>):
    // expected-error @+1 {{the src of a TMA copy is not a kernel argument}}
    "acopy.copy_gmem_to_smem"(%m, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
