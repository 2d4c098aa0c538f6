// The TMA innermost start rules in strict mode: a constant innermost window
// start (index plus subview offset) that is not 16-byte aligned is A18; a
// dynamic one on a copy without a non-TMA path (swizzle, leader_tracked,
// reduction_op) must be proved aligned or promised with assume_aligned_start
// (A19). tests/verify/fallback-tma-start.mlir has the same copies in fallback
// mode.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c37 = arith.constant 37 : index
    %c133 = arith.constant 133 : index
    // RULE: A18
    // expected-error @+1 {{TMA needs the innermost window start to be 16-byte aligned, but start 133 of f32 is at byte offset 532; use a multiple of 4 elements, or fallback mode for a non-TMA copy}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %c133, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Only the innermost start counts: 37 rows down, column 128 is aligned.
// A negative start is checked the same way: -64 f32 is -256 bytes, aligned.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c37 = arith.constant 37 : index
    %c128 = arith.constant 128 : index
    %cm64 = arith.constant -64 : index
    %cm63 = arith.constant -63 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %c128, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %cm64, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{but start -63 of f32 is at byte offset -252; use a multiple of 4 elements}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %cm63, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The subview's constant offset is part of the start: 4 + 3 = 7 bf16 is 14 bytes.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xbf16>) workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %view = memref.subview %src[0, 3] [256, 256] [1, 1] : memref<256x512xbf16> to memref<256x256xbf16, strided<[512, 1], offset: 3>>
    // expected-error @+1 {{but start 7 of bf16 is at byte offset 14; use a multiple of 8 elements, or fallback mode for a non-TMA copy}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %c0, %c4, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<256x256xbf16, strided<[512, 1], offset: 3>>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Stores (reductions too: atomics) and multicast loads too.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%g: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{but start 2 of f32 is at byte offset 8; use a multiple of 4 elements, or fallback mode for a non-TMA copy}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %c0, %c2) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-error @+1 {{but start 2 of f32 is at byte offset 8; use a multiple of 4 elements, or fallback mode for a non-TMA copy}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %c0, %c2) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-error @+1 {{but start 2 of f32 is at byte offset 8; use a multiple of 4 elements, or fallback mode for a non-TMA copy}}
    "acopy.copy_gmem_to_smem"(%g, %tile, %c0, %c2, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Dynamic starts: plain and swizzled copies are checked at run time (no
// error; the cp.async path lays out the swizzle).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index, %bx: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %aligned = arith.muli %bx, %c4 : index
    %half = arith.muli %bx, %c2 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %aligned, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %half, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A dynamic subview offset joins the proof; leader_tracked loads have no
// non-TMA path, so their dynamic start needs a proof or the attribute.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index, %o: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %o8 = arith.muli %o, %c8 : index
    %view = memref.subview %src[0, %o] [256, 256] [1, 1] : memref<256x512xf32> to memref<256x256xf32, strided<[512, 1], offset: ?>>
    %view8 = memref.subview %src[0, %o8] [256, 256] [1, 1] : memref<256x512xf32> to memref<256x256xf32, strided<[512, 1], offset: ?>>
    "acopy.copy_gmem_to_smem"(%view8, %tile, %i, %c8, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated", oob_mode = "undefined"} : (memref<256x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // RULE: A19
    // expected-error @+1 {{TMA needs the innermost window start to be 16-byte aligned; this leader_tracked load has no non-TMA path and its start is only known at run time (proved a multiple of 1 element), so make it provably a multiple of 4 elements (e.g. `%i * 4`) or promise it with the `assume_aligned_start` attribute}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %c8, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated", oob_mode = "undefined"} : (memref<256x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %src, %c0, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

// A TMA store also traps at a negative start coordinate, aligned or not.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%g: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    %cm10 = arith.constant -10 : index
    %cm64 = arith.constant -64 : index
    %c128 = arith.constant 128 : index
    // expected-error @+1 {{a TMA store cannot start at a negative coordinate, but this one starts at -10 along dimension 0; start the window inside dst, or fallback mode for a non-TMA copy}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %cm10, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-error @+1 {{a TMA store cannot start at a negative coordinate, but this one starts at -64 along dimension 1}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %c128, %cm64) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // A load there is fine: TMA zero-fills.
    gpu.return
  }
}
