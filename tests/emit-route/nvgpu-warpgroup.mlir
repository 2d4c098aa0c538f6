// nvgpu's warpgroup ops (wgmma), compute only, for sm_90a: a descriptor from
// a TMA tensor map, warpgroup.mma on it, the accumulator's init and store.
// Through acopy-opt's emit route and through upstream's
// gpu-lower-to-nvvm-pipeline.
// RUN: acopy-opt %s --split-input-file --chip sm_90a --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// Upstream's own ops, passed through: ptxas serializes their wgmma (the accumulator is
// read before the wait), on either route.
// RUN: %check-ptxas --allow-perf-loss %t.ptx sm_90a sm_90a
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_90a cubin-features=+ptx80" -o %t.up
// RUN: %check-ptxas --allow-perf-loss %t.up sm_90a sm_90a

// CHECK-LABEL: .entry wgmma_f16(
// CHECK: wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
gpu.module @m {
  gpu.func @wgmma_f16(%pa: !llvm.ptr, %pb: !llvm.ptr, %out: memref<64x64xf32>) workgroup(%a: memref<64x64xf16, #gpu.address_space<workgroup>>, %b: memref<64x64xf16, #gpu.address_space<workgroup>>) kernel {
    %mapA = builtin.unrealized_conversion_cast %pa : !llvm.ptr to !mapA
    %mapB = builtin.unrealized_conversion_cast %pb : !llvm.ptr to !mapB
    %da = nvgpu.warpgroup.generate.descriptor %a, %mapA : memref<64x64xf16, #gpu.address_space<workgroup>>, !mapA -> !descA
    %db = nvgpu.warpgroup.generate.descriptor %b, %mapB : memref<64x64xf16, #gpu.address_space<workgroup>>, !mapB -> !descB
    %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %d = nvgpu.warpgroup.mma %da, %db, %init {transposeB} : !descA, !descB, !acc -> !acc
    nvgpu.warpgroup.mma.store %d, %out : !acc to memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry wgmma_bf16_smem_out(
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
gpu.module @m {
  gpu.func @wgmma_bf16_smem_out(%pa: !llvm.ptr, %pb: !llvm.ptr) workgroup(%a: memref<64x64xbf16, #gpu.address_space<workgroup>>, %b: memref<64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<64x64xf32, #gpu.address_space<workgroup>>) kernel {
    %mapA = builtin.unrealized_conversion_cast %pa : !llvm.ptr to !mapA
    %mapB = builtin.unrealized_conversion_cast %pb : !llvm.ptr to !mapB
    %da = nvgpu.warpgroup.generate.descriptor %a, %mapA : memref<64x64xbf16, #gpu.address_space<workgroup>>, !mapA -> !descA
    %db = nvgpu.warpgroup.generate.descriptor %b, %mapB : memref<64x64xbf16, #gpu.address_space<workgroup>>, !mapB -> !descB
    %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %d = nvgpu.warpgroup.mma %da, %db, %init : !descA, !descB, !acc -> !acc
    nvgpu.warpgroup.mma.store %d, %c : !acc to memref<64x64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
