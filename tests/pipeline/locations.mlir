// The ops the pipeliner builds carry the marked loop's location (a diagnostic on
// one of them points at the loop), and the ops it keeps carry their own: the
// barriers' set-up at the kernel's entry, the prologue, the counters at the end
// of the body and the counter stored after the loop; the refill and the wait
// on the slot's barrier carry the wait's. `-` names the input as acopy-opt
// parsed it. A shard-9 mutation survivor (2026-12-03: the builder dropped the
// location it was given) put them at the op they were inserted before.
// RUN: acopy-opt %s --acopy-pipeline --mlir-print-debuginfo --mlir-print-local-scope 2>/dev/null | FileCheck %s
// Without --mlir-print-local-scope the locations are #loc aliases.
// RUN: acopy-opt %s --acopy-pipeline --mlir-print-debuginfo 2>/dev/null | FileCheck %s --check-prefix=ALIAS
// ALIAS: gpu.barrier loc([[BARRIER:#loc[0-9]*]])
// ALIAS: [[BARRIER]] = loc("-":[[# @LINE + 28]]:5)

// CHECK-LABEL: gpu.func @k(
// CHECK: acopy.barrier_init {{.*}} loc("-":[[# @LINE + 25]]:5)
// CHECK: %c0{{.*}} = arith.constant 0 : index loc("-":[[# @LINE + 20]]:11)
// CHECK: gpu.thread_id x loc("-":[[# @LINE + 22]]:12)
// The prologue.
// CHECK: arith.maxsi {{.*}} loc("-":[[# @LINE + 21]]:5)
// CHECK: gpu.barrier loc("-":[[# @LINE + 20]]:5)
// CHECK: acopy.copy_gmem_to_smem {{.*}} loc("-":[[# @LINE + 21]]:7)
// CHECK: scf.for
// The refill and the wait, where the wait was.
// CHECK: gpu.barrier loc("-":[[# @LINE + 19]]:7)
// CHECK: acopy.barrier_wait {{.*}} loc("-":[[# @LINE + 18]]:7)
// CHECK: memref.store {{.*}} loc("-":[[# @LINE + 19]]:7)
// The counters, at the loop; the yield keeps its own line.
// CHECK: arith.xori {{.*}} loc("-":[[# @LINE + 12]]:5)
// CHECK-NEXT: scf.yield {{.*}} loc("-":[[# @LINE + 17]]:7)
// CHECK-NEXT: } {acopy.pipelined = {stages = 2 : i64}} loc("-":[[# @LINE + 10]]:5)
// After the loop: the phase counter stored for the next loop of the kernel.
// CHECK: memref.store {{.*}} loc("-":[[# @LINE + 8]]:5)
// CHECK-NEXT: gpu.return loc("-":[[# @LINE + 15]]:5)
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<8192x128xf32>, %out: memref<8192x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<8192x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<8192x128xf32>
      scf.yield
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
