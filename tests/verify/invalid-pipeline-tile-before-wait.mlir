// Rule P6 (docs/verification.md): the tile is read before the wait (a loop-carried read the pass cannot order).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-1: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P6
    // expected-error @+1 {{the dst tile (workgroup attribution #0 : memref<8x128xf32, 3>) of a pipelined copy is used by 'memref.load' before the loop's wait_gmem_to_smem: the pass issues the copy of a later iteration early, so the body may use the tile only after the wait}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      %early = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
