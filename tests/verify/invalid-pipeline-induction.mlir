// P13: an unsigned marked loop over 64-bit values cannot be pipelined (the
// schedule is computed in signed 64-bit index arithmetic); the same loop over
// i32 values, signed or unsigned, is accepted (tests/pipeline/induction-types.mlir
// lowers them).
// RUN: acopy-opt %s --acopy-verify --verify-diagnostics --split-input-file
// RUN: not acopy-opt %s --acopy-lower --split-input-file 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER-COUNT-2: error: a loop marked acopy.pipeline cannot compare unsigned 64-bit induction values
// LOWER-NOT: error

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P13
    // expected-error @+1 {{a loop marked acopy.pipeline cannot compare unsigned 64-bit induction values (scf.for unsigned with an index or i64 induction variable): the pass computes its schedule in signed 64-bit index arithmetic; use a signed loop, or an unsigned one narrower than 64 bits}}
    scf.for unsigned %i = %c0 to %n step %c1 {
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

// i64 on a TMA chip: the same refusal.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: i64) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // expected-error @+1 {{cannot compare unsigned 64-bit induction values}}
    scf.for unsigned %k = %z to %n step %one : i64 {
      %i = arith.index_castui %k : i64 to index
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

// Signed i64 and unsigned i32 loops verify.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: i64, %m: i32) workgroup(%tile: memref<8x128xf32, 3>, %tile2: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %z32 = arith.constant 0 : i32
    %one32 = arith.constant 1 : i32
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %k = %z to %n step %one : i64 {
      %i = arith.index_cast %k : i64 to index
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    scf.for unsigned %k = %z32 to %m step %one32 : i32 {
      %i = arith.index_castui %k : i32 to index
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile2 {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile2[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
