// Elements with no LLVM equivalent (f8E4M3FN, f8E5M2) on the non-TMA paths:
// acopy-verify accepts 8-bit floats, and LLVM cannot load or store them, so
// the element-wise store moves each element's bits as an integer of its width,
// as the cp.async path of a load does. scripts/fuzz.sh found the element-wise
// store loading an f8 value (`'llvm.load' op result #0 must be LLVM type with
// size`) after acopy-verify had accepted the kernel (docs/robustness.md,
// "The fuzzer").
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // A dynamic start: TMA where it is 16-byte aligned, element-wise otherwise.
  // CHECK-LABEL: gpu.func @store_f8
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK: } else {
  // CHECK: scf.for
  // CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i8
  // CHECK-NEXT: llvm.store %[[V]], %{{.*}} : i8, !llvm.ptr<1>
  gpu.func @store_f8(%dst: memref<256x512xf8E4M3FN>, %i: index, %j: index) workgroup(%tile: memref<16x32xf8E4M3FN, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<16x32xf8E4M3FN, 3>, memref<256x512xf8E4M3FN>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
  // The fuzzer's shape: a stride-0 dimension, f8E5M2.
  // CHECK-LABEL: gpu.func @store_f8_strided
  // CHECK: } else {
  // CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i8
  // CHECK-NEXT: llvm.store %[[V]], %{{.*}} : i8, !llvm.ptr<1>
  gpu.func @store_f8_strided(%dst: memref<256x?x32xf8E5M2, strided<[8192, 0, 1]>>, %i: index) workgroup(%tile: memref<64x32xf8E5M2, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %c0, %i, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0>} : (memref<64x32xf8E5M2, 3>, memref<256x?x32xf8E5M2, strided<[8192, 0, 1]>>, index, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
  // A load's non-TMA branch (cp.async, element-wise at the edge) moves i8 too.
  // CHECK-LABEL: gpu.func @load_f8
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
  // CHECK-NOT: f8E4M3FN, !llvm.ptr
  // CHECK: gpu.return
  gpu.func @load_f8(%src: memref<256x512xf8E4M3FN>, %i: index, %j: index) workgroup(%tile: memref<16x32xf8E4M3FN, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf8E4M3FN>, memref<16x32xf8E4M3FN, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
