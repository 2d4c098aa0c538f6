// A warp-specialized loop inside a persistent kernel's loop over tiles
// (docs/pipelining.md, "Warp specialization"): the producer warp runs its own copy
// of the persistent loop (the value computations before the marked loop cloned),
// and both roles carry the slot and the phase through it, so the rings' phases
// continue from one tile to the next instead of restarting at 0; the consumers'
// gpu.barrier after the marked loop becomes bar.sync 1, 128.
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | acopy-opt --chip=sm_90 --acopy-verify
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null | acopy-opt --chip=sm_80 --acopy-verify
// RUN: acopy-opt %s --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx 2>/dev/null
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.ptx 2>/dev/null
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: %check-ptxas %t.80.ptx sm_80

// CHECK: scf.if
// CHECK: scf.if
// CHECK: %{{.*}}:2 = scf.for %[[T:[a-z0-9_]+]] = %block_id_x to %arg2 step %grid_dim_x iter_args(%[[PS:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[PP:[a-z0-9_]+]] = %false) -> (index, i1) {
// CHECK: %[[BASE:.*]] = arith.muli %[[T]], %c64 : index
// CHECK: %[[INNER:.*]]:2 = scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %[[PS]], %{{[a-z0-9_]+}} = %[[PP]]) -> (index, i1) {
// CHECK: arith.addi %[[BASE]],
// CHECK: acopy.copy_gmem_to_smem
// CHECK: scf.yield %[[INNER]]#0, %[[INNER]]#1 : index, i1
// CHECK: } {acopy.issuers = array<i32: 128, 1>}
// CHECK: scf.if
// CHECK: %{{.*}}:2 = scf.for %{{[a-z0-9_]+}} = %block_id_x to %arg2 step %grid_dim_x iter_args(%[[CS:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[CP:[a-z0-9_]+]] = %false) -> (index, i1) {
// CHECK: %[[LOOP:.*]]:3 = scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %[[CS]], %{{[a-z0-9_]+}} = %[[CP]]) -> (index, index, i1) {
// CHECK: } {acopy.pipelined = {stages = 3 : i64}}
// CHECK: nvvm.barrier id
// CHECK-NEXT: scf.yield %[[LOOP]]#1, %[[LOOP]]#2 : index, i1

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %tiles: index, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %bx = gpu.block_id x
    %grid = gpu.grid_dim x
    scf.for %t = %bx to %tiles step %grid {
      %base = arith.muli %t, %c64 : index
      scf.for %i = %c0 to %n step %c1 {
        %off = arith.muli %i, %c8 : index
        %row = arith.addi %base, %off : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
      gpu.barrier
    }
    gpu.return
  }
}
