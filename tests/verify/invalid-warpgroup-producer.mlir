// Rules P19 and P17 for a producer warpgroup (docs/verification.md; docs/pipelining.md,
// "A producer warpgroup"): producer = "warpgroup" needs a chip with setmaxnreg (P19:
// sm_90 and sm_80 have none; sm_90a has it) and a declared block of whole warpgroups,
// at most 896 threads (P17: 64 is not a multiple of 128, 1024 leaves no room). P18 names
// the warpgroup too (a store before the loop). acopy-pipeline refuses the same loops
// with the same errors.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: a loop marked acopy.pipeline with producer = "warpgroup" needs a chip with setmaxnreg
// CHECK-COUNT-2: error: a loop marked acopy.pipeline with producer = "warpgroup" needs its kernel's block size known
// CHECK: error: a loop marked acopy.pipeline with producer = "warpgroup" must stand

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P19
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warpgroup" needs a chip with setmaxnreg (sm_90a, or an architecture-specific target after it such as sm_100a), but sm_90 has no setmaxnreg}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P19
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warpgroup" needs a chip with setmaxnreg (sm_90a, or an architecture-specific target after it such as sm_100a), but sm_80 has no setmaxnreg}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P17
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warpgroup" needs its kernel's block size known and one-dimensional, a multiple of 128 and at most 896 threads (the pass adds one 128-thread producer warpgroup after them), but it is 64}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {nvvm.reqntid = array<i32: 1024>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P17
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warpgroup" needs its kernel's block size known and one-dimensional, a multiple of 128 and at most 896 threads (the pass adds one 128-thread producer warpgroup after them), but it is 1024}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    memref.store %f, %out[%c0, %tid] : memref<4096x128xf32>
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warpgroup" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warpgroup runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
}
