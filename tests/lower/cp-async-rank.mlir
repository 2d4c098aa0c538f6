// Windows of rank 1 to 5, including a 3-D window walked with src's strides in
// every dimension and a tile that drops a leading window dimension.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx --chip=sm_89 -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_89

// PTX: .version 7.8
// PTX: .target sm_89

// CHECK-LABEL: gpu.func @rank_1
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// PTX-LABEL: .entry rank_1(
// PTX: cp.async.cg.shared.global

// A 4x8x64 f16 window of an 8x64x256 array (address space 1: no cast from a
// generic pointer). Chunk c: 16 bytes at (c mod 8) of row c div 8, whose
// coordinates are (row div 8, row mod 8); src steps 32768 and 512 bytes, the
// tile 1024 and 128.
// CHECK-LABEL: gpu.func @three_d
// CHECK-NOT: llvm.addrspacecast
// The constants are built once, at the top of the kernel.
// CHECK-DAG: %[[S1:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[D1:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[S0:.*]] = arith.constant 32768 : index
// CHECK-DAG: %[[D0:.*]] = arith.constant 1024 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[Q:.*]] = arith.remui %[[C]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.divui %[[C]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.muli %[[Q]], %{{.*}} : index
// CHECK: %[[J1:.*]] = arith.remui %[[ROW]], %{{.*}} : index
// CHECK: %[[J0:.*]] = arith.divui %[[ROW]], %{{.*}} : index
// CHECK: arith.muli %[[J1]], %[[S1]] : index
// CHECK: arith.muli %[[J1]], %[[D1]] : index
// CHECK: arith.muli %[[J0]], %[[S0]] : index
// CHECK: arith.muli %[[J0]], %[[D0]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// PTX-LABEL: .entry three_d(
// PTX: cp.async.cg.shared.global

// A rank-2 tile from a rank-3 array: the leading window dimension has length 1
// and only moves the start, (i * 16384 + 8 * 256) * 2 bytes.
// CHECK-LABEL: gpu.func @rank_reducing
// CHECK: %[[I:.*]] = arith.muli %arg1, %{{.*}} : index
// CHECK: %[[START:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: arith.muli %[[START]], %{{.*}} : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg

// Rank 5 with dynamic strides: four row dimensions, each stepped with its
// stride from the metadata.
// CHECK-LABEL: gpu.func @rank_5
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:5, %[[STRIDES:.*]]:5 = memref.extract_strided_metadata %arg0
// CHECK-DAG: arith.muli %[[STRIDES]]#0, %{{.*}} : index
// CHECK-DAG: arith.muli %[[STRIDES]]#1, %{{.*}} : index
// CHECK-DAG: arith.muli %[[STRIDES]]#2, %{{.*}} : index
// CHECK-DAG: arith.muli %[[STRIDES]]#3, %{{.*}} : index
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// PTX-LABEL: .entry rank_5(
// PTX: cp.async.cg.shared.global
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @rank_1(%src: memref<1024xf32>) workgroup(%tile : memref<256xf32, 3>) kernel {
    %c512 = arith.constant 512 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c512) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<1024xf32>, memref<256xf32, 3>, index) -> ()
    gpu.return
  }
  gpu.func @three_d(%src: memref<8x64x256xf16, 1>, %i: index) workgroup(%tile : memref<4x8x64xf16, #gpu.address_space<workgroup>>) kernel {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c8, %c64) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<8x64x256xf16, 1>, memref<4x8x64xf16, #gpu.address_space<workgroup>>, index, index, index) -> ()
    gpu.return
  }
  gpu.func @rank_reducing(%src: memref<8x64x256xf16>, %i: index) workgroup(%tile : memref<8x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c8, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<8x64x256xf16>, memref<8x64xf16, 3>, index, index, index) -> ()
    gpu.return
  }
  gpu.func @rank_5(%src: memref<?x?x?x?x?xf32>, %i: index) workgroup(%tile : memref<2x2x2x2x8xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 5, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<?x?x?x?x?xf32>, memref<2x2x2x2x8xf32, 3>, index, index, index, index, index) -> ()
    gpu.return
  }
}
