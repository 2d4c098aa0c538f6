// producer = "warp" with a tile loaded once before the loop (attention's Q): at the
// kernel's top level every thread of the grown block runs the code before the roles
// split, so a copy into shared memory, its barrier and its wait may stand there (rule
// P18, docs/pipelining.md "Warp specialization"). The copy stays where it was, before
// the split; on TMA thread 0 issues it onto the user's barrier and all 160 threads wait
// for it; on cp.async the 160 threads copy its chunks and wait for their group. The
// consumers then read both tiles. The same copy inside a persistent loop around the
// marked loop is refused (tests/verify/invalid-warp-specialized.mlir).
// RUN: acopy-opt %s --chip=sm_90 --acopy-verify
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefixes=TMA,BOTH
// RUN: acopy-opt %s --chip=sm_80 --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefixes=BOTH
// RUN: acopy-opt %s --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx 2>/dev/null
// RUN: acopy-opt %s --chip=sm_80 --acopy-fallback --acopy-lower --emit=ptx -o %t.80.ptx 2>/dev/null
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefix=PTX90 < %t.90.ptx

// BOTH: gpu.func @k
// BOTH-SAME: known_block_size = array<i32: 160, 1, 1>
// The head copy, its barrier and its wait come first, then the split.
// BOTH: acopy.barrier_init %arg{{[0-9]+}} {arrival_count = 1 : i64}
// BOTH-NEXT: acopy.copy_gmem_to_smem %arg0[%{{.+}}, %{{.+}}] -> %arg{{[0-9]+}} barrier(
// BOTH-NEXT: acopy.barrier_wait %arg{{[0-9]+}}, %false
// BOTH: %[[TID:.*]] = gpu.thread_id {{ *}}x
// BOTH-NEXT: %[[B:.*]] = arith.constant 128 : index
// BOTH: %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID]], %[[B]] : index
// BOTH: scf.if %[[PRODUCER]] {
// TMA: } {acopy.issuers = array<i32: 128, 1>}
// BOTH: %[[CONSUMER:.*]] = arith.cmpi ult, %[[TID]], %[[B]] : index
// BOTH: scf.if %[[CONSUMER]] {
// BOTH: } {acopy.pipelined = {stages = 2 : i64}}
// In the PTX the head's copy and its wait on the user's barrier come before the first
// branch on the thread's role.
// PTX90: .maxntid 160, 1, 1
// PTX90: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%{{.+}}], [%{{.+}}], [[[HEAD:__wg_k_[0-9]+]]];
// PTX90: mbarrier.try_wait.parity.shared.b64 %{{.+}}, [[[HEAD]]], %{{.+}};
// PTX90: setp.gt.u32 {{.+}}, 127;
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %head: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      %h = memref.load %head[%c0, %tid] : memref<8x128xf32, 3>
      %s = arith.addf %v, %h : f32
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}
