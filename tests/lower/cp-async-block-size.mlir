// The chunks are shared by all threads of the block. Without a known block
// size, thread t of n issues chunks t, t+n, ... in a loop that works for any n;
// with gpu.known_block_size or nvvm.reqntid the rounds are unrolled (up to 16),
// and only a final partial round is guarded.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @any_block_size
// Thread-index reads and constants are built once, at the top of the kernel.
// CHECK-DAG: %[[DX:.*]] = gpu.block_dim x
// CHECK-DAG: %[[DY:.*]] = gpu.block_dim y
// CHECK-DAG: %[[DZ:.*]] = gpu.block_dim z
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[TZ:.*]] = gpu.thread_id z
// CHECK-DAG: %[[TOTAL:.*]] = arith.constant 1024 : index
// CHECK: %[[ZY:.*]] = arith.muli %[[TZ]], %[[DY]] : index
// CHECK: %[[YZ:.*]] = arith.addi %[[ZY]], %[[TY]] : index
// CHECK: %[[YX:.*]] = arith.muli %[[YZ]], %[[DX]] : index
// CHECK: %[[T:.*]] = arith.addi %[[YX]], %[[TX]] : index
// CHECK: %[[XY:.*]] = arith.muli %[[DX]], %[[DY]] : index
// CHECK: %[[N:.*]] = arith.muli %[[XY]], %[[DZ]] : index
// CHECK: scf.for %{{.*}} = %[[T]] to %[[TOTAL]] step %[[N]] {
// CHECK-COUNT-1: nvvm.cp.async.shared.global
// CHECK: }
// PTX-LABEL: .entry any_block_size(
// PTX-DAG: %ntid.x
// PTX-DAG: %ntid.y
// PTX-DAG: %ntid.z
// PTX: cp.async.cg.shared.global

// 200 chunks over 32x4 = 128 threads: a full round, then a guarded one.
// CHECK-LABEL: gpu.func @known_block_size
// CHECK-NOT: gpu.block_dim
// CHECK-NOT: gpu.thread_id z
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C200:.*]] = arith.constant 200 : index
// CHECK: %[[Y32:.*]] = arith.muli %[[TY]], %{{.*}} : index
// CHECK: %[[T:.*]] = arith.addi %[[Y32]], %[[TX]] : index
// CHECK-NOT: scf.for
// CHECK: arith.remui %[[T]], %{{.*}} : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: %[[SECOND:.*]] = arith.addi %[[T]], %[[C128]] : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[SECOND]], %[[C200]] : index
// CHECK: scf.if %[[INSIDE]] {
// CHECK: arith.remui %[[SECOND]], %{{.*}} : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// PTX-LABEL: .entry known_block_size(
// PTX-NOT: %ntid
// PTX-COUNT-2: cp.async.cg.shared.global
// PTX-NOT: cp.async.cg.shared.global
// PTX: cp.async.commit_group;

// nvvm.reqntid with one dimension: 16 chunks for 64 threads, one guarded round.
// CHECK-LABEL: gpu.func @reqntid
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[TX]], %[[C16]] : index
// CHECK: scf.if %[[INSIDE]] {
// CHECK-COUNT-1: nvvm.cp.async.shared.global
// CHECK: }

// 1024 chunks over 32 threads is 32 rounds: a loop with a constant step.
// CHECK-LABEL: gpu.func @many_rounds
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[TOTAL:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 32 : index
// CHECK: scf.for %{{.*}} = %[[TX]] to %[[TOTAL]] step %[[STEP]] {

// gpu.func's own `known_block_size` (what MLIR 22 prints and acopy's kernel
// builders make) counts as well: 64 chunks over 48 threads, a full round and
// a guarded one, with no block_dim.
// CHECK-LABEL: gpu.func @inherent_known_block_size
// CHECK-NOT: gpu.block_dim
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[SECOND:.*]] = arith.addi %[[TX]], %[[C48]] : index
// CHECK: arith.cmpi ult, %[[SECOND]], %[[C64]] : index
// CHECK-NOT: gpu.block_dim
// CHECK: gpu.return
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @any_block_size(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @known_block_size(%src: memref<256x512xf32>) workgroup(%tile : memref<10x80xf32, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 32, 4, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<10x80xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @reqntid(%src: memref<256x512xf32>) workgroup(%tile : memref<4x16xf32, 3>) kernel
      attributes {nvvm.reqntid = array<i32: 64>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<4x16xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @many_rounds(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @inherent_known_block_size(%src: memref<256x512xf32>) workgroup(%tile : memref<4x64xf32, 3>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<4x64xf32, 3>, index, index) -> ()
    gpu.return
  }
}
