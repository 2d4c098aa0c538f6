// Rule P11 (docs/verification.md): slots that do not fit the 48 KiB of static shared
// memory move to dynamic shared memory (tests/pipeline/dynamic-smem.mlir), unless the
// kernel places dynamic shared memory itself, has another marked loop, keeps more
// than 48 KiB static without the slots (barriers, shared globals, attributions that
// cannot move).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-5: error: 

// Two marked loops: each counts the other's tile with its slots (4 x 8 KiB), so
// verification before pipelining sees what the pipeliner sees after the first rewrite.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @two_loops(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%a: memref<16x128xf32, 3>, %b: memref<16x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (4 x 8192 bytes for memref<16x128xf32, 3>, 32768 bytes of other shared memory), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: the kernel has 2 loops marked acopy.pipeline, and only a kernel's one marked loop can move; at most 2 stages fit in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      "acopy.copy_gmem_to_smem"(%src, %a, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %a[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (4 x 8192 bytes for memref<16x128xf32, 3>, 32768 bytes of other shared memory), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: the kernel has 2 loops marked acopy.pipeline, and only a kernel's one marked loop can move; at most 2 stages fit in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      "acopy.copy_gmem_to_smem"(%src, %b, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %b[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}

// -----

// The kernel uses gpu.dynamic_shared_memory itself: the pass does not share it.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @own_dynamic(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %own = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (2 x 32768 bytes for memref<64x128xf32, 3>), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: the kernel uses gpu.dynamic_shared_memory itself; at most 1 stage fits in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %own[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// The kernel already records dynamic shared bytes (acopy.dynamic_shared_memory).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @recorded(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3>) kernel attributes {acopy.dynamic_shared_memory = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 65536 bytes in static shared memory (2 x 32768 bytes for memref<64x128xf32, 3>), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: the kernel already carries acopy.dynamic_shared_memory; at most 1 stage fits in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// Without the slots, 48 KiB + 16 bytes of the kernel's other shared memory (and the
// barriers) stay static: more than ptxas accepts even if the slots moved. A shared
// memref.global cannot move (a workgroup attribution of that size could:
// tests/pipeline/attribution-moves-with-slots.mlir).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  memref.global "private" @big : memref<12292xf32, 3>
  gpu.func @static_alone(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<32x128xf32, 3>) kernel {
    %big = memref.get_global @big : memref<12292xf32, 3>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    // RULE: P11
    // expected-error @+1 {{the pipelined loop puts 114744 bytes in static shared memory (4 x 16384 bytes for memref<32x128xf32, 3>, 40 bytes of barriers, 49168 bytes of other shared memory), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: 49208 bytes of barriers and other shared memory stay static, more than that alone; not even 1 stage fits in static shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c32 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<32x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<32x128xf32, 3>
      memref.store %v, %big[%tid] : memref<12292xf32, 3>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
