// Rule P7 (docs/verification.md): the copy index is read from memory, so it cannot be computed S-1 iterations early.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P7
    // expected-error @+1 {{a pipelined copy is issued 2 iterations early, so its operands must be computed from the induction variable and loop-invariant values by pure ops, but its index #0 depends on 'memref.load'}}
    scf.for %i = %c0 to %n step %c1 {
      %row = memref.load %idx[%i] : memref<64xindex>
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P7
    // expected-error @+1 {{a pipelined copy is issued 2 iterations early, so its operands must be computed from the induction variable and loop-invariant values by pure ops, but its index #0 depends on the iter_arg #0}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%at = %c0) -> (index) {
      %row = arith.addi %at, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      scf.yield %row : index
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
