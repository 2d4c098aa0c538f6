// A plain TMA load on sm_90: thread (0,0,0) adds the window's bytes to the
// barrier and issues one bulk tensor copy, coordinates innermost first; the
// tensor map is a new trailing kernel parameter, recorded in acopy.tensor_maps;
// the tile gets the 128-byte alignment TMA needs.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// src[i, j] is coordinate (j, i); the barrier expects 64 * 32 * 4 bytes.
// PTX-LABEL: .entry load(
// PTX: .param .align 64 .b8 load_param_9[128]
// PTX-DAG: ld.param.b64 %[[Y64:rd[0-9]+]], [load_param_7];
// PTX-DAG: ld.param.b64 %[[X64:rd[0-9]+]], [load_param_8];
// The innermost start j (f32) is checked for 16-byte alignment: j & 3.
// PTX: and.b64 %{{rd[0-9]+}}, %[[X64]], 3;
// PTX-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[X64]];
// PTX-DAG: cvt.u32.u64 %[[Y:r[0-9]+]], %[[Y64]];
// PTX: mov.b32 %[[BYTES:r[0-9]+]], 8192;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_load_1], %[[BYTES]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[X]], %[[Y]]}], [__wg_load_1];
// PTX-NOT: multicast
// PTX-NOT: cta_group

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @load
  // CHECK-SAME: (%[[SRC:.*]]: memref<256x512xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x32xf32, 3> {llvm.align = 128 : i64}, %[[BAR:.*]] : memref<1xi64, 3>)
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>, element_type = f32, oob_fill = "none", param = 3 : i64, swizzle = 0 : i64}]
  gpu.func @load(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    // Constants and thread-index reads are built once, at the top of the
    // kernel, then the tile and barrier pointers, which both branches of the
    // run-time start check use; what only the TMA branch uses (coordinates,
    // the cluster tile pointer, the first-thread predicate) is built there,
    // next to its use.
    // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
    // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
    // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
    // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
    // CHECK-DAG: %[[BYTES:.*]] = arith.constant 8192 : i32
    // CHECK: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
    // CHECK: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
    // CHECK: %[[T3:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
    // CHECK: %[[B:.*]] = memref.extract_aligned_pointer_as_index %[[BAR]]
    // CHECK: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
    // CHECK: %[[B3:.*]] = llvm.inttoptr %[[B64]] : i64 to !llvm.ptr<3>
    // CHECK: %[[MIS:.*]] = arith.andi %[[J]], %[[C3]] : index
    // CHECK-NEXT: %[[ALIGNED:.*]] = arith.cmpi eq, %[[MIS]], %[[C0]] : index
    // CHECK-NEXT: scf.if %[[ALIGNED]] {
    // CHECK-NEXT: %[[X:.*]] = arith.index_cast %[[J]] : index to i32
    // CHECK-NEXT: %[[Y:.*]] = arith.index_cast %[[I]] : index to i32
    // CHECK-NEXT: %[[T7:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr<7>
    // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
    // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
    // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
    // CHECK-NEXT: %[[EZ:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
    // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[EZ]] : i1
    // CHECK-NEXT: scf.if %[[FIRST]] {
    // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[B3]], %[[BYTES]] : !llvm.ptr<3>, i32
    // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[T7]], %[[MAP]], %[[B3]], box[%[[X]], %[[Y]]] : !llvm.ptr<7>, !llvm.ptr
    // CHECK-NEXT: }
    // CHECK-NOT: acopy.
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
