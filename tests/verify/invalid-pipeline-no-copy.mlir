// Rule P3 (docs/verification.md): a marked loop without a copy at its top level, and one whose copy is not followed by a wait.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P3
    // expected-error @+1 {{a loop marked acopy.pipeline needs, at the top level of its body, acopy.copy_gmem_to_smem ops followed by one acopy.wait_gmem_to_smem (pending = 0), but it has no copy at its top level}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
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
    // RULE: P3
    // expected-error @+1 {{a loop marked acopy.pipeline needs, at the top level of its body, acopy.copy_gmem_to_smem ops followed by one acopy.wait_gmem_to_smem (pending = 0), but its copies are not followed by a wait_gmem_to_smem}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
