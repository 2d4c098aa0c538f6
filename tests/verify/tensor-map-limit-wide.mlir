// Rule A27 counts a wide copy's tensor map by the box its split would use (the
// lowering's key in fallback mode), in strict mode too, where the wide copy itself
// is refused: so A27 answers alike in both modes for every other op. Here two wide
// copies of (512, 16) and (768, 16) f32 share one map of (256, 16) boxes, and the
// last copy is the kernel's 16th map, within the limit, in both modes. A shard-9
// mutation survivor (2026-12-03) showed no test compared the modes here; strict
// mode then counted the two wide copies as two maps and refused the last copy.
// RUN: not acopy-opt %s --acopy-verify 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: acopy-opt %s --acopy-verify --acopy-fallback 2>&1 >/dev/null | FileCheck %s --check-prefix=FALLBACK
// STRICT-COUNT-2: error: Async copies only support copying <=256 elements along each dimension
// STRICT-NOT: error
// FALLBACK-COUNT-2: remark: fallback mode keeps this op on sm_90: the wide copy is split
// FALLBACK-NOT: error
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<1024x512xf32>, %i: index) workgroup(%t1: memref<1x32xf32, 3>, %t2: memref<2x32xf32, 3>, %t3: memref<3x32xf32, 3>, %t4: memref<4x32xf32, 3>, %t5: memref<5x32xf32, 3>, %t6: memref<6x32xf32, 3>, %t7: memref<7x32xf32, 3>, %t8: memref<8x32xf32, 3>, %t9: memref<9x32xf32, 3>, %t10: memref<10x32xf32, 3>, %t11: memref<11x32xf32, 3>, %t12: memref<12x32xf32, 3>, %t13: memref<13x32xf32, 3>, %t14: memref<14x32xf32, 3>, %t15: memref<15x32xf32, 3>, %w1: memref<512x16xf32, 3>, %w2: memref<768x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<1x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t2, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<2x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t3, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<3x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t4, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<4x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t5, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<5x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t6, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<6x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t7, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<7x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t8, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t9, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<9x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t10, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<10x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t11, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<11x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t12, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<12x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t13, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<13x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t14, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<14x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %w1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<512x16xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %w2, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<768x16xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // The 16th map: 14 narrow ones and the wide copies' one box (256, 16).
    "acopy.copy_gmem_to_smem"(%src, %t15, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x512xf32>, memref<15x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
