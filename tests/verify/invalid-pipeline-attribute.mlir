// Rule P1 (docs/verification.md): the attribute is not a dictionary with exactly `stages`, an integer in [1, max-stages] or "auto": 0, 9 (above the default max-stages 8), a plain integer, a word other than "auto", a producer other than "block", "warp" or "warpgroup", an entry other than stages, producer, producer_registers and release, a producer_registers without producer = "warpgroup" or not a multiple of 8 in [24, 256] (20, 260, 30), and a release without a producer warp or warpgroup or other than "thread" or "warp".
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-12: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {stages = 0 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 0 : i64}}
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
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {stages = 9 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 9 : i64}}
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
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is 3 : i64}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = 3 : i64}
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
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {stages = "fast"}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = "fast"}}
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
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "thread", stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "thread"}}
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
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {consumers = 2 : i64, stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, consumers = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "warp", producer_registers = 24 : i64, stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {producer = "warp", producer_registers = 24 : i64, stages = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "warpgroup", producer_registers = 20 : i64, stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {producer = "warpgroup", producer_registers = 20 : i64, stages = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "warpgroup", producer_registers = 260 : i64, stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {producer = "warpgroup", producer_registers = 260 : i64, stages = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "warpgroup", producer_registers = 30 : i64, stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {producer = "warpgroup", producer_registers = 30 : i64, stages = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {release = "warp", stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {release = "warp", stages = 2 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P1
    // expected-error @+1 {{acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, 8] or stages = "auto", and optionally producer = "block", "warp" or "warpgroup" (with "warpgroup", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with "warp" or "warpgroup", optionally release = "thread" or "warp"), but it is {producer = "warp", release = "lane", stages = 2 : i64}}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {producer = "warp", release = "lane", stages = 2 : i64}}
    gpu.return
  }
}
