// Static shared memory over the 48 KiB ptxas accepts (issue 26, defect 3:
// "uses too much shared data (0x1c000 bytes, 0xc000 max)") moves to dynamic
// shared memory when the chip's per-block limit allows it
// (docs/kernel-abi.md, "Shared memory"): the workgroup attributions become
// views of gpu.dynamic_shared_memory, the kernel records the bytes in
// acopy.dynamic_shared_memory, the host launch passes them, and ptxas accepts
// the PTX. A kernel without acopy ops: acopy-prepare-emit moves it
// (static-shared-moved-lower.mlir: acopy-lower, for kernels with acopy ops).
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-prepare-emit{emit=ptx})' | FileCheck %s
// RUN: acopy-opt %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// 64 KiB and 48 KiB, both spellings of the workgroup space: 112 KiB at
// offsets 0 and 65536, no alignment reserve.
// CHECK-LABEL: gpu.module @m
// CHECK: llvm.mlir.global external @__dynamic_shmem__0()
// CHECK: gpu.func @big(%{{.+}}: memref<128x128xf32>, %{{.+}}: memref<128x128xf32>) kernel attributes {acopy.dynamic_shared_memory = 114688 : i64} {
// CHECK-NEXT: %[[DYN:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[CAST:.+]] = memref.memory_space_cast %[[DYN]] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi8, 3>
// CHECK: %[[A:.+]] = memref.view %[[CAST]][%{{.+}}][] : memref<?xi8, 3> to memref<128x128xf32, 3>
// CHECK: %c65536 = arith.constant 65536 : index
// CHECK: %[[B:.+]] = memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<96x128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.+}}, %[[A]]
// CHECK: memref.store %{{.+}}, %[[B]]
// CHECK: %[[SIZE:.+]] = arith.constant 114688 : i32
// CHECK: gpu.launch_func  @m::@big {{.*}} dynamic_shared_memory_size %[[SIZE]] args(
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX-LABEL: .entry big(
// PTX-NOT: .shared .align
// PTX: st.shared.b32 [%rd{{[0-9]+}}+65536]
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80">] {
    gpu.func @big(%in: memref<128x128xf32>, %out: memref<128x128xf32>)
        workgroup(%a: memref<128x128xf32, 3>, %b: memref<96x128xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %in[%t, %c0] : memref<128x128xf32>
      memref.store %x, %a[%t, %c0] : memref<128x128xf32, 3>
      memref.store %x, %b[%c0, %t] : memref<96x128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %a[%c0, %t] : memref<128x128xf32, 3>
      %z = memref.load %b[%c0, %t] : memref<96x128xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %y, %z : f32
      memref.store %s, %out[%t, %c0] : memref<128x128xf32>
      gpu.return
    }
  }
  func.func @host(%in: memref<128x128xf32>, %out: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @m::@big blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%in : memref<128x128xf32>, %out : memref<128x128xf32>)
    return
  }
}

