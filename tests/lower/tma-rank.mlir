// TMA loads of rank 1 to 5; a tile of lower rank than src has leading window
// dimensions of length 1 (SPEC §1.1), which the box keeps.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .entry
// PTX: cp.{{(reduce.)?}}async.bulk.tensor.{{[1-5]}}d

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @rank1
  // CHECK-SAME: box = array<i64: 64>
  // CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{[^,]*}}] :
  gpu.func @rank1(%src: memref<1024xf32>, %i: index) workgroup(%tile: memref<64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (memref<1024xf32>, memref<64xf32, 3>, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @rank3_tile2
  // CHECK-SAME: box = array<i64: 1, 16, 32>
  // CHECK: %[[BYTES:.*]] = arith.constant 1024 : i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}] :
  gpu.func @rank3_tile2(%src: memref<8x64x128xf16>, %i: index, %j: index, %k: index) workgroup(%tile: memref<16x32xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %k, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<8x64x128xf16>, memref<16x32xf16, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @rank5
  // CHECK-SAME: box = array<i64: 1, 2, 2, 4, 16>
  // CHECK: arith.constant 2048 : i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}] :
  gpu.func @rank5(%src: memref<2x4x8x16x64xi64>, %i: index) workgroup(%tile: memref<1x2x2x4x16xi64, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xi64>, memref<1x2x2x4x16xi64, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
