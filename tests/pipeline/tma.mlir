// acopy-pipeline on the TMA path (sm_90), from the same body form as cp.async:
// one mbarrier per slot in a shared global (arrival count = copies per
// iteration), initialised once at the kernel's entry with the tile count at 0;
// at the loop the count n is read and divided once: the first slot n mod S and
// its parity (n / S) & 1 start the loop's carried slot and parity; each
// iteration: fence.proxy.async and a barrier (every thread has left the slot),
// the guarded refill of slot+S-1 (mod S) with its barrier, then the wait on
// the slot at the parity; the slot advances without a division and the parity
// flips when it wraps; after the loop the count moves on by T.
// RUN: acopy-opt %s --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK: memref.global "private" @__acopy_pipeline_0 : memref<32xi8, 3> = uninitialized {alignment = 8 : i64}
// CHECK-LABEL: gpu.func @tma
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<12288xi8, 3> {llvm.align = 128 : i64})
// CHECK-NEXT: %[[G:.+]] = memref.get_global @__acopy_pipeline_0
// CHECK-NEXT: %[[C24:.+]] = arith.constant 24 : index
// CHECK-NEXT: %[[CELL:.+]] = memref.view %[[G]][%[[C24]]][] : memref<32xi8, 3> to memref<1xi64, 3>
// CHECK: memref.store %{{.+}}, %[[CELL]]
// CHECK-COUNT-3: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64}
// CHECK: %[[COUNT:.+]] = memref.load
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: %[[BASE:.+]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK: %[[SLOT0:.+]] = arith.remui %[[BASE]], %c3
// CHECK: %[[PHASE:.+]] = arith.divui %[[BASE]], %c3
// CHECK: %[[PAR:.+]] = arith.andi %[[PHASE]], %c1
// CHECK-NEXT: %[[BIT0:.+]] = arith.index_cast %[[PAR]] : index to i1
// CHECK: gpu.barrier
// CHECK: %[[A0:.+]] = memref.assume_alignment %{{.+}}, 128
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{[^],]+}}, %{{[^],]+}}] -> %[[A0]] barrier(%{{.+}} : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"}
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %arg2 step %{{.+}} iter_args(%[[K:.+]] = %{{.+}}, %[[SLOT:.+]] = %[[SLOT0]], %[[BIT:.+]] = %[[BIT0]]) -> (index, index, i1) {
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: arith.addi %[[SLOT]], %c2
// CHECK: acopy.copy_gmem_to_smem
// CHECK: %[[SHIFT:.+]] = arith.muli %[[SLOT]], %c8
// CHECK: %[[BAR:.+]] = memref.view %[[G2:.+]][%[[SHIFT]]][] : memref<32xi8, 3> to memref<1xi64, 3>
// CHECK-NEXT: acopy.barrier_wait %[[BAR]], %[[BIT]] : memref<1xi64, 3>
// CHECK-NOT: acopy.wait_gmem_to_smem
// CHECK: %[[S1:.+]] = arith.addi %[[SLOT]], %c1
// CHECK: %[[SN:.+]] = arith.select %{{.+}}, %{{.+}}, %[[S1]] : index
// CHECK: %[[WRAPPED:.+]] = arith.cmpi eq, %[[SN]], %c0
// CHECK-NEXT: %[[FLIP:.+]] = arith.xori %[[BIT]], %[[WRAPPED]] : i1
// CHECK-NEXT: scf.yield %{{.+}}, %[[SN]], %[[FLIP]] : index, index, i1
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: } {acopy.pipelined = {stages = 3 : i64}}
// CHECK-NEXT: %[[END:.+]] = arith.addi %[[BASE]], %{{.+}} : index
// CHECK-NEXT: %[[END64:.+]] = arith.index_cast %[[END]] : index to i64
// CHECK: memref.store %[[END64]]

// PTX: .shared .align 128 .b8
// PTX-COUNT-3: mbarrier.init.shared.b64
// PTX: fence.proxy.async.shared::cta;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX-NOT: cp.async.wait_group
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
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
