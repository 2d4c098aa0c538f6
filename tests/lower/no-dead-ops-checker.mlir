// The dead-op check of the lean-output tests (%check-no-dead-ops) reports a
// side-effect-free op none of whose results is used, and nothing else: not an
// op with effects whose result is unused, nor an op used only inside a nested
// region or through one of several results. Names are per function: a use in
// another function does not save an op.
// RUN: not %check-no-dead-ops %s | FileCheck %s --implicit-check-not="dead op"
// CHECK: :[[# @LINE + 7]]: dead op: %dead = arith.constant 7 : index
// CHECK: :[[# @LINE + 14]]: dead op: %unused_ptr = llvm.inttoptr %p : i64 to !llvm.ptr
// CHECK: :[[# @LINE + 17]]: dead op: %x = arith.constant 3 : index
// CHECK: :[[# @LINE + 21]]: dead op: %c0 = arith.constant 0 : index

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%p: i64, %m: memref<?x?xf32>) kernel {
    %dead = arith.constant 7 : index
    %one = arith.constant 1 : index
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<?x?xf32> -> memref<f32>, index, index, index, index, index
    %bar = llvm.inttoptr %p : i64 to !llvm.ptr<3>
    %state = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
    scf.for %i = %one to %sizes#1 step %one {
      gpu.barrier
    }
    %unused_ptr = llvm.inttoptr %p : i64 to !llvm.ptr
    gpu.return
  }
  gpu.func @names_are_per_function() kernel {
    %x = arith.constant 3 : index
    gpu.return
  }
  gpu.func @uses_x(%out: memref<4xindex>) kernel {
    %x = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    memref.store %x, %out[%x] : memref<4xindex>
    gpu.return
  }
}
