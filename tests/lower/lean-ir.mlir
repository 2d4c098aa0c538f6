// The lowered IR has nothing left for CSE to merge: values that depend only on
// the kernel (thread index, first-thread test, constants, pointers to
// arguments and workgroup buffers) are built once per kernel, at the top of
// its entry block, whichever copy asks first; values one copy needs twice are
// built once; constants that only fed the acopy ops are erased
// (docs/lowering-cp-async.md, "Lean output"). Each kernel has several copies,
// so any value built per copy would be merged by CSE and fail the diff; and no
// side-effect-free op is left without a use (tests/check_no_dead_ops.py).
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %t.mlir -o %t.plain.mlir
// RUN: acopy-opt %t.mlir --pass-pipeline='builtin.module(cse)' -o %t.cse.mlir
// RUN: diff %t.plain.mlir %t.cse.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90

// Three cp.async copies, block size unknown: one thread index, one block size.
// CHECK-LABEL: gpu.func @cp_async_three
// CHECK-COUNT-1: gpu.thread_id  x
// CHECK-NOT: gpu.thread_id  x
// CHECK-NOT: gpu.block_dim  x
// CHECK-COUNT-3: nvvm.cp.async.shared.global
// CHECK-NOT: gpu.thread_id
// CHECK: nvvm.cp.async.commit.group

// Inside a loop: the thread index still comes from the top of the kernel, and
// the loop's own induction variable feeds the start. (The bounds are kernel
// arguments: a constant the input shares with the lowering would be a
// duplicate of the input's making, which the pass leaves alone.)
// CHECK-LABEL: gpu.func @cp_async_in_loop
// CHECK: gpu.thread_id  x
// CHECK: scf.for %{{.*}} = %arg1 to %arg2 step %arg3 {
// CHECK-NOT: gpu.thread_id
// CHECK-NOT: arith.constant
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group

// Constants the starts were given are gone when nothing else uses them: the
// input's %c0 .. %c96 became byte offsets in the pointer arithmetic.
// CHECK-LABEL: gpu.func @constant_starts_are_erased
// CHECK-NOT: arith.constant 96 : index
// CHECK: gpu.return

gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_three(%src: memref<256x512xf32>, %i: index)
      workgroup(%a: memref<32x128xf32, 3>, %b: memref<32x128xf32, 3>, %c: memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    "acopy.copy_gmem_to_smem"(%src, %a, %i, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %b, %i, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %c, %i, %c256) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @cp_async_in_loop(%src: memref<256x512xf32>, %lo: index, %n: index, %step: index, %x0: index, %x1: index)
      workgroup(%a: memref<32x128xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    scf.for %row = %lo to %n step %step {
      "acopy.copy_gmem_to_smem"(%src, %a, %row, %x0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
      "acopy.copy_gmem_to_smem"(%src, %a, %row, %x1) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    }
    gpu.return
  }
  gpu.func @constant_starts_are_erased(%src: memref<256x512xf32>)
      workgroup(%a: memref<32x128xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    "acopy.copy_gmem_to_smem"(%src, %a, %c32, %c96) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %a, %c64, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// Three TMA loads onto one barrier: one barrier pointer, one first-thread
// test, one tile pointer per buffer; the dynamic starts share the run-time
// alignment check's constants.
// CHECK-LABEL: gpu.func @tma_three
// CHECK-COUNT-1: gpu.thread_id  x
// CHECK-NOT: gpu.thread_id  x
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: gpu.thread_id
// CHECK: gpu.return
gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_three(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%a: memref<16x128xf32, 3>, %b: memref<16x128xf32, 3>, %c: memref<16x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %a, %i, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %b, %i, %c128, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %c, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
