// acopy.issuers = array<i32: first, count> around a cp.async copy (what a
// warp-specialized loop's producer region carries; docs/pipelining.md, "Warp
// specialization"): the chunks are dealt out over the count threads from
// first, thread first + r taking chunks r, r + count, ..., instead of over the
// whole block. Here 256 chunks of 16 bytes over 32 threads from 64: 8 rounds,
// unrolled (the block is known), each thread's rank tid - 64.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK: %[[TID:.*]] = gpu.thread_id {{ *}}x
// CHECK: scf.if
// CHECK: %[[RANK:.*]] = arith.subi %[[TID]], %c64 : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: arith.addi %[[RANK]], %c32 : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: arith.addi %[[RANK]], %c64{{.*}} : index
// CHECK-COUNT-6: nvvm.cp.async.shared.global
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: } {acopy.issuers = array<i32: 64, 32>}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    scf.if %flag {
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = array<i32: 64, 32>}
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
