// acopy-pipeline on the cp.async path (sm_80): the prologue issues S-1 guarded
// copies into slots 0..S-2 (padded slot bytes apart); each iteration passes a
// barrier (every thread has left slot (k-1) mod S), refills it with tile k+S-1
// when k < T-(S-1) (a skipped refill commits C empty groups instead, so the
// count never shifts at the tail), then waits for tile k with a constant
// C*(S-1) groups pending: all S tiles are in flight while one is awaited. The
// consumers read slot k mod S. k and the slot are
// iter_args of the loop: no division, remainder or switch in the steady state
// (the LEAN prefix: none anywhere in the output).
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | FileCheck %s --check-prefix=LEAN
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | acopy-opt --acopy-verify --split-input-file
// RUN: acopy-opt %s --acopy-pipeline --split-input-file > %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_80 sm_80 sm_80

// S = 3, one copy of a 4096-byte tile, dynamic trip count %n.
// CHECK-LABEL: gpu.func @three
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<12288xi8, 3> {llvm.align = 16 : i64})
// LEAN-NOT: arith.divui
// LEAN-NOT: arith.remui
// LEAN-NOT: scf.index_switch
// CHECK: %[[T:.+]] = arith.maxsi %arg2, %{{.+}} : index
// CHECK-NEXT: %[[K0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[SLOT0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[LIMIT:.+]] = arith.subi %[[T]], %[[C2]] : index
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi slt, %{{.+}}, %[[T]]
// CHECK: memref.view %[[BUF]][%{{.+}}][] : memref<12288xi8, 3> to memref<8x128xf32, 3>
// CHECK-NEXT: acopy.copy_gmem_to_smem
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// CHECK: %[[C4096:.+]] = arith.constant 4096 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[C4096]]][]
// CHECK-NEXT: acopy.copy_gmem_to_smem
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[IV:.+]] = %{{.+}} to %arg2 step %{{.+}} iter_args(%[[K:.+]] = %[[K0]], %[[SLOT:.+]] = %[[SLOT0]]) -> (index, index) {
// CHECK: gpu.barrier
// CHECK-NEXT: %[[MORE:.+]] = arith.cmpi slt, %[[K]], %[[LIMIT]] : index
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK: %[[AHEAD:.+]] = arith.addi %[[SLOT]], %c2{{.*}} : index
// CHECK: %[[PAST:.+]] = arith.cmpi sge, %[[AHEAD]], %c3{{.*}} : index
// CHECK-NEXT: %[[REFILL:.+]] = arith.select %[[PAST]], %{{.+}}, %[[AHEAD]] : index
// CHECK: arith.muli %[[REFILL]], %c4096
// CHECK: acopy.copy_gmem_to_smem
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: acopy.wait_gmem_to_smem {pending = 2 : i64}
// CHECK: %[[SHIFT:.+]] = arith.muli %[[SLOT]], %c4096
// CHECK: %[[VIEW:.+]] = memref.view %[[BUF]][%[[SHIFT]]][]
// CHECK: memref.load %[[VIEW]]
// CHECK: %[[K1:.+]] = arith.addi %[[K]], %c1{{.*}} : index
// CHECK: %[[S1:.+]] = arith.addi %[[SLOT]], %c1{{.*}} : index
// CHECK: %[[SUB:.+]] = arith.subi %[[S1]], %c3{{.*}} : index
// CHECK: %[[WRAP:.+]] = arith.cmpi sge, %[[S1]], %c3{{.*}} : index
// CHECK-NEXT: %[[SN:.+]] = arith.select %[[WRAP]], %[[SUB]], %[[S1]] : index
// CHECK-NEXT: scf.yield %[[K1]], %[[SN]] : index, index
// CHECK: {acopy.pipelined = {stages = 3 : i64}}
// CHECK-NOT: acopy.pipeline =
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @three(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
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

// S = 2: the wait leaves 1 group pending, the slot advances by a mask.
// CHECK-LABEL: gpu.func @two
// CHECK-SAME: memref<8192xi8, 3>
// CHECK: scf.for %[[IV:.+]] = {{.+}} iter_args(%[[K:.+]] = %{{.+}}, %[[SLOT:.+]] = %{{.+}}) -> (index, index)
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: %[[AHEAD:.+]] = arith.addi %[[SLOT]], %c1
// CHECK: arith.andi %[[AHEAD]], %c1
// CHECK: acopy.copy_gmem_to_smem
// CHECK: acopy.wait_gmem_to_smem {pending = 1 : i64}
// CHECK: arith.muli %[[SLOT]], %c4096
// CHECK: %[[S1:.+]] = arith.addi %[[SLOT]], %c1
// CHECK: %[[SN:.+]] = arith.andi %[[S1]], %c1
// CHECK-NEXT: scf.yield %{{.+}}, %[[SN]] : index, index
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @two(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// S = 1: no prologue; a barrier orders the previous iteration's reads before the copy.
// CHECK-LABEL: gpu.func @one
// CHECK-SAME: memref<4096xi8, 3>
// CHECK: scf.for %{{.+}} = %{{.+}} to %arg2 step %{{.+}} {
// CHECK: gpu.barrier
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.+}}[%[[C0]]][]
// CHECK-NEXT: acopy.copy_gmem_to_smem
// CHECK-NEXT: acopy.wait_gmem_to_smem {pending = 0 : i64}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @one(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 1 : i64}}
    gpu.return
  }
}

// -----

// S = 4, two copies per iteration (an axpy's x and y), dynamic lb and step:
// T = max(ceildiv(ub - lb, step), 0) once before the loop, k counted, and the
// wait counts 2 groups per iteration ahead: 6 in every iteration, two empty
// groups where a refill is skipped. The refill reads iv + 3 * step, hoisted.
// The 100-float tile pads to 400 -> 400 bytes (a multiple of 16), x 4 slots.
// CHECK-LABEL: gpu.func @axpy
// CHECK-SAME: workgroup(%[[X:.+]] : memref<1600xi8, 3> {llvm.align = 16 : i64}, %[[Y:.+]] : memref<16384xi8, 3> {llvm.align = 16 : i64})
// CHECK: %[[SPAN:.+]] = arith.subi %arg4, %arg3 : index
// CHECK-NEXT: %[[CEIL:.+]] = arith.ceildivsi %[[SPAN]], %arg5 : index
// CHECK: %[[T:.+]] = arith.maxsi %[[CEIL]], %{{.+}} : index
// CHECK: %[[LIMIT:.+]] = arith.subi %[[T]], %c3{{.*}} : index
// CHECK: %[[OFFSET:.+]] = arith.muli %c3{{.*}}, %arg5 : index
// CHECK-COUNT-6: acopy.copy_gmem_to_smem
// CHECK: scf.for %[[IV:.+]] = %arg3 to %arg4 step %arg5 iter_args(%[[K:.+]] = %{{.+}}, %[[SLOT:.+]] = %{{.+}}) -> (index, index)
// CHECK: gpu.barrier
// CHECK-NEXT: %[[MORE:.+]] = arith.cmpi slt, %[[K]], %[[LIMIT]] : index
// CHECK-NEXT: scf.if %[[MORE]]
// CHECK-NEXT: arith.addi %[[IV]], %[[OFFSET]] : index
// CHECK: arith.addi %[[SLOT]], %c3
// CHECK-COUNT-2: acopy.copy_gmem_to_smem
// CHECK: } else {
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: acopy.wait_gmem_to_smem {pending = 6 : i64}
// CHECK: arith.muli %[[SLOT]], %c400
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @axpy(%x: memref<100000xf32>, %y: memref<1000x256xf32>, %out: memref<1000x256xf32>, %lb: index, %ub: index, %step: index) workgroup(%tx: memref<100xf32, 3>, %ty: memref<4x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c100 = arith.constant 100 : index
    %tid = gpu.thread_id x
    scf.for %i = %lb to %ub step %step {
      %xs = arith.muli %i, %c100 : index
      %row = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %x[%xs] -> %tx {oob_mode = "promise_in_bounds"} : memref<100000xf32> -> memref<100xf32, 3>
      acopy.copy_gmem_to_smem %y[%row, %c0] -> %ty {oob_mode = "promise_in_bounds"} : memref<1000x256xf32> -> memref<4x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %a = memref.load %tx[%c0] : memref<100xf32, 3>
      %b = memref.load %ty[%c0, %tid] : memref<4x256xf32, 3>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%row, %tid] : memref<1000x256xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
