// Wide tiles on the TMA path (fallback mode; docs/dialect.md, "Wide tiles"):
// one copy becomes several cp.async.bulk.tensor issues from the elected
// thread, each with its own box coordinates and tile address, all on the one
// barrier, which expects the window's bytes once; a store's boxes form one
// bulk group. One tensor map (the box shape) serves every box.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

// PTX-LABEL: .entry panels(
// PTX: .shared .align 1024 .b8 __wg_panels_0[16384];
// PTX: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_panels_1], %r{{[0-9]+}};
// PTX-NOT: mbarrier.arrive
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[MAP:[0-9]+]], {%r{{[0-9]+}}, %r[[ROW:[0-9]+]]}], [__wg_panels_1];
// PTX: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 8192;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[MAP]], {%r{{[0-9]+}}, %r[[ROW]]}], [__wg_panels_1];
// PTX-NOT: cp.async.bulk.tensor
// PTX-LABEL: .entry rows(
// PTX: mbarrier.arrive.expect_tx
// PTX-NOT: mbarrier.arrive
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[MAP:[0-9]+]], {%r[[COL:[0-9]+]], %r{{[0-9]+}}}]
// PTX: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 16384;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[MAP]], {%r[[COL]], %r{{[0-9]+}}}]
// PTX-NOT: cp.async.bulk.tensor
// PTX-LABEL: .entry store(
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[MAP:[0-9]+]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_store_0];
// PTX-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[MAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_store_0+16384];
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX-LABEL: .entry panels_dynamic(
// PTX-LABEL: .entry one_row(
// PTX: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 512;

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // A 64 x 128 f16 tile with swizzle = 128: panel 1 (columns 64..127) is box
  // (64, 64) at window column 64 + 64 and tile byte 64 x 128 = 8192.
  // CHECK-LABEL: gpu.func @panels
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 64>, element_type = f16, oob_fill = "none", param = 2 : i64, swizzle = 128 : i64}]
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
  // CHECK-DAG: %[[C128:.*]] = arith.constant 128 : i32
  // CHECK-DAG: %[[BYTES:.*]] = arith.constant 16384 : i32
  // CHECK: %[[ROW:.*]] = arith.index_cast %{{.*}} : index to i32
  // CHECK: %[[TILE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[P0:.*]] = llvm.addrspacecast %[[TILE]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[TILE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[P1:.*]] = llvm.addrspacecast %[[AT1]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK: scf.if
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP:.*]], %[[BAR]], box[%[[C64]], %[[ROW]]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[MAP]], %[[BAR]], box[%[[C128]], %[[ROW]]]
  // CHECK-NEXT: }
  gpu.func @panels(%src: memref<256x512xf16>, %i: index) workgroup(%tile: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%i, %c64] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    gpu.return
  }

  // 512 x 16 f32: boxes of 256 rows, the second at row + 256 and byte 16384;
  // a predicate guards both and makes the one expect_tx 0 bytes.
  // CHECK-LABEL: gpu.func @rows
  // CHECK-SAME: box = array<i64: 256, 16>
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
  // CHECK-DAG: %[[BYTES:.*]] = arith.constant 32768 : i32
  // CHECK: %[[ROW0:.*]] = arith.index_cast %[[I:.*]] : index to i32
  // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
  // CHECK-NEXT: %[[ROW1:.*]] = arith.index_cast %[[NEXT]] : index to i32
  // CHECK: %[[AT1:.*]] = llvm.getelementptr %{{.*}}[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: %[[EXPECT:.*]] = arith.select %[[PRED:.*]], %[[BYTES]], %{{.*}} : i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[EXPECT]]
  // CHECK-NEXT: scf.if %[[PRED]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%[[C32]], %[[ROW0]]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%[[C32]], %[[ROW1]]]
  // CHECK-NEXT: }
  gpu.func @rows(%src: memref<1024x64xf32>, %i: index, %pred: i1) workgroup(%tile: memref<512x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c32 = arith.constant 32 : index
    acopy.copy_gmem_to_smem %src[%i, %c32] -> %tile barrier(%bar : memref<1xi64, 3>) if %pred : memref<1024x64xf32> -> memref<512x16xf32, 3>
    gpu.return
  }

  // A store of 512 rows: two boxes, then one commit group, all issued by the
  // same thread (the boxes' if and the commit's, on one condition, are one if).
  // CHECK-LABEL: gpu.func @store
  // CHECK-SAME: box = array<i64: 256, 16>
  // CHECK: %[[SRC:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
  // CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[SRC]][16384]
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[SRC]], box
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[AT1]], box
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: }
  // CHECK-NOT: nvvm.cp.async.bulk.commit.group
  gpu.func @store(%out: memref<1024x64xf32>, %i: index) workgroup(%tile: memref<512x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_smem_to_gmem %tile -> %out[%i, %c0] {assume_aligned_start} : memref<512x16xf32, 3> -> memref<1024x64xf32>
    acopy.wait_smem_to_gmem {pending = 0 : i64}
    gpu.return
  }

  // A dynamic start that may break TMA's 16-byte rule: the non-TMA branch
  // (cp.async) writes the same panels, chunk by chunk.
  // CHECK-LABEL: gpu.func @panels_dynamic
  // CHECK: scf.if
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK: } else {
  // CHECK: arith.muli %{{.*}}, %c8192 : index
  // CHECK: arith.andi %{{.*}}, %c112_i64 : i64
  // CHECK: nvvm.cp.async.shared.global
  gpu.func @panels_dynamic(%src: memref<256x512xf16>, %i: index, %j: index) workgroup(%tile: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    acopy.copy_gmem_to_smem %src[%i, %j] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    gpu.return
  }

  // A one-row window of 512 bf16: two boxes of 256 along the row, 512 bytes apart.
  // CHECK-LABEL: gpu.func @one_row
  // CHECK-SAME: box = array<i64: 1, 256>
  // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : i32
  // CHECK-DAG: %[[C512:.*]] = arith.constant 512 : i32
  // CHECK: llvm.getelementptr %{{.*}}[512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1024_i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%[[C256]], %[[ROW:.*]]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%[[C512]], %[[ROW]]]
  gpu.func @one_row(%src: memref<4x1024xbf16>, %i: index) workgroup(%dst: memref<512xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c256 = arith.constant 256 : index
    acopy.copy_gmem_to_smem %src[%i, %c256] -> %dst barrier(%bar : memref<1xi64, 3>) : memref<4x1024xbf16> -> memref<512xbf16, 3>
    gpu.return
  }
}
