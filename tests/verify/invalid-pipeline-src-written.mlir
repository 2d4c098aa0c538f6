// Rule P8 (docs/verification.md): the body writes the src argument, directly or
// through a view of it (the same view-chain walker as the alignment proofs, also
// through memref.assume_alignment, which names the same memory), or a TMA store into it
// (the last case: a shard-7 mutation survivor, 2026-12-03, dropped acopy.copy_smem_to_gmem
// from the writers and no test noticed).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-4: error: the src
// CHECK-NOT: error:

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P8
    // expected-error @+1 {{the src (kernel argument #0 : memref<4096x128xf32>) of a pipelined copy is written in the loop by 'memref.store': the copy of a later iteration would be issued before that write}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      memref.store %v, %src[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %t = memref.transpose %src (i, j) -> (j, i) : memref<4096x128xf32> to memref<128x4096xf32, strided<[1, 128]>>
    // RULE: P8
    // expected-error @+1 {{the src (kernel argument #0 : memref<4096x128xf32>) of a pipelined copy is written in the loop by 'memref.store': the copy of a later iteration would be issued before that write}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %t[%tid, %row] : memref<128x4096xf32, strided<[1, 128]>>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %a = memref.assume_alignment %src, 64 : memref<4096x128xf32>
    // RULE: P8
    // expected-error @+1 {{the src (kernel argument #0 : memref<4096x128xf32>) of a pipelined copy is written in the loop by 'memref.store': the copy of a later iteration would be issued before that write}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %a[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %back: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P8
    // expected-error @+1 {{the src (kernel argument #0 : memref<4096x128xf32>) of a pipelined copy is written in the loop by 'acopy.copy_smem_to_gmem': the copy of a later iteration would be issued before that write}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %back[%c0, %tid] : memref<8x128xf32, 3>
      "acopy.copy_smem_to_gmem"(%back, %src, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<8x128xf32, 3>, memref<4096x128xf32>, index, index) -> ()
      "acopy.wait_smem_to_gmem"() : () -> ()
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
