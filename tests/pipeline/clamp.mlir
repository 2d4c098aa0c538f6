// A static trip count below S clamps S to max(T, 1), with a remark at the
// loop (the loop's one remark says so): 2 trips and 4 stages give 2 slots
// (8192 bytes, not 16384).
// RUN: acopy-opt %s --acopy-pipeline --verify-diagnostics | FileCheck %s
// CHECK: workgroup(%{{.+}} : memref<8192xi8, 3>
// CHECK: acopy.pipelined = {stages = 2 : i64}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @short(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 2 stages (the loop runs 2 times, so its 4 stages are clamped to 2), cp.async on sm_80; 2 slots of 4096 bytes (16-byte aligned) for memref<8x128xf32, 3>; waits: cp.async.wait_group 1 in every iteration (1 copy per iteration, empty groups where none is issued); 8192 bytes of shared memory}}
    scf.for %i = %c0 to %c2 step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
