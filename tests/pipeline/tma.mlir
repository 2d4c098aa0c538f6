// acopy-pipeline on the TMA path (sm_90), from the same body form as cp.async:
// one mbarrier per slot in a shared global (arrival count = copies per
// iteration), initialised once at the kernel's entry with the tile count at 0;
// at the loop the count n is read; each iteration: fence.proxy.async and a
// barrier (every thread has left the slot), the guarded refill of slot
// (n+k+S-1) mod S with its barrier, then the wait on slot (n+k) mod S at parity
// ((n+k) / S) & 1; after the loop the count moves on by T.
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
// CHECK-NEXT: gpu.barrier
// CHECK: %[[A0:.+]] = memref.assume_alignment %{{.+}}, 128
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{[^],]+}}, %{{[^],]+}}] -> %[[A0]] barrier(%{{.+}} : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"}
// CHECK: scf.for %[[IV:.+]] = %{{.+}} to %arg2 step
// CHECK: %[[N:.+]] = arith.addi %[[BASE]], %[[IV]] : index
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: arith.remui %{{.+}}, %c3
// CHECK: acopy.copy_gmem_to_smem
// CHECK: %[[SLOT:.+]] = arith.remui %[[N]], %c3
// CHECK: %[[BAR:.+]] = memref.view %[[G2:.+]][%{{.+}}][] : memref<32xi8, 3> to memref<1xi64, 3>
// CHECK: %[[PHASE:.+]] = arith.divui %[[N]], %c3
// CHECK: %[[PAR:.+]] = arith.andi %[[PHASE]], %c1
// CHECK-NEXT: %[[BIT:.+]] = arith.index_cast %[[PAR]] : index to i1
// CHECK-NEXT: acopy.barrier_wait %[[BAR]], %[[BIT]] : memref<1xi64, 3>
// CHECK-NOT: acopy.wait_gmem_to_smem
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
