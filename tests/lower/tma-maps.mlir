// Tensor maps: one trailing kernel parameter per distinct (argument, element
// type, box, swizzle, OOB fill), shared by the copies that match, in the order
// first needed; a memref.subview of an argument uses the argument's map, with
// the view's offsets added to the coordinates.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @shared_maps
  // CHECK-SAME: (%{{.*}}: memref<256x512xf32>, %{{.*}}: memref<128x128xf32>, %{{.*}}: index, %[[M0:.*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[M1:.*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[M2:.*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>, {{.*}} param = 3 : i64, {{.*}}}, {arg = 1 : i64, box = array<i64: 64, 32>, {{.*}} param = 4 : i64, {{.*}}}, {arg = 0 : i64, box = array<i64: 32, 32>, {{.*}} param = 5 : i64, {{.*}}}]
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[M0]],
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[M0]],
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[M1]],
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[M2]],
  // A store with the same key shares the load's map.
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M0]],
  // PTX-LABEL: .entry shared_maps(
  // PTX: .param .align 64 .b8 shared_maps_param_15[128],
  // PTX-NEXT: .param .align 64 .b8 shared_maps_param_16[128],
  // PTX-NEXT: .param .align 64 .b8 shared_maps_param_17[128]
  // PTX-DAG: mov.b64 %[[P2:rd[0-9]+]], shared_maps_param_17;
  // PTX-DAG: cvta.param.u64 %[[A2:rd[0-9]+]], %[[P2]];
  // PTX-DAG: mov.b64 %[[P1:rd[0-9]+]], shared_maps_param_16;
  // PTX-DAG: cvta.param.u64 %[[B:rd[0-9]+]], %[[P1]];
  // PTX-DAG: mov.b64 %[[P0:rd[0-9]+]], shared_maps_param_15;
  // PTX-DAG: cvta.param.u64 %[[A:rd[0-9]+]], %[[P0]];
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[A]], {
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[A]], {
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[B]], {
  // PTX: mov.b32 %[[SMALL:r[0-9]+]], 4096;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_shared_maps_2], %[[SMALL]];
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[A2]], {
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[A]], {
  gpu.func @shared_maps(%a: memref<256x512xf32>, %b: memref<128x128xf32>, %i: index)
      workgroup(%t0: memref<64x32xf32, 3>, %t1: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%a, %t0, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%a, %t0, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%b, %t0, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x128xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%a, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<32x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_smem_to_gmem"(%t0, %a, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }

  // The window [0, 64) x [0, 32) stays inside the 128x256 view, so zero-fill
  // is not at stake; the coordinates are the view's offsets plus the indices.
  // CHECK-LABEL: gpu.func @subview
  // CHECK-SAME: (%[[SRC:.*]]: memref<256x512xf32>, %[[R:.*]]: index, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>
  // The constant column offset folds to an i32 constant.
  // CHECK-DAG: %[[X:.*]] = arith.constant 16 : i32
  // CHECK-DAG: %[[Y:.*]] = arith.index_cast %[[R]] : index to i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%[[X]], %[[Y]]]
  // PTX-LABEL: .entry subview(
  // PTX: ld.param.b32 %[[Y:r[0-9]+]], [subview_param_7];
  // PTX: mov.b32 %[[X:r[0-9]+]], 16;
  // PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[X]], %[[Y]]}], [__wg_subview_1];
  gpu.func @subview(%src: memref<256x512xf32>, %r: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %view = memref.subview %src[%r, 16] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1], offset: ?>>
    "acopy.copy_gmem_to_smem"(%view, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // With oob_mode = "undefined" the window may leave the view: the values
  // outside it are unspecified, and TMA reads the argument there.
  // CHECK-LABEL: gpu.func @subview_undefined
  // CHECK-SAME: (%{{.*}}: memref<256x512xf32>, %[[R:.*]]: index, %[[C:.*]]: index, %{{.*}}: !llvm.ptr
  // CHECK-DAG: %[[ROW:.*]] = arith.addi %[[C]], %[[R]] : index
  // CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
  // CHECK-DAG: %[[COL:.*]] = arith.addi %[[C]], %[[C16]] : index
  // CHECK-DAG: %[[X:.*]] = arith.index_cast %[[COL]] : index to i32
  // CHECK-DAG: %[[Y:.*]] = arith.index_cast %[[ROW]] : index to i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%[[X]], %[[Y]]]
  gpu.func @subview_undefined(%src: memref<256x512xf32>, %r: index, %c: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[%r, 16] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1], offset: ?>>
    "acopy.copy_gmem_to_smem"(%view, %tile, %c, %c, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
