// TMA loads of rank 1 to 5; a tile of lower rank than src has leading window
// dimensions of length 1 (docs/dialect.md), which the box keeps.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90
// Coordinates are innermost first: each index is a distinct kernel argument,
// so the checks see which goes where. The byte count, a constant, is built at
// the top of the kernel; the coordinates are cast next to the copy, in the
// TMA branch of the run-time start check.

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @rank1
  // CHECK-SAME: (%{{.*}}: memref<1024xf32>, %[[I:.*]]: index, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: box = array<i64: 64>
  // CHECK: %[[BYTES:.*]] = arith.constant 256 : i32
  // CHECK: %[[X:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %[[BAR]], box[%[[X]]] :
  // PTX-LABEL: .entry rank1(
  // PTX: ld.param.b64 %[[X64:rd[0-9]+]], [rank1_param_5];
  // PTX-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[X64]];
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 256;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_rank1_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[X]]}], [__wg_rank1_1];
  gpu.func @rank1(%src: memref<1024xf32>, %i: index) workgroup(%tile: memref<64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (memref<1024xf32>, memref<64xf32, 3>, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // src[i, j, k] is coordinate (k, j, i).
  // CHECK-LABEL: gpu.func @rank3_tile2
  // CHECK-SAME: (%{{.*}}: memref<8x64x128xf16>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index, %[[MAP:.*]]: !llvm.ptr
  // CHECK-SAME: box = array<i64: 1, 16, 32>
  // CHECK: %[[BYTES:.*]] = arith.constant 1024 : i32
  // CHECK-DAG: %[[Z:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK-DAG: %[[Y:.*]] = arith.index_cast %[[J]] : index to i32
  // CHECK-DAG: %[[X:.*]] = arith.index_cast %[[K]] : index to i32
  // CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %[[BAR]], box[%[[X]], %[[Y]], %[[Z]]] :
  // PTX-LABEL: .entry rank3_tile2(
  // PTX-DAG: ld.param.b64 %[[Z64:rd[0-9]+]], [rank3_tile2_param_9];
  // PTX-DAG: ld.param.b64 %[[Y64:rd[0-9]+]], [rank3_tile2_param_10];
  // PTX-DAG: ld.param.b64 %[[X64:rd[0-9]+]], [rank3_tile2_param_11];
  // PTX-DAG: cvt.u32.u64 %[[Z:r[0-9]+]], %[[Z64]];
  // PTX-DAG: cvt.u32.u64 %[[Y:r[0-9]+]], %[[Y64]];
  // PTX-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[X64]];
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 1024;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_rank3_tile2_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[X]], %[[Y]], %[[Z]]}], [__wg_rank3_tile2_1];
  gpu.func @rank3_tile2(%src: memref<8x64x128xf16>, %i: index, %j: index, %k: index) workgroup(%tile: memref<16x32xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %k, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<8x64x128xf16>, memref<16x32xf16, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // src[i, j, k, l, m] is coordinate (m, l, k, j, i).
  // CHECK-LABEL: gpu.func @rank5
  // CHECK-SAME: (%{{.*}}: memref<2x4x8x16x64xi64>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index, %[[L:.*]]: index, %[[M:.*]]: index, %[[MAP:.*]]: !llvm.ptr
  // CHECK-SAME: box = array<i64: 1, 2, 2, 4, 16>
  // CHECK: %[[BYTES:.*]] = arith.constant 2048 : i32
  // CHECK-DAG: %[[C4:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK-DAG: %[[C3:.*]] = arith.index_cast %[[J]] : index to i32
  // CHECK-DAG: %[[C2:.*]] = arith.index_cast %[[K]] : index to i32
  // CHECK-DAG: %[[C1:.*]] = arith.index_cast %[[L]] : index to i32
  // CHECK-DAG: %[[C0:.*]] = arith.index_cast %[[M]] : index to i32
  // CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %[[BAR]], box[%[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]]] :
  // PTX-LABEL: .entry rank5(
  // PTX-DAG: ld.param.b64 %[[C464:rd[0-9]+]], [rank5_param_13];
  // PTX-DAG: ld.param.b64 %[[C364:rd[0-9]+]], [rank5_param_14];
  // PTX-DAG: ld.param.b64 %[[C264:rd[0-9]+]], [rank5_param_15];
  // PTX-DAG: ld.param.b64 %[[C164:rd[0-9]+]], [rank5_param_16];
  // PTX-DAG: ld.param.b64 %[[C064:rd[0-9]+]], [rank5_param_17];
  // PTX-DAG: cvt.u32.u64 %[[C4:r[0-9]+]], %[[C464]];
  // PTX-DAG: cvt.u32.u64 %[[C3:r[0-9]+]], %[[C364]];
  // PTX-DAG: cvt.u32.u64 %[[C2:r[0-9]+]], %[[C264]];
  // PTX-DAG: cvt.u32.u64 %[[C1:r[0-9]+]], %[[C164]];
  // PTX-DAG: cvt.u32.u64 %[[C0:r[0-9]+]], %[[C064]];
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 2048;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_rank5_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]]}], [__wg_rank5_1];
  gpu.func @rank5(%src: memref<2x4x8x16x64xi64>, %i: index, %j: index, %k: index, %l: index, %m: index) workgroup(%tile: memref<1x2x2x4x16xi64, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %k, %l, %m, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xi64>, memref<1x2x2x4x16xi64, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
