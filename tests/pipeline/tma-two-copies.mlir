// TMA with two copies per iteration (an axpy's x and y) and S = 2: each slot's
// barrier expects 2 arrivals, both copies of an iteration complete the same
// barrier, the slot advances by a mask and the parity flips when it wraps.
// S = 1 on TMA: the refill is the iteration's own copy, unguarded, after the
// fence and barrier; the slot stays 0 and the parity flips every iteration.
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90 sm_90

// CHECK-LABEL: gpu.func @axpy
// CHECK-COUNT-2: acopy.barrier_init %{{.+}} {arrival_count = 2 : i64}
// CHECK-NOT: acopy.barrier_init
// CHECK: scf.for %[[IV:.+]] = {{.+}} iter_args(%{{.+}} = %{{.+}}, %[[SLOT:.+]] = %{{.+}}, %[[BIT:.+]] = %{{.+}}) -> (index, index, i1)
// CHECK: scf.if
// CHECK: %[[BAR:.+]] = memref.view %{{.+}}[%{{.+}}][] : memref<24xi8, 3> to memref<1xi64, 3>
// CHECK-NEXT: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%[[BAR]] : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"}
// CHECK: %[[BAR2:.+]] = memref.view %{{.+}}[%{{.+}}][] : memref<24xi8, 3> to memref<1xi64, 3>
// CHECK-NEXT: acopy.copy_gmem_to_smem %arg1[%{{.+}}] -> %{{.+}} barrier(%[[BAR2]] : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"}
// CHECK: acopy.barrier_wait %{{.+}}, %[[BIT]]
// CHECK: %[[S1:.+]] = arith.addi %[[SLOT]], %c1
// CHECK: %[[SN:.+]] = arith.andi %[[S1]], %c1
// CHECK: %[[WRAPPED:.+]] = arith.cmpi eq, %[[SN]], %c0
// CHECK-NEXT: %[[FLIP:.+]] = arith.xori %[[BIT]], %[[WRAPPED]] : i1
// CHECK-NEXT: scf.yield %{{.+}}, %[[SN]], %[[FLIP]] : index, index, i1
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @axpy(%x: memref<100000xf32>, %y: memref<1000x256xf32>, %out: memref<1000x256xf32>, %n: index) workgroup(%tx: memref<32xf32, 3>, %ty: memref<4x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %xs = arith.muli %i, %c32 : index
      %row = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %x[%xs] -> %tx {oob_mode = "promise_in_bounds"} : memref<100000xf32> -> memref<32xf32, 3>
      acopy.copy_gmem_to_smem %y[%row, %c0] -> %ty {oob_mode = "promise_in_bounds"} : memref<1000x256xf32> -> memref<4x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %a = memref.load %tx[%c0] : memref<32xf32, 3>
      %b = memref.load %ty[%c0, %tid] : memref<4x256xf32, 3>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%row, %tid] : memref<1000x256xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @one
// CHECK-SAME: memref<4096xi8, 3>
// CHECK: scf.for %[[IV:.+]] = {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %[[BIT:.+]] = %{{.+}}) -> (index, index, i1)
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: acopy.copy_gmem_to_smem
// CHECK: acopy.barrier_wait %{{.+}}, %[[BIT]]
// CHECK: %[[FLIP:.+]] = arith.xori %[[BIT]], %{{.+}} : i1
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[FLIP]] : index, index, i1
gpu.module @m [#nvvm.target<chip = "sm_90">] {
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
