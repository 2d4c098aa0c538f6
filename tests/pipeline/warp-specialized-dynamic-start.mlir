// A warp-specialized TMA loop whose copy starts at a column the alignment proof
// cannot read (a kernel argument) checks it at run time, like any TMA copy
// (docs/lowering-tma.md, "Misaligned starts"): aligned, the producer's one thread
// issues the TMA copy; misaligned, that thread copies the tile with cp.async and
// completes the slot's full barrier itself (cp.async.mbarrier.arrive, then one
// arrive of its own), with no block barrier, which the consumers would never reach.
// A shard-10 mutation survivor (2026-12-03: a one-thread producer taken for an
// internal error) showed no test reached this path.
// RUN: acopy-opt %s --acopy-lower 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK-LABEL: gpu.func @k
// CHECK: %[[PRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %c128{{.*}} : index
// CHECK: scf.if %[[PRODUCER]] {
// CHECK: scf.for
// CHECK: %[[LOW:.*]] = arith.andi %arg3, %c3 : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0 : index
// CHECK: scf.if %[[ALIGNED]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c4096_i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: } else {
// CHECK: %[[LANE:.*]] = arith.subi %{{.*}}, %c128 : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.shared.global
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.mbarrier.arrive %[[BAR:[0-9]+]] : !llvm.ptr<3>
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0 : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3> -> i64
// CHECK: } {acopy.issuers = array<i32: 128, 1>}
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: cp.async.mbarrier.arrive.shared.b64
// PTX-NOT: bar.sync 0;
// PTX: bar.sync{{[[:space:]]+}}1, 128;
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x256xf32>, %out: memref<4096x128xf32>, %n: index, %col: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %col] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x256xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      gpu.barrier
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}
