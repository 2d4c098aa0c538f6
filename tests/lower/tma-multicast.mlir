// Multicast: each CTA of the collective group loads 1/N of the window, along
// its outermost leading dimension longer than 1, into the same place of every
// group member's tile, with the group's 16-bit CTA mask; each CTA's barrier
// still expects the whole window.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // Cluster 2x2x1, collective along y: the group is ranks {r, r + 2}.
  // CHECK-LABEL: gpu.func @along_y
  // CHECK-SAME: box = array<i64: 32, 32>
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[Y:.*]] = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  // CHECK: %[[STRIDE:.*]] = arith.constant 2 : i32
  // CHECK: %[[ALONG:.*]] = arith.muli %[[Y]], %[[STRIDE]] : i32
  // CHECK: %[[FIRST:.*]] = arith.subi %[[RANK]], %[[ALONG]] : i32
  // CHECK: %[[INDEX:.*]] = arith.index_cast %{{.*}} : i32 to index
  // CHECK: %[[ROWS:.*]] = arith.muli %[[INDEX]], %{{.*}} : index
  // CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROWS]] : index
  // CHECK: %[[SLICE:.*]] = arith.constant 4096 : index
  // CHECK: %[[EXTRA:.*]] = arith.muli %[[INDEX]], %[[SLICE]] : index
  // CHECK: %[[PATTERN:.*]] = arith.constant 5 : i32
  // CHECK: %[[SHIFTED:.*]] = arith.shli %[[PATTERN]], %[[FIRST]] : i32
  // CHECK: %[[MASK:.*]] = arith.trunci %[[SHIFTED]] : i32 to i16
  // CHECK: %[[Y32:.*]] = arith.index_cast %[[ROW]] : index to i32
  // CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
  // CHECK: arith.addi %[[BASE]], %[[EXTRA]] : index
  // CHECK: arith.constant 8192 : i32
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %[[Y32]]] multicast_mask = %[[MASK]] :
  // The mask is 0b0101 shifted to the group's first rank, rank - 2 * ctaid.y.
  // PTX-LABEL: .entry along_y(
  // PTX: .reqnctapercluster 2, 2, 1
  // PTX-DAG: ld.param.b64 %[[J64:rd[0-9]+]], [along_y_param_8];
  // PTX-DAG: mov.u32 %[[CY:r[0-9]+]], %cluster_ctaid.y;
  // PTX-DAG: mov.u32 %[[RANK:r[0-9]+]], %cluster_ctarank;
  // PTX-DAG: cvt.u32.u64 %[[X:r[0-9]+]], %[[J64]];
  // PTX-DAG: shl.b32 %[[ALONG:r[0-9]+]], %[[CY]], 1;
  // PTX: sub.s32 %[[FIRST:r[0-9]+]], %[[RANK]], %[[ALONG]];
  // PTX-NEXT: mov.b32 %[[PATTERN:r[0-9]+]], 5;
  // PTX-NEXT: shl.b32 %[[SHIFTED:r[0-9]+]], %[[PATTERN]], %[[FIRST]];
  // PTX-NEXT: cvt.u16.u32 %[[MASK:rs[0-9]+]], %[[SHIFTED]];
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 8192;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_along_y_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%[[X]], %r{{[0-9]+}}}], [__wg_along_y_1], %[[MASK]];
  gpu.func @along_y(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // Collective over x and y of a 2x2x1 cluster: 4 CTAs, mask 0b1111, slices
  // along dimension 1 (dimension 0 has length 1).
  // CHECK-LABEL: gpu.func @xy
  // CHECK-SAME: box = array<i64: 1, 16, 64>
  // CHECK: nvvm.read.ptx.sreg.cluster.ctaid.x
  // CHECK: nvvm.read.ptx.sreg.cluster.ctaid.y
  // CHECK: %[[PATTERN:.*]] = arith.constant 15 : i32
  // CHECK: %[[SHIFTED:.*]] = arith.shli %[[PATTERN]], %{{.*}} : i32
  // CHECK: %[[MASK:.*]] = arith.trunci %[[SHIFTED]] : i32 to i16
  // CHECK: %[[BYTES:.*]] = arith.constant 8192 : i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] multicast_mask = %[[MASK]] :
  // PTX-LABEL: .entry xy(
  // PTX: mov.b32 %[[PATTERN:r[0-9]+]], 15;
  // PTX-NEXT: shl.b32 %[[SHIFTED:r[0-9]+]], %[[PATTERN]], %r{{[0-9]+}};
  // PTX-NEXT: cvt.u16.u32 %[[MASK:rs[0-9]+]], %[[SHIFTED]];
  // PTX: mov.b32 %[[BYTES:r[0-9]+]], 8192;
  // PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [__wg_xy_1], %[[BYTES]];
  // PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_xy_1], %[[MASK]];
  gpu.func @xy(%src: memref<4x256x512xf16>, %i: index)
      workgroup(%tile: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>, collective_axes = ["x", "y"]} : (memref<4x256x512xf16>, memref<64x64xf16, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // A collective axis of extent 1 is no multicast at all.
  // CHECK-LABEL: gpu.func @trivial
  // CHECK-SAME: box = array<i64: 64, 32>
  // CHECK-NOT: multicast_mask
  // CHECK: gpu.return
  // PTX-LABEL: .entry trivial(
  // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [__wg_trivial_1];
  // PTX-NOT: multicast::cluster
  gpu.func @trivial(%src: memref<256x512xf32>, %i: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["z"]} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
