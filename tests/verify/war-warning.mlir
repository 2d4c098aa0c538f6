// The write-after-read warning (docs/verification.md): an unmarked loop that
// copies into a tile, waits and reads it races with its own next copy unless a
// gpu.barrier orders the reads first. The warning is at the copy, names the
// tile and the reads, on both paths; a barrier at the end of the body, or one
// before the copy, silences it (--verify-diagnostics fails on an unexpected
// warning), and so does marking the loop.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-verify 2>&1 | FileCheck %s
// CHECK-COUNT-2: warning: this copy into the tile
// CHECK-NOT: warning

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @racy(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      // expected-warning @+1 {{this copy into the tile (workgroup attribution #0 : memref<8x128xf32, 3>) can overwrite it while other threads still read it in the previous iteration ('memref.load'): nothing orders those reads before the next iteration's copy; add a gpu.barrier at the end of the loop body, or mark the loop with acopy.pipeline, which orders them}}
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    }
    gpu.return
  }
}

// -----

// TMA: the same race through a barrier_wait.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @racy_tma(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      // expected-warning @+1 {{this copy into the tile (workgroup attribution #0 : memref<8x128xf32, 3>) can overwrite it while other threads still read it in the previous iteration ('memref.load')}}
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      "acopy.barrier_wait"(%bar, %false) : (memref<1xi64, 3>, i1) -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      %p = arith.cmpi eq, %tid, %c0 : index
      scf.if %p {
        %w = memref.load %tile[%c1, %tid] : memref<8x128xf32, 3>
        memref.store %w, %out[%c0, %tid] : memref<4096x128xf32>
      }
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    }
    gpu.return
  }
}

// -----

// A barrier at the end of the body: no warning.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @fenced(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A barrier before the copy: no warning either.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @fenced_first(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      gpu.barrier
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    }
    gpu.return
  }
}

// -----

// The same loop marked for pipelining: the pass orders it; no warning.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @marked(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
