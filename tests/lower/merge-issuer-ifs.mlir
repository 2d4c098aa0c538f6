// The lowering guards each TMA copy's issue with an scf.if on the issuer
// condition; ifs that follow each other on the same condition value, with no op
// between, are merged into the first (passes/src/ir/merge_ifs.rs: ten copies in
// a row make one region, not ten, and LLVM two blocks, not twenty). Not merged:
// ifs with an op between them (the user's store stays between the copies it
// separates). A predicated copy's own if stays inside the merged one.
// RUN: acopy-opt %s --acopy-lower 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90

// Three copies in a row: one if holds the three expect_tx and copies, in order.
// CHECK-LABEL: gpu.func @three_in_a_row
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if %[[ISSUER:[0-9]+]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.+}}, %c0_i32]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.+}}, %c32_i32]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.+}}, %c64_i32]
// CHECK-NEXT: }
// CHECK-NOT: scf.if %[[ISSUER]]
// CHECK: gpu.return

// A store between two copies keeps them in two ifs, with the store between.
// CHECK-LABEL: gpu.func @store_between
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if %[[I2:[0-9]+]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT: }
// CHECK-NEXT: memref.store
// CHECK-NEXT: scf.if %[[I2]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT: }

// A predicated copy is issued by the same thread: its issue joins the merged if,
// with its own predicate as an if inside (and an expect_tx of 0 bytes when false).
// CHECK-LABEL: gpu.func @predicated_between
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if %[[I3:[0-9]+]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT: arith.select %arg1
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: scf.if %arg1 {
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT: }
// CHECK-NOT: scf.if %[[I3]]
// CHECK: gpu.return

// Any two such ifs merge, the user's too, on the same condition value only: ifs on
// two conditions stay apart.
// CHECK-LABEL: gpu.func @user_ifs
// CHECK: scf.if %arg1 {
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %arg2 {
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// An if with attributes of its own (a role's region) is left as it is.
// CHECK-NEXT: scf.if %arg2 {
// CHECK-NEXT: memref.store
// CHECK-NEXT: } {acopy.consumers = array<i32: 0, 128>}

// A constant between two copies that only the second uses goes with it, so their
// ifs merge as if it had not been there (the lowering builds the second copy's
// issue into the first's if: passes/src/ir/build/joined_if.rs).
// CHECK-LABEL: gpu.func @constant_between
// CHECK: gpu.barrier
// CHECK: scf.if %[[I4:[0-9]+]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c0_i32, %c0_i32]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c64_i32, %c32_i32]
// CHECK-NEXT: }
// CHECK-NOT: scf.if %[[I4]]
// CHECK: gpu.return

// A constant the lowering uses (a predicate) stays between the ifs it separates;
// the copy after it merges into the second.
// CHECK-LABEL: gpu.func @predicate_between
// CHECK: gpu.barrier
// CHECK: scf.if %[[I5:[0-9]+]] {
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c0_i32, %c0_i32]
// CHECK-NEXT: }
// CHECK-NEXT: %[[TRUE:.+]] = arith.constant true
// CHECK-NEXT: scf.if %[[I5]] {
// CHECK-NEXT: arith.select %[[TRUE]]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: scf.if %[[TRUE]] {
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c0_i32, %c32_i32]
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%c0_i32, %c64_i32]
// CHECK-NEXT: }
// CHECK-NOT: scf.if %[[I5]]
// CHECK: gpu.return

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @three_in_a_row(%src: memref<4096x4096xf32>) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.barrier_init %bar : memref<1xi64, 3>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    acopy.copy_gmem_to_smem %src[%c32, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    acopy.copy_gmem_to_smem %src[%c64, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    gpu.return
  }

  gpu.func @store_between(%src: memref<4096x4096xf32>, %flag: memref<1xf32>) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.barrier_init %bar : memref<1xi64, 3>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f32
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    memref.store %one, %flag[%c0] : memref<1xf32>
    acopy.copy_gmem_to_smem %src[%c32, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    gpu.return
  }

  gpu.func @predicated_between(%src: memref<4096x4096xf32>, %pred: i1) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.barrier_init %bar : memref<1xi64, 3>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    acopy.copy_gmem_to_smem %src[%c32, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) if %pred : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    acopy.copy_gmem_to_smem %src[%c64, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    gpu.return
  }

  gpu.func @user_ifs(%out: memref<4xf32>, %a: i1, %b: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f32
    scf.if %a {
      memref.store %one, %out[%c0] : memref<4xf32>
    }
    scf.if %a {
      memref.store %one, %out[%c1] : memref<4xf32>
    }
    scf.if %b {
      memref.store %one, %out[%c2] : memref<4xf32>
    }
    scf.if %b {
      memref.store %one, %out[%c2] : memref<4xf32>
    } {acopy.consumers = array<i32: 0, 128>}
    gpu.return
  }

  gpu.func @constant_between(%src: memref<4096x4096xf32>) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.barrier_init %bar : memref<1xi64, 3>
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c32, %c64] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    gpu.return
  }

  gpu.func @predicate_between(%src: memref<4096x4096xf32>) workgroup(%tile: memref<32x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.barrier_init %bar : memref<1xi64, 3>
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %c32 = arith.constant 32 : index
    %t = arith.constant true
    acopy.copy_gmem_to_smem %src[%c32, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) if %t : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c64, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<4096x4096xf32> -> memref<32x32xf32, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    gpu.return
  }

}
