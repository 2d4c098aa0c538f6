// The cp.async lowering folds what is known when it builds (docs/lowering-cp-async.md):
// a zero start adds no offset to the base pointer, and a tile row of exactly one
// chunk needs no division to find a chunk's row. Each kernel pins the fold by the
// op that would appear without it.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s

// CHECK-LABEL: gpu.func @zero_start
// Only the per-thread offsets (source, destination) remain: no constant one.
// With 128 threads the 16 rounds are unrolled; each chunk offsets the source
// and the destination by a per-thread value, and nothing by a constant.
// CHECK-NOT: llvm.getelementptr %{{[0-9a-z_]+}}[{{-?[0-9]+}}]
// CHECK-COUNT-32: llvm.getelementptr %{{[0-9a-z_]+}}[%{{[0-9a-z_]+}}]
// CHECK-NOT: llvm.getelementptr
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg

// A constant byte offset past i32 (GEP's constant indices are i32) goes as an
// i64 value instead of being folded into the GEP.
// CHECK-LABEL: gpu.func @far
// CHECK: %[[FAR:.*]] = arith.constant 2162688000 : i64
// CHECK-NOT: llvm.getelementptr %{{[0-9a-z_]+}}[{{-?[0-9]+}}]
// CHECK: llvm.getelementptr %{{[0-9a-z_]+}}[%[[FAR]]] : (!llvm.ptr<1>, i64)
// CHECK-NOT: llvm.getelementptr %{{[0-9a-z_]+}}[{{-?[0-9]+}}]
// CHECK: nvvm.cp.async.shared.global

// CHECK-LABEL: gpu.func @one_chunk_rows
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: arith.divui
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @zero_start(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @far(%src: memref<70000x8192xf32>) workgroup(%dst: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %row = arith.constant 66000 : index
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<70000x8192xf32>, memref<8x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @one_chunk_rows(%src: memref<64x128xf32>, %i: index) workgroup(%dst: memref<64x4xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x4xf32, 3>, index, index) -> ()
    gpu.return
  }
}
