// Rule P4 (docs/verification.md): other acopy ops in a marked loop: a second wait, a wait with pending = 1, a copy nested in an scf.if, a copy after the wait, a TMA store of the pipelined tile itself (located at the store).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-5: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P4
    // expected-error @+1 {{'acopy.wait_gmem_to_smem' after the wait cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
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
    // RULE: P4
    // expected-error @+1 {{'acopy.wait_gmem_to_smem' with pending = 1 cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
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
    %t = arith.cmpi slt, %c0, %n : index
    // RULE: P4
    // expected-error @+1 {{'acopy.copy_gmem_to_smem' nested in the body cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      scf.if %t {
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      }
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
    // RULE: P4
    // expected-error @+1 {{'acopy.copy_gmem_to_smem' after the wait cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// A TMA store of a pipelined tile (here through a view of it) reads the slot
// asynchronously after the barrier that frees it for the next copy: refused.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %half = memref.subview %tile[0, 0] [4, 128] [1, 1] : memref<8x128xf32, 3> to memref<4x128xf32, strided<[128, 1]>, 3>
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
      // RULE: P4
      // expected-error @+1 {{'acopy.copy_smem_to_gmem' of the pipelined tile (workgroup attribution #0 : memref<8x128xf32, 3>) (a TMA store reads its slot after the barrier that frees the slot for the next copy) cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers}}
      "acopy.copy_smem_to_gmem"(%half, %out, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<4x128xf32, strided<[128, 1]>, 3>, memref<4096x128xf32>, index, index) -> ()
    } {acopy.pipeline = {stages = 3 : i64}}
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
