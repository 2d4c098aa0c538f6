// Leader-tracked loads (sm_100a): the cta_group::2 form, the pair leader's
// barrier through mapa, and an expect_tx of twice the window on the leader
// only. "partitioned" moves each CTA's window by one window along
// partition_axis; "replicated" also multicasts half a window from each CTA.
// CTA-pair copies have no non-TMA path, so their dynamic starts carry the
// frontend's promise `assume_aligned_start` (docs/lowering-tma.md).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_100a

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @partitioned
  // CHECK-SAME: (%{{.*}}: memref<256x512xbf16>, %[[I:.*]]: index, %[[J:.*]]: index, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x64xbf16, 3> {llvm.align = 1024 : i64}, %[[BARMEM:.*]] : memref<1xi64, 3>)
  // CHECK-SAME: box = array<i64: 64, 64>
  // The rank read and the constants are built once, at the top of the kernel;
  // the rest in place, in order of use.
  // CHECK-DAG: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[WINDOW:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[ZERO32:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[BYTES:.*]] = arith.constant 16384 : i32
  // CHECK: %[[INDEX:.*]] = arith.andi %[[RANK]], %[[ONE]] : i32
  // CHECK-NEXT: %[[LEADER:.*]] = arith.subi %[[RANK]], %[[INDEX]] : i32
  // CHECK-NEXT: %[[IX:.*]] = arith.index_cast %[[INDEX]] : i32 to index
  // CHECK-NEXT: %[[MOVE:.*]] = arith.muli %[[IX]], %[[WINDOW]] : index
  // CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[I]], %[[MOVE]] : index
  // CHECK-NEXT: %[[X:.*]] = arith.index_cast %[[J]] : index to i32
  // CHECK-NEXT: %[[Y:.*]] = arith.index_cast %[[ROW]] : index to i32
  // CHECK-NEXT: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
  // CHECK-NEXT: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
  // CHECK-NEXT: %[[T3:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[T7:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK-NEXT: %[[B:.*]] = memref.extract_aligned_pointer_as_index %[[BARMEM]] : memref<1xi64, 3>
  // CHECK-NEXT: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
  // CHECK-NEXT: %[[BAR:.*]] = llvm.inttoptr %[[B64]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[BAR]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: %[[INT:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i64
  // CHECK-NEXT: %[[LBAR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[IS_LEADER:.*]] = arith.cmpi eq, %[[INDEX]], %[[ZERO32]] : i32
  // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
  // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
  // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
  // CHECK-NEXT: %[[EZ:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[EZ]] : i1
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: scf.if %[[IS_LEADER]] {
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]]
  // CHECK-NEXT: }
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[T7]], %[[MAP]], %[[LBAR]], box[%[[X]], %[[Y]]] {group = #nvvm.cta_group<cta_2>} :
  // The copy completes on the leader's barrier (the mapa result) and is not
  // a multicast.
  // PTX-LABEL: .entry partitioned(
  // PTX: .reqnctapercluster 2, 1, 1
  // PTX: mapa.shared::cluster.u64 %[[LBAR:rd[0-9]+]], %rd{{[0-9]+}}, {{%r[0-9]+|0}};
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 16384;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_partitioned_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%[[LBAR]]];
  gpu.func @partitioned(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64, swizzle = 128 : i64, assume_aligned_start} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @replicated
  // CHECK-SAME: (%{{.*}}: memref<256x512xbf16>, %[[I:.*]]: index, %[[J:.*]]: index, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x64xbf16, 3> {llvm.align = 1024 : i64}, %[[BARMEM:.*]] : memref<1xi64, 3>)
  // CHECK-SAME: box = array<i64: 32, 64>
  // CHECK-DAG: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[HALF:.*]] = arith.constant 32 : index
  // CHECK-DAG: %[[HALF_BYTES:.*]] = arith.constant 4096 : index
  // CHECK-DAG: %[[PAIR:.*]] = arith.constant 3 : i32
  // CHECK-DAG: %[[ZERO32:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[BYTES:.*]] = arith.constant 16384 : i32
  // CHECK: %[[INDEX:.*]] = arith.andi %[[RANK]], %[[ONE]] : i32
  // CHECK-NEXT: %[[LEADER:.*]] = arith.subi %[[RANK]], %[[INDEX]] : i32
  // CHECK-NEXT: %[[IX:.*]] = arith.index_cast %[[INDEX]] : i32 to index
  // CHECK-NEXT: %[[MOVE:.*]] = arith.muli %[[IX]], %[[HALF]] : index
  // CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[I]], %[[MOVE]] : index
  // CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[IX]], %[[HALF_BYTES]] : index
  // CHECK-NEXT: %[[MASK32:.*]] = arith.shli %[[PAIR]], %[[LEADER]] : i32
  // CHECK-NEXT: %[[MASK:.*]] = arith.trunci %[[MASK32]] : i32 to i16
  // CHECK-NEXT: %[[X:.*]] = arith.index_cast %[[J]] : index to i32
  // CHECK-NEXT: %[[Y:.*]] = arith.index_cast %[[ROW]] : index to i32
  // CHECK-NEXT: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
  // CHECK-NEXT: %[[TO:.*]] = arith.addi %[[T]], %[[OFFSET]] : index
  // CHECK-NEXT: %[[T64:.*]] = arith.index_cast %[[TO]] : index to i64
  // CHECK-NEXT: %[[T3:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[T7:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK-NEXT: %[[B:.*]] = memref.extract_aligned_pointer_as_index %[[BARMEM]] : memref<1xi64, 3>
  // CHECK-NEXT: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
  // CHECK-NEXT: %[[BAR:.*]] = llvm.inttoptr %[[B64]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[BAR]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: %[[INT:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i64
  // CHECK-NEXT: %[[LBAR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[IS_LEADER:.*]] = arith.cmpi eq, %[[INDEX]], %[[ZERO32]] : i32
  // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
  // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
  // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
  // CHECK-NEXT: %[[EZ:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[EZ]] : i1
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: scf.if %[[IS_LEADER]] {
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]]
  // CHECK-NEXT: }
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[T7]], %[[MAP]], %[[LBAR]], box[%[[X]], %[[Y]]] multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} :
  // PTX-LABEL: .entry replicated(
  // PTX: .reqnctapercluster 1, 2, 1
  // PTX: mapa.shared::cluster.u64 %[[LBAR:rd[0-9]+]], %rd{{[0-9]+}}, {{%r[0-9]+|0}};
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 16384;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_replicated_1], %[[BYTES]];
  // PTX: mov.b16 %[[MASK:rs[0-9]+]], 3;
  // PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%[[LBAR]]], %[[MASK]];
  gpu.func @replicated(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"], leader_tracked = "replicated", swizzle = 128 : i64, assume_aligned_start} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
