// TMA on sm_90 down to PTX: a __grid_constant__ CUtensorMap parameter read
// through cvta.param, expect_tx then the bulk tensor load of every rank, the
// try_wait.parity loop, and the bulk tensor store with its bulk group.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// CHECK: .version 8.0
// CHECK: .target sm_90
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: .visible .entry load(
  // CHECK: .param .align 64 .b8 load_param_[[MAP:[0-9]+]][128]
  // src[i, j] is coordinate (j, i); j, the innermost, is checked for alignment.
  // CHECK-DAG: ld.param.b64 %[[J64:rd[0-9]+]], [load_param_8];
  // CHECK-DAG: mov.b64 %[[P:rd[0-9]+]], load_param_[[MAP]];
  // CHECK-DAG: cvta.param.u64 %[[M:rd[0-9]+]], %[[P]];
  // CHECK-DAG: mbarrier.init.shared.b64
  // CHECK-DAG: and.b64 %{{rd[0-9]+}}, %[[J64]], 3;
  // CHECK-DAG: ld.param.b64 %[[I64:rd[0-9]+]], [load_param_7];
  // CHECK-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[J64]];
  // CHECK-DAG: cvt.u32.u64 %[[Y:r[0-9]+]], %[[I64]];
  // CHECK: mov.b32 %[[BYTES:r[0-9]+]], 8192;
  // CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 %{{.*}}, [{{.*}}], %[[BYTES]];
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%{{rd[0-9]+}}], [%[[M]], {%[[X]], %[[Y]]}], [{{.*}}];
  // CHECK: mov.b32 %[[PARITY:r[0-9]+]], 0;
  // CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [{{.*}}], %[[PARITY]];
  gpu.func @load(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }

  // CHECK-LABEL: .visible .entry ranks(
  // CHECK-COUNT-5: .param .align 64 .b8 ranks_param_{{[0-9]+}}[128]
  // CHECK-DAG: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
  // CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
  // CHECK-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
  // CHECK-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
  // CHECK-DAG: cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
  gpu.func @ranks(%a: memref<1024xf32>, %b: memref<64x64xf32>, %c: memref<8x64x64xf32>, %d: memref<4x8x64x64xf32>, %e: memref<2x4x8x64x64xf32>, %i: index)
      workgroup(%tile: memref<2x4x64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %t1 = memref.subview %tile[0, 0, 0] [1, 1, 64] [1, 1, 1] : memref<2x4x64xf32, 3> to memref<64xf32, strided<[1]>, 3>
    "acopy.copy_gmem_to_smem"(%a, %t1, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (memref<1024xf32>, memref<64xf32, strided<[1]>, 3>, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%b, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<64x64xf32>, memref<64xf32, strided<[1]>, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%c, %tile, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<8x64x64xf32>, memref<2x4x64xf32, 3>, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%d, %tile, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 4, 1, 0>} : (memref<4x8x64x64xf32>, memref<2x4x64xf32, 3>, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%e, %tile, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x64x64xf32>, memref<2x4x64xf32, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // CHECK-LABEL: .visible .entry store(
  // CHECK: .param .align 64 .b8 store_param_{{[0-9]+}}[128]
  // CHECK: fence.proxy.async.shared::cta;
  // CHECK: bar.sync 0;
  // CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%{{rd[0-9]+}}, {%{{r[0-9]+}}, %{{r[0-9]+}}}], [{{.*}}];
  // CHECK: cp.async.bulk.commit_group;
  // CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
  // CHECK: cp.async.bulk.commit_group;
  // CHECK: cp.async.bulk.wait_group.read 0;
  gpu.func @store(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {read_only = true} : () -> ()
    gpu.return
  }
}
