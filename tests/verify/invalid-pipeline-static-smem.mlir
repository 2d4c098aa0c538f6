// Rule P11 (docs/verification.md): 2 slots of a 32 KiB tile fit sm_80 but not the 48 KiB of static shared memory.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (2 x 32768 bytes for memref<64x128xf32, 3>), more than the 49152 bytes ptxas accepts; the pass does not move multi-buffered tiles to dynamic shared memory yet, and at most 1 stage fits in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// Two marked loops: each counts the other's tile with its slots (4 x 8 KiB), so
// verification before pipelining sees what the pipeliner sees after the first rewrite.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @two_loops(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%a: memref<16x128xf32, 3>, %b: memref<16x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (4 x 8192 bytes for memref<16x128xf32, 3>, 32768 bytes of other shared memory), more than the 49152 bytes ptxas accepts; the pass does not move multi-buffered tiles to dynamic shared memory yet, and at most 2 stages fit in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      "acopy.copy_gmem_to_smem"(%src, %a, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %a[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (4 x 8192 bytes for memref<16x128xf32, 3>, 32768 bytes of other shared memory), more than the 49152 bytes ptxas accepts; the pass does not move multi-buffered tiles to dynamic shared memory yet, and at most 2 stages fit in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      "acopy.copy_gmem_to_smem"(%src, %b, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %b[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
