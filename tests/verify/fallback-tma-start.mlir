// The TMA innermost start rules in fallback mode: the copies of
// tests/verify/invalid-tma-start.mlir. A18 is waived for copies with a
// non-TMA path (loads without leader_tracked, and every store:
// plan::tma_facts::tma_fallback_exists), and the
// decision is a remark like every fallback waiver; A19 is unchanged.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback
// RUN: not acopy-opt %s --split-input-file --acopy-verify --acopy-fallback 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: fallback-tma-start.mlir:16:5: remark: fallback mode keeps this op on sm_90: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store
// REMARK: fallback-tma-start.mlir:61:5: remark: fallback mode keeps this op on sm_90a: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c37 = arith.constant 37 : index
    %c133 = arith.constant 133 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
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
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
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
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
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
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %c0, %c2) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %c0, %c2) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
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
    // expected-error @+1 {{this leader_tracked load has no non-TMA path and its start is only known at run time (proved a multiple of 1 element)}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %c8, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated", oob_mode = "undefined"} : (memref<256x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %src, %c0, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

// Negative store starts are kept too (element-wise stores).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%g: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    %cm10 = arith.constant -10 : index
    %c128 = arith.constant 128 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store}}
    "acopy.copy_smem_to_gmem"(%tile, %g, %cm10, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}
