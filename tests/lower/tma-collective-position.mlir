// A CTA's index in its collective group, from its cluster coordinates along
// the collective axes with x fastest: in a 2x2x1 cluster with collective axes
// x and y it is ctaid.x * 1 + ctaid.y * 2 (the y scale is the cluster's x
// extent). The index picks the CTA's slice of the multicast window: 16 rows,
// 2048 bytes of f16, each. The checks follow values, not placement (the
// constants and special-register reads may sit anywhere before their use).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s

// CHECK-LABEL: gpu.func @xy
// CHECK: %[[CX:.*]] = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
// CHECK-DAG: %[[CY:.*]] = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
// CHECK-DAG: %[[XS:.*]] = arith.muli %[[CX]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[PARTIAL:.*]] = arith.addi %c0_i32{{(_[0-9]+)?}}, %[[XS]] : i32
// CHECK: %[[YS:.*]] = arith.muli %[[CY]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[INDEX:.*]] = arith.addi %[[PARTIAL]], %[[YS]] : i32
// CHECK: %[[I:.*]] = arith.index_cast %[[INDEX]] : i32 to index
// CHECK: arith.muli %[[I]], %c16{{(_[0-9]+)?}} : index
// CHECK: arith.muli %[[I]], %c2048{{(_[0-9]+)?}} : index
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @xy(%src: memref<4x256x512xf16>, %i: index)
      workgroup(%tile: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>, collective_axes = ["x", "y"]} : (memref<4x256x512xf16>, memref<64x64xf16, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
