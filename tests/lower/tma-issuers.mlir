// acopy.issuers = array<i32: first, count> around a TMA copy (what a
// warp-specialized loop's producer region carries; docs/pipelining.md, "Warp
// specialization"): the copy is issued by thread first (here 128, the producer
// warp's first lane), not by thread 0; the barrier init outside stays thread 0's.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// CHECK: %[[TID:.*]] = gpu.thread_id {{ *}}x
// CHECK: arith.cmpi eq, %[[TID]], %c0 : index
// CHECK: nvvm.mbarrier.init
// CHECK: scf.if %arg1 {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c128 : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: } {acopy.issuers = array<i32: 128, 1>}
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 160, 1, 1>} {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.if %flag {
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = array<i32: 128, 1>}
    acopy.barrier_wait %bar, %true : memref<1xi64, 3>
    gpu.return
  }
}
