// Rule P10 (docs/verification.md): 4 slots of a 32 KiB tile do not fit the 99 KiB of sm_86; 3 do.
// The module's shared globals count against the budget too.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: 

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P10
    // expected-error @+1 {{the pipelined loop needs 131072 bytes of shared memory on sm_86 (4 x 32768 bytes for memref<64x128xf32, 3>), more than the 101376 bytes a block can have; at most 3 stages fit}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}

// -----

// The gpu.module's shared globals count as the kernel's other shared memory:
// 2 slots alone (65536 bytes) would fit, with the 64 KiB global they do not.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  memref.global "private" @lookup : memref<16384xf32, 3>
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %table = memref.get_global @lookup : memref<16384xf32, 3>
    // RULE: P10
    // expected-error @+1 {{the pipelined loop needs 131072 bytes of shared memory on sm_86 (2 x 32768 bytes for memref<64x128xf32, 3>, 65536 bytes of other shared memory), more than the 101376 bytes a block can have; at most 1 stage fits}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      %w = memref.load %table[%tid] : memref<16384xf32, 3>
      %s = arith.addf %v, %w : f32
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
