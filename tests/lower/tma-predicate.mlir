// A predicated TMA load: the barrier expects 0 bytes when the predicate is
// false, and the copy is guarded by scf.if (never the op's inline-PTX
// predicate form). Every OOB mode gives the same copy: TMA zero-fills.
// The starts carry `assume_aligned_start`, so only the TMA path is emitted;
// tma-misaligned-start.mlir covers the run-time check and the other path.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// PTX-LABEL: .entry pred(
// PTX: ld.param.b8 %[[RS:rs[0-9]+]], [pred_param_8];
// PTX: and.b16 %[[BIT:rs[0-9]+]], %[[RS]], 1;
// PTX: setp.ne.b16 %[[P:p[0-9]+]], %[[BIT]], 0;
// PTX: selp.b32 %[[BYTES:r[0-9]+]], 8192, 0, %[[P]];
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_pred_1], %[[BYTES]];
// PTX-NEXT: not.pred %[[NOT:p[0-9]+]], %[[P]];
// PTX-NEXT: @%[[NOT]] bra [[SKIP:\$L__BB[0-9_]+]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_pred_1];
// PTX-NEXT: [[SKIP]]:
// PTX-LABEL: .entry modes(
// PTX: mov.b32 %[[FULL:r[0-9]+]], 8192;
// PTX-COUNT-3: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_modes_1], %[[FULL]];

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @pred
  // CHECK-SAME: %[[P:[^:]*]]: i1
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x32xf32, 3> {llvm.align = 128 : i64}, %[[BAR:.*]] : memref<1xi64, 3>)
  // The constants are built once, at the top of the kernel; the byte count is
  // selected next to its use, in the first thread's branch.
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
  // CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
  // CHECK-DAG: %[[FULL:.*]] = arith.constant 8192 : i32
  // CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: %[[B:.*]] = memref.extract_aligned_pointer_as_index %[[BAR]]
  // CHECK-NEXT: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
  // CHECK-NEXT: %[[B3:.*]] = llvm.inttoptr %[[B64]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[EX:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
  // CHECK-NEXT: %[[EY:.*]] = arith.cmpi eq, %[[TY]], %[[C0]] : index
  // CHECK-NEXT: %[[EXY:.*]] = arith.andi %[[EX]], %[[EY]] : i1
  // CHECK-NEXT: %[[EZ:.*]] = arith.cmpi eq, %[[TZ]], %[[C0]] : index
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[EXY]], %[[EZ]] : i1
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK-NEXT: %[[BYTES:.*]] = arith.select %[[P]], %[[FULL]], %[[ZERO]] : i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[B3]], %[[BYTES]]
  // CHECK-NEXT: scf.if %[[P]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK-NOT: predicate =
  // CHECK-SAME: : !llvm.ptr<7>, !llvm.ptr
  gpu.func @pred(%src: memref<256x512xf32>, %i: index, %p: i1) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, assume_aligned_start, oob_mode = "undefined"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @modes
  // CHECK-SAME: oob_fill = "none"
  // CHECK-NOT: oob_fill = "nan
  // CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
  gpu.func @modes(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
