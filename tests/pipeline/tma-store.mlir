// A TMA store of the result among the consumers of a marked loop (sm_90): the
// store of another shared tile and the user's wait_smem_to_gmem (read_only,
// before the tile is written again) stay in the body after the slot's
// barrier_wait, in order; the out tile is not multiplied; a wait after the loop
// stays after it, after the tile count is stored. In the PTX the loads wait on mbarriers while the store is a
// bulk group of its own, waited with .read in the loop.
// RUN: acopy-opt %s --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK-LABEL: gpu.func @scale
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<12288xi8, 3> {llvm.align = 128 : i64}, %[[TO:.+]] : memref<8x128xf32, 3>)
// CHECK: scf.for
// CHECK: acopy.barrier_wait
// CHECK: memref.view %[[BUF]]
// CHECK-NEXT: acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
// CHECK: memref.store %{{.+}}, %[[TO]]
// CHECK: acopy.copy_smem_to_gmem %[[TO]] -> %arg1[
// CHECK-NOT: acopy.copy_smem_to_gmem
// CHECK: } {acopy.pipelined
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<1xi64, 3>
// CHECK-NEXT: acopy.wait_smem_to_gmem {pending = 0 : i64}
// PTX: mbarrier.try_wait.parity
// PTX: cp.async.bulk.wait_group.read 0;
// PTX: fence.proxy.async.shared::cta;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group 0;
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @scale(%x: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tx: memref<8x128xf32, 3>, %to: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %two = arith.constant 2.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%x, %tx, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
      scf.for %r = %c0 to %c8 step %c1 {
        %v = memref.load %tx[%r, %tid] : memref<8x128xf32, 3>
        %w = arith.mulf %two, %v : f32
        memref.store %w, %to[%r, %tid] : memref<8x128xf32, 3>
      }
      "acopy.copy_smem_to_gmem"(%to, %out, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<8x128xf32, 3>, memref<4096x128xf32>, index, index) -> ()
    } {acopy.pipeline = {stages = 3 : i64}}
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
