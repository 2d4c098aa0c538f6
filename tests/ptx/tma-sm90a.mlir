// TMA on sm_90a down to PTX: a multicast load in a 2x1x1 cluster, 128-byte
// swizzle into a 1024-byte aligned tile, and a predicated load.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

// CHECK: .target sm_90a
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // CHECK-LABEL: .visible .entry multicast(
  // CHECK: .param .align 64 .b8 multicast_param_{{[0-9]+}}[128]
  // CHECK: .explicitcluster
  // CHECK: .reqnctapercluster 2, 1, 1
  // CHECK: .shared .align 1024 .b8 __wg_multicast_0[8192];
  // CHECK: fence.mbarrier_init.release.cluster;
  // CHECK: %cluster_ctarank
  // CHECK: mbarrier.arrive.expect_tx.shared.b64
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%{{rd[0-9]+}}], [%{{rd[0-9]+}}, {%{{r[0-9]+}}, %{{r[0-9]+}}}], [{{.*}}], %{{rs[0-9]+}};
  // CHECK: mbarrier.try_wait.parity.shared.b64
  gpu.func @multicast(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }

  // CHECK-LABEL: .visible .entry predicated(
  // CHECK: selp.b32
  // CHECK: mbarrier.arrive.expect_tx.shared.b64
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
  gpu.func @predicated(%src: memref<256x512xbf16>, %i: index, %p: i1)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
