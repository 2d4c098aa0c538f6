// The rewrite erases the ops that computed the original copies' operands once
// nothing uses them (the copies it issues compute their own): here %row and
// %col (an affine.apply) feed only the copy, so neither is left in the body
// (each refill and the prologue compute their own clones),
// on either path; the output has no side-effect-free op without a use.
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null > %t.80.mlir
// RUN: %check-no-dead-ops %t.80.mlir
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null > %t.90.mlir
// RUN: %check-no-dead-ops %t.90.mlir
// (With the rewrite's erasure of dead operand ops broken, the body keeps the
// original %row = arith.muli %i, %c8, which the check reports: a mutation that
// the suite missed, shard 5 of 2026-12-03. With affine.apply, memref.subview and
// memref.cast no longer counted as pure, %col stays: the checker counts those ops
// since shard 6 found that mutation missed.)

#twice = affine_map<(d0) -> (d0 * 2)>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x256xf32>, %out: memref<128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %c16 step %c1 {
      %row = arith.muli %i, %c8 : index
      %col = affine.apply #twice(%c0)
      acopy.copy_gmem_to_smem %src[%row, %col] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x256xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%tid] : memref<128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
