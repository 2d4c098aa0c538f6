// Pass order (docs/pipelining.md): canonicalize folds a marked loop of one trip
// into its body, and the mark with it, so canonicalize before acopy-lower leaves
// the portable form's copy and wait outside any marked loop; on sm_90 that is a
// located E6/E7 error, never a crash or a silent miscompile. acopy-lower first
// pipelines the loop (one stage, its remark) and canonicalize then cleans up.
// Found by the fuzzer (seed 0x19, case 503).
// RUN: not acopy-opt %s --pass-pipeline='builtin.module(canonicalize,acopy-lower)' 2>&1 | FileCheck %s --check-prefix=FOLDED
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-lower,canonicalize)' 2>&1 | FileCheck %s --check-prefix=FIRST

// FOLDED: canonicalize-first.mlir:[[@LINE+15]]:7: error: copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs
// FOLDED: canonicalize-first.mlir:[[@LINE+15]]:7: error: wait_gmem_to_smem is only supported on pre-Hopper GPUs

// FIRST: remark: acopy.pipeline: 1 stage (the loop runs 1 time, so its 7 stages are clamped to 1), TMA on sm_120
// FIRST: nvvm.cp.async.bulk.tensor.shared.cluster.global
// FIRST: nvvm.mbarrier.try_wait %
gpu.module @m [#nvvm.target<chip = "sm_120">] {
  gpu.func @k(%src: memref<65536x128xf16>, %out: memref<65536x128xf16>) workgroup(%tile: memref<4x128xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %lb = arith.constant 5 : index
    %ub = arith.constant 6 : index
    %step = arith.constant 1 : index
    scf.for %i = %lb to %ub step %step {
      %row = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<65536x128xf16> -> memref<4x128xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %c0] : memref<4x128xf16, 3>
      memref.store %v, %out[%row, %c0] : memref<65536x128xf16>
    } {acopy.pipeline = {stages = 7 : i64}}
    gpu.return
  }
}
