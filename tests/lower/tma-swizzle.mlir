// Swizzled TMA loads: the tensor map records the swizzle, and the tile is
// aligned to 8 rows of the swizzle span (256, 512, 1024 bytes) so the
// pattern starts at the tile; a static view keeps the alignment of its
// buffer when its offset is a multiple of it.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

// PTX-LABEL: .entry swizzles(
// PTX: .shared .align 256 .b8 __wg_swizzles_0[2048];
// PTX: .shared .align 512 .b8 __wg_swizzles_1[4096];
// PTX: .shared .align 1024 .b8 __wg_swizzles_2[16384];
// PTX: mov.b32 %[[B32:r[0-9]+]], 2048;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_swizzles_3], %[[B32]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mov.b32 %[[B64:r[0-9]+]], 4096;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_swizzles_3], %[[B64]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mov.b32 %[[B128:r[0-9]+]], 8192;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_swizzles_3], %[[B128]];
// PTX: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 8192;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-LABEL: .entry global(
// PTX: .shared .align 1024 .b8 buffer[8192];

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // CHECK-LABEL: gpu.func @swizzles
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x8xf32, 3> {llvm.align = 256 : i64}, %{{.*}} : memref<64x16xf32, 3> {llvm.align = 512 : i64}, %{{.*}} : memref<2x64x32xf32, 3> {llvm.align = 1024 : i64}, %{{.*}} : memref<1xi64, 3>)
  // CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 8>, element_type = f32, oob_fill = "none", param = 2 : i64, swizzle = 32 : i64}, {arg = 0 : i64, box = array<i64: 64, 16>, element_type = f32, oob_fill = "none", param = 3 : i64, swizzle = 64 : i64}, {arg = 0 : i64, box = array<i64: 64, 32>, element_type = f32, oob_fill = "none", param = 4 : i64, swizzle = 128 : i64}]
  gpu.func @swizzles(%src: memref<256x512xf32>, %i: index)
      workgroup(%a: memref<64x8xf32, 3>, %b: memref<64x16xf32, 3>, %c: memref<2x64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %a, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, swizzle = 32 : i64} : (memref<256x512xf32>, memref<64x8xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %b, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, swizzle = 64 : i64} : (memref<256x512xf32>, memref<64x16xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // The second stage of a double buffer starts 8192 bytes in: still 1024-aligned.
    // (The offset constant is built once, at the top of the kernel.)
    // CHECK-DAG: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW:.*]] : memref<64x32xf32, strided<[32, 1], offset: 2048>, 3> -> index
    // CHECK-DAG: %[[OFF:.*]] = arith.constant 8192 : index
    // CHECK: arith.addi %[[BASE]], %[[OFF]] : index
    %stage = memref.subview %c[1, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: 2048>, 3>
    "acopy.copy_gmem_to_smem"(%src, %stage, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: 2048>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // A shared memref.global gets its alignment raised.
  // CHECK: memref.global "private" @buffer : memref<64x32xf32, 3> {alignment = 1024 : i64}
  memref.global "private" @buffer : memref<64x32xf32, 3>
  gpu.func @global(%src: memref<256x512xf32>, %i: index) workgroup(%bar: memref<1xi64, 3>) kernel {
    %tile = memref.get_global @buffer : memref<64x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
