// The native TMA form in a marked loop (sm_90): the copies carry a barrier
// initialised before the loop, and the body waits with barrier_wait at a
// parity the user computed from the iteration. The pass replaces that barrier
// with its own S barriers (one per slot, arrival count = copies per
// iteration) and parities ((n+k) / S) & 1 (carried by the loop, flipped when
// the slot wraps to 0), exactly as for the portable form:
// the user's barrier_init, barrier_wait and parity computation are gone, the
// user's barrier attribution is left unused. The loop's remark says so.
// RUN: acopy-opt %s --acopy-pipeline --split-input-file --verify-diagnostics | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | acopy-opt --acopy-verify --split-input-file
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90 sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK: memref.global "private" @__acopy_pipeline_0 : memref<40xi8, 3>
// CHECK-LABEL: gpu.func @native
// CHECK-SAME: workgroup(%{{.+}} : memref<16384xi8, 3> {llvm.align = 128 : i64}, %[[USER:.+]] : memref<1xi64, 3>)
// CHECK-COUNT-4: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64}
// CHECK-NOT: acopy.barrier_init
// CHECK-NOT: %[[USER]]
// CHECK: %[[COUNT:.+]] = memref.load
// CHECK: %[[BASE:.+]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK: %[[SLOT0:.+]] = arith.andi %[[BASE]], %c3
// CHECK: %[[PHASE:.+]] = arith.divui %[[BASE]], %c4
// CHECK: %[[PAR:.+]] = arith.andi %[[PHASE]], %c1
// CHECK-NEXT: %[[BIT0:.+]] = arith.index_cast %[[PAR]] : index to i1
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %arg2 step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[SLOT:.+]] = %[[SLOT0]], %[[BIT:.+]] = %[[BIT0]]) -> (index, index, i1) {
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}} : memref<1xi64, 3>)
// CHECK: %[[SHIFT:.+]] = arith.muli %[[SLOT]], %c8
// CHECK: %[[BAR:.+]] = memref.view %{{.+}}[%[[SHIFT]]][] : memref<40xi8, 3> to memref<1xi64, 3>
// CHECK-NEXT: acopy.barrier_wait %[[BAR]], %[[BIT]] : memref<1xi64, 3>
// CHECK-NOT: acopy.barrier_wait
// CHECK-NOT: arith.remui
// CHECK-NOT: arith.divui
// CHECK: %[[S1:.+]] = arith.addi %[[SLOT]], %c1
// CHECK: %[[SN:.+]] = arith.andi %[[S1]], %c3
// CHECK: %[[WRAPPED:.+]] = arith.cmpi eq, %[[SN]], %c0
// CHECK-NEXT: arith.xori %[[BIT]], %[[WRAPPED]] : i1
// CHECK: } {acopy.pipelined = {stages = 4 : i64}}

// PTX: .target sm_90
// PTX-COUNT-4: mbarrier.init.shared.b64
// PTX-NOT: mbarrier.init
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @native(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    gpu.barrier
    // expected-remark@+1 {{acopy.pipeline: 4 stages, TMA on sm_90; 4 slots of 4096 bytes (128-byte aligned) for memref<8x128xf32, 3>; 4 mbarriers of 1 arrival, parity (n / 4) & 1 for the n-th tile, replacing the loop's own barrier; 16424 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      %phase = arith.remui %i, %c2 : index
      %parity = arith.index_cast %phase : index to i1
      acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}

// -----

// Two copies on one barrier (arrival count 2), in an outer loop that
// re-initialises it each round, on sm_90a: the user's init in the outer loop
// is dropped (the pass's barriers are initialised once, at the kernel's entry,
// and keep their phases across entries through the tile count).
// CHECK-LABEL: gpu.func @outer
// CHECK-COUNT-2: acopy.barrier_init %{{.+}} {arrival_count = 2 : i64}
// CHECK-NOT: acopy.barrier_init
// CHECK: scf.for
// CHECK: scf.for
// CHECK: acopy.barrier_wait
// CHECK-NOT: acopy.barrier_wait
// CHECK: } {acopy.pipelined = {stages = 2 : i64}}
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.index_cast
// CHECK: memref.store
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @outer(%x: memref<4096x128xf32>, %y: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tx: memref<8x128xf32, 3>, %ty: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %r = %c0 to %c3 step %c1 {
      acopy.barrier_init %bar {arrival_count = 2 : i64} : memref<1xi64, 3>
      // expected-remark@+1 {{acopy.pipeline: 2 stages, TMA on sm_90a; 2 slots of 4096 bytes (128-byte aligned) for memref<8x128xf32, 3>, 2 slots of 4096 bytes (128-byte aligned) for memref<8x128xf32, 3>; 2 mbarriers of 2 arrivals, parity (n / 2) & 1 for the n-th tile, replacing the loop's own barrier; 16408 bytes of shared memory}}
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %x[%row, %c0] -> %tx barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        acopy.copy_gmem_to_smem %y[%row, %c0] -> %ty barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        %parity = arith.index_cast %i : index to i1
        acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
        %a = memref.load %tx[%c0, %tid] : memref<8x128xf32, 3>
        %b = memref.load %ty[%c0, %tid] : memref<8x128xf32, 3>
        %s = arith.addf %a, %b : f32
        memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64}}
    }
    gpu.return
  }
}
