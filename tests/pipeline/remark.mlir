// Each loop the pass rewrites gets one remark at it with what it chose: the
// stages, each tile's slots (padded: 100 bytes to 112 on cp.async, 192 to 256
// on TMA), the path and chip, and the wait count (cp.async: C x (S-1) in every
// iteration, for C = 2 copies, S = 3: 4) or the barriers (TMA: one per slot). The
// same numbers reach acopy::compile as data (facade/tests/pipeline.rs).
// RUN: acopy-opt %s --acopy-pipeline --split-input-file --verify-diagnostics | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90 sm_80

// CHECK-LABEL: gpu.func @axpy
// CHECK-SAME: workgroup(%{{.+}} : memref<336xi8, 3> {llvm.align = 16 : i64}, %{{.+}} : memref<12288xi8, 3> {llvm.align = 16 : i64})
// CHECK: scf.for
// CHECK: acopy.wait_gmem_to_smem {pending = 4 : i64}
// CHECK-NOT: acopy.wait_gmem_to_smem
// CHECK: acopy.pipelined = {stages = 3 : i64}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @axpy(%x: memref<100000xf32>, %y: memref<1000x256xf32>, %out: memref<1000x256xf32>, %n: index) workgroup(%tx: memref<25xf32, 3>, %ty: memref<4x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c25 = arith.constant 25 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 3 stages, cp.async on sm_80; 3 slots of 112 bytes (16-byte aligned) for memref<25xf32, 3>, 3 slots of 4096 bytes (16-byte aligned) for memref<4x256xf32, 3>; waits: cp.async.wait_group 4 in every iteration (2 copies per iteration, empty groups where none is issued); 12624 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %xs = arith.muli %i, %c25 : index
      %row = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %x[%xs] -> %tx {oob_mode = "promise_in_bounds"} : memref<100000xf32> -> memref<25xf32, 3>
      acopy.copy_gmem_to_smem %y[%row, %c0] -> %ty {oob_mode = "promise_in_bounds"} : memref<1000x256xf32> -> memref<4x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %a = memref.load %tx[%c0] : memref<25xf32, 3>
      %b = memref.load %ty[%c0, %tid] : memref<4x256xf32, 3>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%row, %tid] : memref<1000x256xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rows
// CHECK-SAME: workgroup(%{{.+}} : memref<1024xi8, 3> {llvm.align = 128 : i64})
// CHECK-COUNT-4: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64}
// CHECK: acopy.pipelined = {stages = 4 : i64}
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @rows(%src: memref<300x16xf32>, %out: memref<300x16xf32>) workgroup(%tile: memref<3x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c30 = arith.constant 30 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 4 stages, TMA on sm_90; 4 slots of 256 bytes (128-byte aligned) for memref<3x16xf32, 3>; 4 mbarriers of 1 arrival, parity (n / 4) & 1 for the n-th tile; 1064 bytes of shared memory}}
    scf.for %i = %c0 to %c30 step %c3 {
      acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<300x16xf32> -> memref<3x16xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<3x16xf32, 3>
      memref.store %v, %out[%i, %tid] : memref<300x16xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}

// -----

// S = 1 on cp.async waits for 0 once: the remark names that count (it once
// printed an empty list).
// CHECK-LABEL: gpu.func @single
// CHECK: acopy.pipelined = {stages = 1 : i64}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @single(%y: memref<1000x256xf32>, %out: memref<1000x256xf32>, %n: index) workgroup(%ty: memref<4x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 1 stage, cp.async on sm_80; 1 slot of 4096 bytes (16-byte aligned) for memref<4x256xf32, 3>; waits: cp.async.wait_group 0 in every iteration (1 copy per iteration, empty groups where none is issued); 4096 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %y[%row, %c0] -> %ty {oob_mode = "promise_in_bounds"} : memref<1000x256xf32> -> memref<4x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %b = memref.load %ty[%c0, %tid] : memref<4x256xf32, 3>
      memref.store %b, %out[%row, %tid] : memref<1000x256xf32>
    } {acopy.pipeline = {stages = 1 : i64}}
    gpu.return
  }
}
