// TMA stores: every thread fences its shared-memory writes to the async
// proxy, the block synchronises, thread (0,0,0) issues the bulk tensor store
// (or reduction) and commits the bulk group; the wait is a bulk wait_group on
// every thread and a block barrier.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @store
  // CHECK-SAME: (%{{[^:]*}}: memref<256x512xf32>, %[[I:[^:]*]]: index, %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x32xf32, 3> {llvm.align = 128 : i64})
  // Constants and thread indices are built once, at the top of the kernel,
  // and so is the tile pointer, which both paths of the start check use; the
  // first-thread test and the start check are built in place, after the fence.
  // (The lowering builds each constant once per kernel: one zero serves every
  // compare.)
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
  // CHECK: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
  // CHECK-NEXT: %[[SRC:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
  // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
  // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
  // CHECK-NEXT: %[[Z:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[Z]] : i1
  // The dynamic start is checked: TMA only where the column is 4 f32 (16 bytes)
  // aligned and no coordinate is negative (a TMA store traps on either).
  // CHECK-NEXT: %[[LOW:.*]] = arith.andi %[[I]], %[[C3]] : index
  // CHECK-NEXT: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %[[C0]] : index
  // CHECK-NEXT: %[[BITS:.*]] = arith.ori %[[I]], %[[I]] : index
  // CHECK-NEXT: %[[SIGN:.*]] = arith.cmpi sge, %[[BITS]], %[[C0]] : index
  // CHECK-NEXT: %[[TMA:.*]] = arith.andi %[[ALIGNED]], %[[SIGN]] : i1
  // CHECK-NEXT: scf.if %[[TMA]] {
  // CHECK-NEXT: %[[X:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[SRC]], box[%[[X]], %[[X]]] : !llvm.ptr, <3>
  // CHECK-NEXT: }
  // CHECK-NEXT: } else {
  // Otherwise every thread stores elements, skipping those outside dst (256x512).
  // CHECK: scf.for
  // CHECK: arith.cmpi ult, %{{.*}}, %c256 : index
  // CHECK: arith.cmpi ult, %{{.*}}, %c512{{.*}} : index
  // The f32 elements move as i32: a copy moves bits (tma-element-store-f8.mlir).
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // The bulk group is committed on either path.
  // CHECK: scf.if %[[FIRST]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: }
  // CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0
  // CHECK-NOT: {read}
  // CHECK-NEXT: gpu.barrier
  // PTX-LABEL: .entry store(
  // PTX: .param .align 64 .b8 store_param_8[128]
  // PTX: fence.proxy.async.shared::cta;
  // PTX-NEXT: bar.sync 0;
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_store_0];
  // PTX: cp.async.bulk.commit_group;
  // PTX: cp.async.bulk.wait_group 0;
  // PTX-NEXT: bar.sync 0;
  gpu.func @store(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // A dynamic innermost start the alignment proof reads as a multiple of 4 f32
  // (16 bytes) is not checked at run time: only the sign is. A shard-8 mutation
  // survivor (2026-12-03: the proof ignored on the store path) added the check.
  // CHECK-LABEL: gpu.func @proved_start
  // CHECK-SAME: (%{{[^:]*}}: memref<256x512xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
  // CHECK: %[[COL:.*]] = arith.muli %[[J]], %{{.*}} : index
  // CHECK: gpu.barrier
  // CHECK-NEXT: arith.cmpi eq
  // CHECK-NEXT: arith.cmpi eq
  // CHECK-NEXT: arith.andi
  // CHECK-NEXT: arith.cmpi eq
  // CHECK-NEXT: arith.andi
  // CHECK-NEXT: %[[BITS:.*]] = arith.ori %[[I]], %[[COL]] : index
  // CHECK-NEXT: %[[SIGN:.*]] = arith.cmpi sge, %[[BITS]], %{{.*}} : index
  // CHECK-NEXT: scf.if %[[SIGN]] {
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
  gpu.func @proved_start(%dst: memref<256x512xf32>, %i: index, %j: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %col = arith.muli %j, %c4 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // The predicate guards the store, not the commit, so `pending` counts the
  // same groups whatever the predicate; commit_group = false leaves the group open.
  // CHECK-LABEL: gpu.func @predicated
  // CHECK-SAME: %[[I:[^:]*]]: index, %[[P:[^:]*]]: i1, %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x32xf32, 3> {llvm.align = 128 : i64})
  // What both stores use (the tile pointer, the coordinate, the element
  // path's thread numbering) is built once, before the first fence.
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
  // CHECK: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
  // CHECK-NEXT: %[[SRC:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
  // CHECK: %[[X:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK: nvvm.fence.proxy
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
  // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
  // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
  // CHECK-NEXT: %[[Z:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[Z]] : i1
  // CHECK-NEXT: %[[LOW:.*]] = arith.andi %[[I]], %[[C3]] : index
  // CHECK-NEXT: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %[[C0]] : index
  // CHECK-NEXT: %[[BITS:.*]] = arith.ori %[[I]], %[[I]] : index
  // CHECK-NEXT: %[[SIGN:.*]] = arith.cmpi sge, %[[BITS]], %[[C0]] : index
  // CHECK-NEXT: %[[TMA:.*]] = arith.andi %[[ALIGNED]], %[[SIGN]] : i1
  // CHECK-NEXT: scf.if %[[TMA]] {
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: scf.if %[[P]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[SRC]], box[%[[X]], %[[X]]] : !llvm.ptr, <3>
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.if %[[P]] {
  // CHECK: llvm.store
  // CHECK: scf.if %[[FIRST]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: }
  // The second store (commit_group = false) reuses the first-thread test and
  // the start check, and commits nothing.
  // CHECK-NEXT: nvvm.fence.proxy
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: scf.if %[[TMA]] {
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[SRC]], box[%[[X]], %[[X]]] : !llvm.ptr, <3>
  // CHECK-NEXT: }
  // CHECK-NEXT: } else {
  // CHECK-NOT: nvvm.cp.async.bulk.commit.group
  // CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
  // PTX-LABEL: .entry predicated(
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
  // PTX: cp.async.bulk.commit_group;
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
  // PTX-NOT: cp.async.bulk.commit_group;
  // PTX: cp.async.bulk.wait_group.read 1;
  // PTX-NEXT: bar.sync 0;
  gpu.func @predicated(%dst: memref<256x512xf32>, %i: index, %p: i1) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, commit_group = false} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 1 : i64, read_only = true} : () -> ()
    gpu.return
  }

  // A rank-3 store: dst[i, j, k] is coordinate (k, j, i).
  // CHECK-LABEL: gpu.func @rank3
  // CHECK-SAME: (%{{.*}}: memref<8x64x128xf16>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index, %[[MAP:.*]]: !llvm.ptr
  // CHECK-SAME: box = array<i64: 2, 16, 32>
  // CHECK-DAG: %[[Z:.*]] = arith.index_cast %[[I]] : index to i32
  // CHECK-DAG: %[[Y:.*]] = arith.index_cast %[[J]] : index to i32
  // CHECK-DAG: %[[X:.*]] = arith.index_cast %[[K]] : index to i32
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{.*}}, box[%[[X]], %[[Y]], %[[Z]]] : !llvm.ptr, <3>
  // PTX-LABEL: .entry rank3(
  // PTX-DAG: ld.param.b64 %[[Z64:rd[0-9]+]], [rank3_param_9];
  // PTX-DAG: ld.param.b64 %[[Y64:rd[0-9]+]], [rank3_param_10];
  // PTX-DAG: ld.param.b64 %[[X64:rd[0-9]+]], [rank3_param_11];
  // PTX-DAG: cvt.u32.u64 %[[Z:r[0-9]+]], %[[Z64]];
  // PTX-DAG: cvt.u32.u64 %[[Y:r[0-9]+]], %[[Y64]];
  // PTX-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[X64]];
  // PTX: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%[[X]], %[[Y]], %[[Z]]}], [__wg_rank3_0];
  gpu.func @rank3(%dst: memref<8x64x128xf16>, %i: index, %j: index, %k: index) workgroup(%tile: memref<2x16x32xf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %j, %k) {operandSegmentSizes = array<i32: 1, 1, 3, 0>} : (memref<2x16x32xf16, 3>, memref<8x64x128xf16>, index, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // Reductions: smin/smax are min/max on the signed tensor map; f16 min/max
  // use the second map. The starts are promised aligned (no run-time check, so
  // no atomics path: tma-misaligned-start.mlir has that).
  // CHECK-LABEL: gpu.func @reductions
  // CHECK-SAME: %[[IMAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64}, %[[HMAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<add>}
  // CHECK-NOT: llvm.atomicrmw
  // CHECK: nvvm.cp.async.bulk.commit.group
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<min>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<max>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<and>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<or>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[IMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<xor>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[HMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<min>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %[[HMAP]], %{{.*}} {redKind = #nvvm.tma_redux_kind<max>}
  // CHECK-NOT: nvvm.cp.async.bulk.tensor.reduce
  // PTX-LABEL: .entry reductions(
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%[[I32MAP:rd[0-9]+]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
  // PTX: cp.async.bulk.commit_group;
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%[[I32MAP]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%[[I32MAP]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [%[[I32MAP]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group [%[[I32MAP]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group [%[[I32MAP]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%[[F16MAP:rd[0-9]+]],
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%[[F16MAP]],
  // PTX-NOT: cp.reduce
  gpu.func @reductions(%dst: memref<256x512xi32>, %h: memref<256x512xf16>, %i: index)
      workgroup(%tile: memref<64x32xi32, 3>, %htile: memref<64x64xf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smax"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "and"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "or"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "xor"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%htile, %h, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "min"} : (memref<64x64xf16, 3>, memref<256x512xf16>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%htile, %h, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "max"} : (memref<64x64xf16, 3>, memref<256x512xf16>, index, index) -> ()
    gpu.return
  }
}
