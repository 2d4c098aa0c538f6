// Leader-tracked TMA on sm_100a down to PTX: the cta_group::2 form with the
// pair leader's barrier from mapa, and its multicast variant.
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_100a %t.ptx -o /dev/null %}

// CHECK: .target sm_100a
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: .visible .entry partitioned(
  // CHECK: .param .align 64 .b8 partitioned_param_{{[0-9]+}}[128]
  // CHECK: mapa.shared::cluster.u64 %[[LEADER:rd[0-9]+]], %{{rd[0-9]+}}, {{%r[0-9]+|0}};
  // CHECK: mbarrier.arrive.expect_tx.shared.b64 %{{.*}}, [{{.*}}], %{{r[0-9]+}};
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%{{rd[0-9]+}}], [%{{rd[0-9]+}}, {%{{r[0-9]+}}, %{{r[0-9]+}}}], [%[[LEADER]]];
  gpu.func @partitioned(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64, swizzle = 128 : i64} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }

  // CHECK-LABEL: .visible .entry replicated(
  // CHECK: mapa.shared::cluster.u64
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [%{{rd[0-9]+}}], [%{{rd[0-9]+}}, {%{{r[0-9]+}}, %{{r[0-9]+}}}], [%{{rd[0-9]+}}], %{{rs[0-9]+}};
  gpu.func @replicated(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
