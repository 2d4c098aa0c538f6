// nvgpu's Hopper-only device-side ops, compute only: mbarrier expect_tx and
// try_wait.parity, TMA loads and stores through a tensor map passed as a
// kernel argument (an !llvm.ptr cast to the descriptor type, which is what
// upstream's kernel outlining makes of one), and the descriptor prefetch.
// (nvgpu.tma.fence.descriptor needs PTX 8.3, newer than the PTX 8.0 the chip
// model gives sm_90: invalid-nvgpu-chip.mlir.) sm_90 through
// acopy-opt's emit route and through upstream's gpu-lower-to-nvvm-pipeline;
// on sm_80 acopy-prepare-emit refuses them at the op (invalid-nvgpu-chip.mlir).
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90 sm_90
// RUN: acopy-opt %s --split-input-file --chip sm_90a --emit=ptx -o %t.90a.ptx
// RUN: %check-ptxas %t.90a.ptx sm_90a sm_90a sm_90a
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_90 cubin-features=+ptx80" -o %t.up90
// RUN: %check-ptxas %t.up90 sm_90 sm_90 sm_90

// CHECK-LABEL: .entry expect_tx_try_wait(
// CHECK: mbarrier.init.shared.b64
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// CHECK: mbarrier.try_wait.parity.shared.b64
gpu.module @m {
  gpu.func @expect_tx_try_wait(%out: memref<1xi32>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 1 : index
    %bytes = arith.constant 4096 : index
    %ticks = arith.constant 10000000 : index
    %phase = arith.constant false
    %barrier = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.init %barrier[%c0], %n : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.arrive.expect_tx %barrier[%c0], %bytes : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.try_wait.parity %barrier[%c0], %phase, %ticks : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    %one = arith.constant 1 : i32
    memref.store %one, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry tma_load(
// CHECK: prefetch.tensormap
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait.parity.shared.b64
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @tma_load(%map_ptr: !llvm.ptr, %out: memref<64x64xf16>) workgroup(%tile: memref<64x64xf16, #gpu.address_space<workgroup>>) kernel {
    %map = builtin.unrealized_conversion_cast %map_ptr : !llvm.ptr to !map
    %c0 = arith.constant 0 : index
    %n = arith.constant 1 : index
    %bytes = arith.constant 8192 : index
    %ticks = arith.constant 10000000 : index
    %phase = arith.constant false
    %t = gpu.thread_id x
    nvgpu.tma.prefetch.descriptor %map : !map
    %barrier = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %barrier[%c0], %n : !barrier
    nvgpu.tma.async.load %map[%c0, %c0], %barrier[%c0] to %tile : !map, !barrier -> memref<64x64xf16, #gpu.address_space<workgroup>>
    nvgpu.mbarrier.arrive.expect_tx %barrier[%c0], %bytes : !barrier
    nvgpu.mbarrier.try_wait.parity %barrier[%c0], %phase, %ticks : !barrier
    %v = memref.load %tile[%t, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    memref.store %v, %out[%t, %c0] : memref<64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry tma_store(
// CHECK: fence.proxy.async.shared::cta
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
!map = !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
gpu.module @m {
  gpu.func @tma_store(%map_ptr: !llvm.ptr, %x: f32) workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
    %map = builtin.unrealized_conversion_cast %map_ptr : !llvm.ptr to !map
    %c0 = arith.constant 0 : index
    %t = gpu.thread_id x
    memref.store %x, %tile[%t, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    nvgpu.tma.async.store %tile to %map[%c0, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>> -> !map
    gpu.return
  }
}
