// acopy-prepare-emit gives a gpu.module that uses gpu.dynamic_shared_memory an
// external zero-sized shared global, which upstream's lowering reuses, so the PTX
// declares the dynamic bytes `.extern` (placed after all static shared memory)
// instead of a static 1-byte variable among the others; its name avoids the
// module's symbols. A module without gpu.dynamic_shared_memory gets none.
// RUN: acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-prepare-emit)' | FileCheck %s
// RUN: acopy-opt %s --split-input-file --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90 sm_80

// CHECK-LABEL: gpu.module @m
// CHECK-NEXT: llvm.mlir.global external @__dynamic_shmem__1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__1[];
// PTX: .shared .align 16 .b8 __dynamic_shmem__0[64];
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  memref.global "private" @__dynamic_shmem__0 : memref<16xf32, 3> = uninitialized {alignment = 16 : i64}
  gpu.func @k(%out: memref<16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %s = memref.get_global @__dynamic_shmem__0 : memref<16xf32, 3>
    %x = memref.load %v[%tid] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %x, %s[%tid] : memref<16xf32, 3>
    %y = memref.load %s[%c0] : memref<16xf32, 3>
    memref.store %y, %out[%tid] : memref<16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @plain
// CHECK-NOT: llvm.mlir.global
// CHECK: gpu.func
// PTX-NOT: .extern
gpu.module @plain [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%out: memref<16xf32>) kernel {
    gpu.return
  }
}
