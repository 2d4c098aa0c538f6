// Rules P17 and P18 (docs/verification.md; docs/pipelining.md, "Warp
// specialization"): a loop marked producer = "warp" needs a declared block of one
// dimension, a multiple of 32 and at most 992 threads (P17: none, 64 x 2, 1000), and
// must stand at the kernel's top level after code that only computes values and
// before code without acopy ops or block-wide barriers (P18: inside an scf.if, after a
// store, before a wait, a body of two blocks; a persistent loop around it that carries values, two loops around it, a store before it in the persistent loop, a wait after it there, a store or an op with a region before the persistent loop, a grid dependency (nvvm.griddepcontrol) the consumers would run alone, before it or after it, a copy and its wait before it in the persistent loop; a copy's row read from memory before it, which the producer cannot compute; a barrier of the whole block before it, and a cp.async copy after a gpu.barrier there, which only the consumers would run: docs/pipelining.md, "Code only the consumers run"). One scf.for around it, carrying nothing, is allowed (tests/pipeline/warp-specialized-persistent.mlir). acopy-pipeline refuses the same loops with the same errors.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-3: error: a loop marked acopy.pipeline with producer = "warp" needs
// CHECK-COUNT-18: error: a loop marked acopy.pipeline with producer = "warp" must stand

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P17
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" needs its kernel's block size known and one-dimensional, a multiple of 32 and at most 992 threads (the pass adds one 32-thread producer warp after them), but the kernel declares none (give it known_block_size or nvvm.reqntid)}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P17
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" needs its kernel's block size known and one-dimensional, a multiple of 32 and at most 992 threads (the pass adds one 32-thread producer warp after them), but it is 64 x 2 x 1}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {nvvm.reqntid = array<i32: 1000>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P17
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" needs its kernel's block size known and one-dimensional, a multiple of 32 and at most 992 threads (the pass adds one 32-thread producer warp after them), but it is 1000}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.if %flag {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but it is inside 'scf.if'}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    memref.store %z, %out[%c0, %tid] : memref<4096x128xf32>
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'acopy.wait_gmem_to_smem' comes after it}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but the kernel's body has several blocks (the consumers' part would not be one region)}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    cf.br ^end
  ^end:
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    %r = scf.for %t = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but the scf.for around it carries values (iter_args)}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
      scf.yield %a : f32
    }
    gpu.return
  }
}


// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    scf.for %t = %c0 to %n step %c1 {
    scf.for %u = %c0 to %n step %c1 {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but it is inside 'scf.for'}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    }
    gpu.return
  }
}


// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    scf.for %t = %c0 to %n step %c1 {
      memref.store %z, %out[%t, %tid] : memref<4096x128xf32>
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    gpu.return
  }
}


// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    scf.for %t = %c0 to %n step %c1 {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'acopy.wait_gmem_to_smem' comes after it}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
      acopy.wait_gmem_to_smem {pending = 0 : i64}
    }
    gpu.return
  }
}

// -----

// After the loop only the consumers run: a barrier of the whole block there
// (nvvm.barrier) would wait for the producer warp.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'nvvm.barrier' comes after it}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    nvvm.barrier
    gpu.return
  }
}

// -----

// After the loop only the consumers run: a barrier of the whole block there
// (nvvm.cluster.arrive) would wait for the producer warp.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'nvvm.cluster.arrive' comes after it}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    nvvm.cluster.arrive
    gpu.return
  }
}

// -----

// At the kernel's top level a copy into shared memory and its wait may stand before the
// loop (every thread runs them: tests/pipeline/warp-specialized-prologue-copy.mlir); in
// the persistent loop around it they may not, since the producer warp runs its own copy
// of the code there.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %head: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %t = %c0 to %n step %c1 {
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'acopy.copy_gmem_to_smem' comes before it and needs the whole block (the consumers run it alone)}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        %h = memref.load %head[%c0, %tid] : memref<8x128xf32, 3>
        %s = arith.addf %v, %h : f32
        memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The producer needs the copy's row, which a load gives: only value computations
// may give what the producer's copies read.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %rows: memref<64xindex>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %t = %c0 to %n step %c1 {
      %first = memref.load %rows[%t] : memref<64xindex>
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but its copies or bounds need the value of 'memref.load', which more than computes a value (the producer cannot run it)}}
      scf.for %i = %c0 to %n step %c1 {
        %step = arith.muli %i, %c8 : index
        %row = arith.addi %first, %step : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    gpu.return
  }
}

// -----

// A barrier of the whole block before the loop: the consumers alone would reach it.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    nvvm.barrier0
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'nvvm.barrier0' comes before it and needs the whole block (the consumers run it alone)}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

// At the top level, a copy into shared memory after something only the consumers run
// (a gpu.barrier) would be the consumers' alone too; on cp.async its lowering deals
// the chunks over the whole block, which the consumers are not.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %head: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    gpu.barrier
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'acopy.copy_gmem_to_smem' comes before it and needs the whole block (the consumers run it alone)}}
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

// -----

// A store to global memory before the persistent loop, which every thread runs (the producer warp too).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    memref.store %z, %out[%c0, %tid] : memref<4096x128xf32>
    scf.for %t = %c0 to %n step %c1 {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'memref.store' comes before it}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    gpu.return
  }
}


// -----

// An op with a region, even one that only computes, before the persistent loop, which every thread runs (the producer warp too).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %z = arith.constant 0.0 : f32
    scf.if %flag {
      %w = arith.addi %c0, %c1 : index
    }
    scf.for %t = %c0 to %n step %c1 {
      // RULE: P18
      // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'scf.if' comes before it}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    }
    gpu.return
  }
}

// -----

// A grid dependency the consumers would run alone (after a barrier of theirs): the producer's copies must wait too.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %bid = arith.constant 1 : i32
    %bth = arith.constant 128 : i32
    nvvm.barrier id = %bid number_of_threads = %bth
    nvvm.griddepcontrol wait
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'nvvm.griddepcontrol' comes before it and needs the whole block (the consumers run it alone)}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}


// -----

// A grid dependency after the loop, which the consumers run alone.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P18
    // expected-error @+1 {{a loop marked acopy.pipeline with producer = "warp" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer warp runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but 'nvvm.griddepcontrol' comes after it}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    nvvm.griddepcontrol launch_dependents
    gpu.return
  }
}
