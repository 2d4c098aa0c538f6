// nvgpu's mbarrier ops that every supported chip has (init, arrive,
// arrive.nocomplete, test.wait), compute only, through acopy-opt's emit route
// for sm_80 and sm_90 and through upstream's gpu-lower-to-nvvm-pipeline; the
// Hopper-only ones are in nvgpu-tma.mlir.
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!token = !nvgpu.mbarrier.token

// CHECK-LABEL: .entry arrive_test_wait(
// CHECK: mbarrier.init.shared.b64
// CHECK: mbarrier.arrive.shared.b64
// CHECK: mbarrier.test_wait.shared.b64
gpu.module @m {
  gpu.func @arrive_test_wait(%out: memref<1xi32>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 128 : index
    %barrier = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %barrier[%c0], %n : !barrier
    gpu.barrier
    %token = nvgpu.mbarrier.arrive %barrier[%c0] : !barrier -> !nvgpu.mbarrier.token
    %done = scf.while (%ready = %token) : (!token) -> !token {
      %ok = nvgpu.mbarrier.test.wait %barrier[%c0], %ready : !barrier, !token
      %again = arith.xori %ok, %ok : i1
      %not = arith.cmpi eq, %ok, %again : i1
      scf.condition(%not) %ready : !token
    } do {
    ^bb0(%t: !token):
      scf.yield %t : !token
    }
    %one = arith.constant 1 : i32
    memref.store %one, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry arrive_nocomplete(
// CHECK: mbarrier.arrive.noComplete.shared.b64
gpu.module @m {
  gpu.func @arrive_nocomplete(%out: memref<1xi64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 32 : index
    %barrier = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    nvgpu.mbarrier.init %barrier[%c1], %n : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    %token = nvgpu.mbarrier.arrive.nocomplete %barrier[%c1], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2> -> !nvgpu.mbarrier.token
    gpu.return
  }
}
