// Rule P10 at the limit: slots that take exactly the bytes a block can have (sm_80:
// 166912, 2 x 83456 for a 163 x 128 f32 tile) fit, and the loop is pipelined; one row
// more does not (tests/verify/invalid-pipeline-budget.mlir). A shard-7 mutation survivor
// (2026-12-03: the comparison as >=) refused the exact fit and no test noticed.
// RUN: acopy-opt %s --acopy-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_80
// CHECK: remark: acopy.pipeline: 2 stages, cp.async on sm_80; 2 slots of 83456 bytes (16-byte aligned) for memref<163x128xf32, 3>; {{.*}}; 166912 bytes of shared memory
// CHECK-NOT: error

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<8192x128xf32>, %out: memref<8192x128xf32>, %n: index) workgroup(%tile: memref<163x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 163 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<8192x128xf32> -> memref<163x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<163x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<8192x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
