// Rule P12 (docs/verification.md): the native TMA form in a marked loop (copies
// with a barrier, then barrier_wait), refused where the pass cannot replace the
// loop's barrier with its own: on a cp.async chip (where the copy also breaks
// E1), a copy without that barrier or with another, the barrier used elsewhere,
// not initialised or initialised after the loop, an arrival count other than
// the copies per iteration, and a parity carried by the loop or read from memory.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-9: error: a loop marked acopy.pipeline in the native TMA form

// the native TMA form on a cp.async chip.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the loop is compiled for sm_80, whose copies are cp.async and have no barrier (write them without one, followed by wait_gmem_to_smem (pending = 0))}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      // expected-error @+1 {{copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation}}
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// a copy without the barrier.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but copy #1 of the loop carries no barrier, not the barrier (workgroup attribution #2 : memref<1xi64, 3>) of its barrier_wait}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile2 {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// a copy on another barrier.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.barrier_init %bar2 {arrival_count = 1 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but copy #1 of the loop carries the barrier (workgroup attribution #3 : memref<1xi64, 3>), not the barrier (workgroup attribution #2 : memref<1xi64, 3>) of its barrier_wait}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile2 barrier(%bar2 : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// the barrier also waited on after the loop.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %false = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the barrier (workgroup attribution #2 : memref<1xi64, 3>) is also used by 'acopy.barrier_wait' outside the loop}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    gpu.return
  }
}

// -----

// no barrier_init.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the barrier (workgroup attribution #2 : memref<1xi64, 3>) is not initialised by a barrier_init outside the loop}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// the barrier_init after the loop.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the barrier_init of the barrier (workgroup attribution #2 : memref<1xi64, 3>) does not come before the loop}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    gpu.return
  }
}

// -----

// an arrival count that is not the copies per iteration.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 2 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the barrier_init of the barrier (workgroup attribution #2 : memref<1xi64, 3>) expects 2 arrivals per phase, while each iteration's copies arrive 1 time}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %p = arith.index_cast %i : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// a parity carried by the loop.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    %true = arith.constant true
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the parity of the loop's barrier_wait depends on the iter_arg #0}}
    %flag = scf.for %i = %c0 to %n step %c1 iter_args(%par = %true) -> (i1) {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.barrier_wait %bar, %par : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      %flip = arith.xori %par, %true : i1
      scf.yield %flip : i1
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// a parity read from memory.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>, %bar2: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    // RULE: P12
    // expected-error @+1 {{a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but the parity of the loop's barrier_wait depends on 'memref.load'}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %k = memref.load %idx[%c0] : memref<64xindex>
      %p = arith.index_cast %k : index to i1
      acopy.barrier_wait %bar, %p : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
