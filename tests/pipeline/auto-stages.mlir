// stages = "auto" (docs/pipelining.md, "Choosing the stages"): the pass picks
// the fewest S >= 2 whose S - 1 tiles ahead hold the chip's bytes in flight
// (acopy_target::Chip::bytes_in_flight), at most max-stages and at most what
// fits the block's shared memory; the remark says which bound decided.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90 sm_90 sm_89 sm_86 sm_90

// CHECK-LABEL: gpu.func @ampere_8k
// CHECK: acopy.pipelined = {stages = 4 : i64}
// CHECK-LABEL: gpu.func @hopper_8k
// CHECK: acopy.pipelined = {stages = 7 : i64}
// CHECK-LABEL: gpu.func @hopper_32k
// CHECK-SAME: acopy.dynamic_shared_memory = 
// CHECK: acopy.pipelined = {stages = 3 : i64}
// CHECK-LABEL: gpu.func @ada_1k
// CHECK: acopy.pipelined = {stages = 8 : i64}
// CHECK-LABEL: gpu.func @ampere_48k
// CHECK: acopy.pipelined = {stages = 1 : i64}
// CHECK-LABEL: gpu.func @hopper_clamped
// CHECK: acopy.pipelined = {stages = 2 : i64}

// sm_80 wants 24 KiB in flight: 8 KiB tiles take S = 1 + 3 = 4.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @ampere_8k(%src: memref<4096x128xi32>, %out: memref<4096x128xi32>, %n: index) workgroup(%tile: memref<16x128xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 16 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 4 stages (auto: enough; 24576 bytes in flight for the 24576 bytes sm_80 wants), cp.async on sm_80; 4 slots of 8192 bytes (16-byte aligned) for memref<16x128xi32, 3>; waits: cp.async.wait_group 3 in every iteration (1 copy per iteration, empty groups where none is issued); 32768 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xi32> -> memref<16x128xi32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<16x128xi32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xi32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}

// -----

// sm_90 wants 48 KiB: the same tiles take S = 1 + 6 = 7 (TMA, 128-byte slots).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @hopper_8k(%src: memref<4096x128xi32>, %out: memref<4096x128xi32>, %n: index) workgroup(%tile: memref<16x128xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 16 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 7 stages (auto: enough; 49152 bytes in flight for the 49152 bytes sm_90 wants), TMA on sm_90; 7 slots of 8192 bytes (128-byte aligned) for memref<16x128xi32, 3>; 7 mbarriers of 1 arrival, parity (n / 7) & 1 for the n-th tile; 57408 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xi32> -> memref<16x128xi32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<16x128xi32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xi32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}

// -----

// 32 KiB tiles on sm_90: 2 ahead hold 64 KiB, S = 3 (the slots move to dynamic shared memory).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @hopper_32k(%src: memref<4096x128xi32>, %out: memref<4096x128xi32>, %n: index) workgroup(%tile: memref<64x128xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 64 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 3 stages (auto: enough; 65536 bytes in flight for the 49152 bytes sm_90 wants), TMA on sm_90; 3 slots of 32768 bytes (128-byte aligned) for memref<64x128xi32, 3>; 3 mbarriers of 1 arrival, parity (n / 3) & 1 for the n-th tile; 98336 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xi32> -> memref<64x128xi32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<64x128xi32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xi32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}

// -----

// sm_89 wants 8 KiB: 1 KiB tiles would take S = 9, max-stages (8) stops at 8.
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @ada_1k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 2 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 8 stages (auto: as many as max-stages allows; 7168 bytes in flight for the 8192 bytes sm_89 wants), cp.async on sm_89; 8 slots of 1024 bytes (16-byte aligned) for memref<2x128xf32, 3>; waits: cp.async.wait_group 7 in every iteration (1 copy per iteration, empty groups where none is issued); 8192 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<2x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<2x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}

// -----

// 48 KiB tiles and 8 KiB of other shared memory on sm_86 (99 KiB a block): S = 2 would
// need 104 KiB, so shared memory stops at S = 1.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @ampere_48k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<96x128xf32, 3>, %other: memref<2048xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 96 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 1 stage (auto: as many as shared memory allows; 0 bytes in flight for the 16384 bytes sm_86 wants), cp.async on sm_86; 1 slot of 49152 bytes (16-byte aligned) for memref<96x128xf32, 3>; waits: cp.async.wait_group 0 in every iteration (1 copy per iteration, empty groups where none is issued); 49152 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<96x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<96x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}


// -----

// A constant trip count clamps the automatic choice: the remark quotes the bytes
// the clamped count keeps in flight (2 trips: S = 2, one 8 KiB tile ahead), not the
// 48 KiB of the 7 stages it chose.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @hopper_clamped(%src: memref<4096x128xi32>, %out: memref<4096x128xi32>) workgroup(%tile: memref<16x128xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %crows = arith.constant 16 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 2 stages (the loop runs 2 times, so its 7 stages are clamped to 2) (auto: enough; 8192 bytes in flight for the 49152 bytes sm_90 wants), TMA on sm_90}}
    scf.for %i = %c0 to %c2 step %c1 {
      %row = arith.muli %i, %crows : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xi32> -> memref<16x128xi32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<16x128xi32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xi32>
    } {acopy.pipeline = {stages = "auto"}}
    gpu.return
  }
}
