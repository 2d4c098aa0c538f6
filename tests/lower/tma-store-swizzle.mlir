// Swizzled TMA stores (swizzle = S on copy_smem_to_gmem, docs/lowering-tma.md,
// "Swizzled stores"): the store's tensor map carries the swizzle, so TMA reads
// the src tile in its swizzled layout, and the tile is aligned to 8 rows of
// the swizzle span (256, 512, 1024 bytes) so that the pattern starts at the
// tile. The element-wise path (a start TMA cannot take) reads each element
// where the pattern put it: the shared address with bits 7.. XORed into
// bits 4.., after placing it in its column panel when rows are several spans.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // CHECK-LABEL: gpu.func @store
  // CHECK-SAME: %[[I:[^:]*]]: index, %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64})
  // CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64x32xf32, 3> {llvm.align = 1024 : i64})
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>, element_type = f32, oob_fill = "none", param = 2 : i64, swizzle = 128 : i64}]
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[C112:.*]] = arith.constant 112 : i64
  // CHECK: scf.if
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
  // CHECK: } else {
  // CHECK: scf.for
  // CHECK: %[[AT:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.ptrtoint %[[AT]] : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[C3]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[C112]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[SRC:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK: %[[V:.*]] = llvm.load %[[SRC]] : !llvm.ptr<3> -> i32
  // CHECK-NEXT: llvm.store %[[V]], %{{.*}} : i32, !llvm.ptr<1>
  // PTX-LABEL: .entry store(
  // PTX: .shared .align 1024 .b8 __wg_store_0[8192];
  // PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_store_0];
  // PTX-DAG: xor.b64
  // PTX: cp.async.bulk.commit_group;
  gpu.func @store(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // The 32- and 64-byte swizzles align their tiles to 256 and 512 bytes and
  // key their own tensor maps; a reduction on a swizzled map is a swizzled
  // cp.reduce.async.bulk.tensor (the map's swizzle applies to it too).
  // CHECK-LABEL: gpu.func @swizzles
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x8xf32, 3> {llvm.align = 256 : i64}, %{{.*}} : memref<64x16xf32, 3> {llvm.align = 512 : i64})
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 8>, element_type = f32, oob_fill = "none", param = 2 : i64, swizzle = 32 : i64}, {arg = 0 : i64, box = array<i64: 64, 16>, element_type = f32, oob_fill = "none", param = 3 : i64, swizzle = 64 : i64}]
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}} {redKind = #nvvm.tma_redux_kind<add>}
  // PTX-LABEL: .entry swizzles(
  // PTX: .shared .align 256 .b8 __wg_swizzles_0[2048];
  // PTX: .shared .align 512 .b8 __wg_swizzles_1[4096];
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
  // PTX: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
  gpu.func @swizzles(%dst: memref<256x512xf32>, %i: index) workgroup(%t32: memref<64x8xf32, 3>, %t64: memref<64x16xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%t32, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, swizzle = 32 : i64} : (memref<64x8xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t64, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, swizzle = 64 : i64, reduction_op = "add"} : (memref<64x16xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // Rows of two spans (fallback mode, docs/dialect.md, "Wide tiles"): two
  // column panels, two boxes of (64, 64) from tile bytes 0 and 8192, one map.
  // A constant start TMA cannot take (column 3) takes only the element path,
  // which places each element in its panel and then swizzles it; the tile is
  // still raised to 1024 bytes.
  // CHECK-LABEL: gpu.func @panels
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x128xf16, 3> {llvm.align = 1024 : i64})
  // CHECK-SAME: box = array<i64: 64, 64>, element_type = f16, oob_fill = "none", param = 2 : i64, swizzle = 128 : i64}]
  // CHECK: %[[SECOND:.*]] = llvm.getelementptr %{{.*}}[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%c0_i32, %{{.*}}]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[SECOND]], box[%c64_i32, %{{.*}}]
  // PTX-LABEL: .entry panels(
  // PTX: .shared .align 1024 .b8 __wg_panels_0[16384];
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_panels_0];
  // PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_panels_0+8192];
  // CHECK-LABEL: gpu.func @odd
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x128xf16, 3> {llvm.align = 1024 : i64})
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK: scf.for
  // The panel: (c / 128) * 8192 + r * 128 + c mod 128 for byte c of row r.
  // CHECK: arith.divui %{{.*}}, %c256 : index
  // CHECK: arith.divui %{{.*}}, %c128 : index
  // CHECK: arith.muli %{{.*}}, %c8192 : index
  // CHECK: arith.xori %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i16
  gpu.func @panels(%dst: memref<256x512xf16>, %i: index) workgroup(%tile: memref<64x128xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x128xf16, 3>, memref<256x512xf16>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
  gpu.func @odd(%dst: memref<256x512xf16>, %i: index) workgroup(%tile: memref<64x128xf16, 3>) kernel {
    %c3 = arith.constant 3 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %c3) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, swizzle = 128 : i64} : (memref<64x128xf16, 3>, memref<256x512xf16>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
}
