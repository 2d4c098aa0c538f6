// Rule P9 (docs/verification.md): a copy with a barrier in a marked loop (the pass owns the barriers).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: 

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P9
    // expected-error @+1 {{pipelining a copy with a barrier is not supported: the pass owns the loop's barriers; write the copy without one, followed by wait_gmem_to_smem (pending = 0)}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P9
    // expected-error @+1 {{pipelining a copy with collective_axes is not supported: a multicast slot is written by peer CTAs, which a CTA-local barrier does not order, so it needs cluster-wide release barriers}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", collective_axes = ["x"]} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %p = arith.cmpi slt, %c0, %n : index
    // RULE: P9
    // expected-error @+1 {{pipelining a copy with a predicate is not supported: the pass guards the copies it issues early with its own predicate}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index, i1) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
