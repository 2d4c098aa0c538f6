// The block schedule alone (no producer warp): the numbers the rewrite builds
// its IR from and the remark reports (passes/src/pipeliner/block_schedule.rs),
// printed with ACOPY_LOG at debug for the pipeliner. With S slots, C copies per
// trip and D tiles ahead: the prologue issues tiles 0..D, trip k refills tile
// k + D into the slot D after its own, and on cp.async the wait leaves C * D
// groups pending (docs/pipelining.md, "The steady state").
// RUN: env ACOPY_LOG=acopy_passes::pipeliner=debug acopy-opt %s --acopy-pipeline --split-input-file 2>&1 >/dev/null | FileCheck %s
// With wgmma left in flight (N = 1 of S = 3) the refill moves after the
// consumers and D = S - N (wgmma-async.mlir's first loop).
// RUN: env ACOPY_LOG=acopy_passes::pipeliner=debug acopy-opt %S/wgmma-async.mlir --acopy-pipeline --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=ASYNC
// ASYNC: block schedule: TMA, S = 3, C = 2, D = 2; prologue: tiles 0..2 into slots (base + j) mod 3; trip k: refill tile k + 2 into slot (slot_k + 2) mod 3 after the consumers, when k < T - 2; 3 barriers of 2 arrivals, wait on barrier[slot_k] with parity ((base + k) / 3) & 1; refill behind a block barrier; slot_k+1 = (slot_k + 1) mod 3

// cp.async, S = 3, one copy: two tiles ahead, two groups pending at the wait.
// CHECK: block schedule: cp.async, S = 3, C = 1, D = 2; prologue: tiles 0..2 into slots (base + j) mod 3; trip k: refill tile k + 2 into slot (slot_k + 2) mod 3 before the wait, when k < T - 2; wait pending = 2; slot_k+1 = (slot_k + 1) mod 3
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @three(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// cp.async, S = 1: no counters, each trip copies, waits for everything, consumes.
// CHECK: block schedule: cp.async, S = 1, C = 1, D = 0; each trip: barrier, copies, wait pending = 0
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @one(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 1 : i64}}
    gpu.return
  }
}

// -----

// TMA, S = 4, two copies: one mbarrier per slot expecting both copies, waited
// on at the slot's phase parity; no commit groups to count.
// CHECK: block schedule: TMA, S = 4, C = 2, D = 3; prologue: tiles 0..3 into slots (base + j) mod 4; trip k: refill tile k + 3 into slot (slot_k + 3) mod 4 before the wait, when k < T - 3; 4 barriers of 2 arrivals, wait on barrier[slot_k] with parity ((base + k) / 4) & 1; refill behind a block barrier; slot_k+1 = (slot_k + 1) mod 4
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%a: memref<8x128xf32, 3>, %b: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %a {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %b {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %a[%c0, %tid] : memref<8x128xf32, 3>
      %w = memref.load %b[%c0, %tid] : memref<8x128xf32, 3>
      %s = arith.addf %v, %w : f32
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
