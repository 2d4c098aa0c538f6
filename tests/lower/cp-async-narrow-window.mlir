// A window narrower than src's rows is read row by row with src's strides: the
// 32x128 window of a 256x512 f32 array at a non-zero column. Row r of the window
// is 2048 bytes after row r-1 in src, and 512 bytes in the tile.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @constant_column
// The window start, (32 * 512 + 128) * 4 bytes, is folded into a constant
// byte offset from the converted base pointer. Constants are built once, at
// the top of the kernel.
// CHECK-DAG: %[[SRC_ROW:.*]] = arith.constant 2048 : index
// CHECK-DAG: %[[DST_ROW:.*]] = arith.constant 512 : index
// CHECK: %[[BASE:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: llvm.getelementptr %[[BASE]][66048] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[T:.*]] step %{{.*}} {
// CHECK: %[[Q:.*]] = arith.remui %[[C]], %[[PER_ROW:.*]] : index
// CHECK: %[[R:.*]] = arith.divui %[[C]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.muli %[[Q]], %[[C16:.*]] : index
// CHECK: %[[SRC_STEP:.*]] = arith.muli %[[R]], %[[SRC_ROW]] : index
// CHECK: %[[SRC_OFF:.*]] = arith.addi %[[COL]], %[[SRC_STEP]] : index
// CHECK: %[[DST_STEP:.*]] = arith.muli %[[R]], %[[DST_ROW]] : index
// CHECK: %[[DST_OFF:.*]] = arith.addi %[[COL]], %[[DST_STEP]] : index
// CHECK: %[[SRC_I64:.*]] = arith.index_cast %[[SRC_OFF]] : index to i64
// CHECK: %[[SRC_PTR:.*]] = llvm.getelementptr %{{.*}}[%[[SRC_I64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[DST_I64:.*]] = arith.index_cast %[[DST_OFF]] : index to i64
// CHECK: %[[DST_PTR:.*]] = llvm.getelementptr %{{.*}}[%[[DST_I64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: nvvm.cp.async.shared.global %[[DST_PTR]], %[[SRC_PTR]], 16, cache = cg
// CHECK: nvvm.cp.async.commit.group

// A dynamic column bx * 128 is still provably 16-byte aligned: no run-time check.
// With a known block of 128 threads the 1024 chunks are 8 unrolled rounds; round
// k starts 4k rows further: 4k * 2048 bytes in src, 4k * 512 in the tile.
// CHECK-LABEL: gpu.func @dynamic_column
// CHECK-NOT: scf.if
// CHECK-NOT: scf.for
// CHECK-COUNT-8: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group

// PTX-LABEL: .entry dynamic_column
// PTX: cp.async.cg.shared.global [%rd[[D:[0-9]+]]], [%rd[[S:[0-9]+]]], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+2048], [%rd[[S]]+8192], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+4096], [%rd[[S]]+16384], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+6144], [%rd[[S]]+24576], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+8192], [%rd[[S]]+32768], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+10240], [%rd[[S]]+40960], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+12288], [%rd[[S]]+49152], 16;
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]+14336], [%rd[[S]]+57344], 16;
// PTX-NEXT: cp.async.commit_group;
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @constant_column(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c32, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }

  gpu.func @dynamic_column(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c128 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %row, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
