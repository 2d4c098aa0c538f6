// The largest block a producer warp fits beside: 992 declared threads become 1024
// (rule P17 refuses 1000, tests/verify/invalid-warp-specialized.mlir; a mutation
// survivor of shard 5, 2026-12-03, refused 992 too and no test saw it).
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | FileCheck %s
// CHECK: known_block_size = array<i32: 1024, 1, 1>
// CHECK: acopy.issuers = array<i32: 992, 32>

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 992, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c128 : index
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %col] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %col] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}
