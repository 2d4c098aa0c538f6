// nvgpu.tma.fence.descriptor needs PTX 8.3 (fence.proxy.tensormap::generic):
// refused on sm_90, compiled with PTX 8.0 (invalid-nvgpu-chip.mlir), and
// compiled for a chip whose PTX is new enough. Upstream's pipeline with the
// same PTX 8.6 compiles it too.
// RUN: acopy-opt %s --chip sm_100a --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_100a
// RUN: mlir-opt %s --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_100a cubin-features=+ptx86" -o %t.up
// RUN: %check-ptxas %t.up sm_100a

// CHECK: .version 8.6
// CHECK-LABEL: .entry fence(
// CHECK: fence.proxy.tensormap::generic.acquire.sys
!map = !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
gpu.module @m {
  gpu.func @fence(%p: !llvm.ptr) kernel {
    %map = builtin.unrealized_conversion_cast %p : !llvm.ptr to !map
    nvgpu.tma.fence.descriptor %map : !map
    gpu.return
  }
}
