// Leader-tracked loads (sm_100a): the cta_group::2 form, the pair leader's
// barrier through mapa, and an expect_tx of twice the window on the leader
// only. "partitioned" moves each CTA's window by one window along
// partition_axis; "replicated" also multicasts half a window from each CTA.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .entry
// PTX: cp.{{(reduce.)?}}async.bulk.tensor.{{[1-5]}}d

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @partitioned
  // CHECK-SAME: box = array<i64: 64, 64>
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK: %[[INDEX:.*]] = arith.andi %[[RANK]], %[[ONE]] : i32
  // CHECK: %[[LEADER:.*]] = arith.subi %[[RANK]], %[[INDEX]] : i32
  // CHECK: %[[IX:.*]] = arith.index_cast %[[INDEX]] : i32 to index
  // CHECK: %[[MOVE:.*]] = arith.muli %[[IX]], %{{.*}} : index
  // CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[MOVE]] : index
  // CHECK: memref.extract_aligned_pointer_as_index %{{.*}} : memref<1xi64, 3>
  // CHECK: %[[BAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
  // CHECK: %[[REMOTE:.*]] = nvvm.mapa %[[BAR]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK: %[[INT:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i64
  // CHECK: %[[LBAR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr<3>
  // CHECK: %[[IS_LEADER:.*]] = arith.cmpi eq, %[[INDEX]], %{{.*}} : i32
  // CHECK: scf.if
  // CHECK: %[[BYTES:.*]] = arith.constant 16384 : i32
  // CHECK: scf.if %[[IS_LEADER]] {
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]]
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[LBAR]], box[%{{.*}}, %{{.*}}] {group = #nvvm.cta_group<cta_2>} :
  gpu.func @partitioned(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64, swizzle = 128 : i64} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @replicated
  // CHECK-SAME: box = array<i64: 32, 64>
  // CHECK: %[[PAIR:.*]] = arith.constant 3 : i32
  // CHECK: %[[MASK32:.*]] = arith.shli %[[PAIR]], %{{.*}} : i32
  // CHECK: %[[MASK:.*]] = arith.trunci %[[MASK32]] : i32 to i16
  // CHECK: nvvm.mapa
  // CHECK: arith.constant 16384 : i32
  // CHECK: nvvm.mbarrier.arrive.expect_tx
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} :
  gpu.func @replicated(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], leader_tracked = "replicated", swizzle = 128 : i64} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
