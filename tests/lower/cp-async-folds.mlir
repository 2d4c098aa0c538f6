// The cp.async lowering folds what is known when it builds (docs/lowering-cp-async.md):
// a zero start adds no offset to the base pointer, and a tile row of exactly one
// chunk needs no division to find a chunk's row. Each kernel pins the fold by the
// op that would appear without it.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir

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

// A block of one thread issues every chunk itself, so each chunk's number is a
// constant and its row and column fold (a constant divided and taken modulo the
// chunks per row, 2, and the rows per plane, 2): each chunk's offsets are
// constant GEP indices, in order. Source rows are 256 bytes apart, planes 1024;
// the tile is dense (16 bytes a chunk).
// CHECK-LABEL: gpu.func @one_thread
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: nvvm.cp.async.shared.global %[[DST:[0-9a-z_]+]], %[[SRC:[0-9a-z_]+]], 16, cache =  cg
// CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[SRC]][16] :
// CHECK-NEXT: %[[D1:.*]] = llvm.getelementptr %[[DST]][16] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D1]], %[[S1]], 16
// CHECK-NEXT: %[[S2:.*]] = llvm.getelementptr %[[SRC]][256] :
// CHECK-NEXT: %[[D2:.*]] = llvm.getelementptr %[[DST]][32] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D2]], %[[S2]], 16
// CHECK-NEXT: %[[S3:.*]] = llvm.getelementptr %[[SRC]][272] :
// CHECK-NEXT: %[[D3:.*]] = llvm.getelementptr %[[DST]][48] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D3]], %[[S3]], 16
// CHECK-NEXT: %[[S4:.*]] = llvm.getelementptr %[[SRC]][1024] :
// CHECK-NEXT: %[[D4:.*]] = llvm.getelementptr %[[DST]][64] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D4]], %[[S4]], 16
// CHECK-NEXT: %[[S5:.*]] = llvm.getelementptr %[[SRC]][1040] :
// CHECK-NEXT: %[[D5:.*]] = llvm.getelementptr %[[DST]][80] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D5]], %[[S5]], 16
// CHECK-NEXT: %[[S6:.*]] = llvm.getelementptr %[[SRC]][1280] :
// CHECK-NEXT: %[[D6:.*]] = llvm.getelementptr %[[DST]][96] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D6]], %[[S6]], 16
// CHECK-NEXT: %[[S7:.*]] = llvm.getelementptr %[[SRC]][1296] :
// CHECK-NEXT: %[[D7:.*]] = llvm.getelementptr %[[DST]][112] :
// CHECK-NEXT: nvvm.cp.async.shared.global %[[D7]], %[[S7]], 16
// CHECK-NEXT: nvvm.cp.async.commit.group
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
  gpu.func @one_thread(%src: memref<4x4x64xf32>) workgroup(%dst: memref<2x2x8xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x4x64xf32>, memref<2x2x8xf32, 3>, index, index, index) -> ()
    gpu.return
  }
}
