// nvgpu ops that lower to instructions the chip lacks are refused at the nvgpu
// op by acopy-prepare-emit (docs/embedding.md, "The emit route"), before
// convert-nvgpu-to-nvvm makes NVVM ops that llc would abort the process on
// ("Cannot select"). wgmma on plain sm_90 is refused by the NVVM verifier,
// also at the op.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @hopper_barriers() kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 1 : index
    %ticks = arith.constant 1000 : index
    %phase = arith.constant false
    %barrier = nvgpu.mbarrier.create -> !barrier
    nvgpu.mbarrier.init %barrier[%c0], %n : !barrier
    // expected-error @+1 {{'nvgpu.mbarrier.arrive.expect_tx' cannot be compiled for sm_80: it needs Tma, which sm_80 does not have}}
    nvgpu.mbarrier.arrive.expect_tx %barrier[%c0], %n : !barrier
    // expected-error @+1 {{'nvgpu.mbarrier.try_wait.parity' cannot be compiled for sm_80: it needs MbarrierTryWait, which sm_80 does not have}}
    nvgpu.mbarrier.try_wait.parity %barrier[%c0], %phase, %ticks : !barrier
    gpu.return
  }
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @tma(%p: !llvm.ptr) workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
    %map = builtin.unrealized_conversion_cast %p : !llvm.ptr to !map
    %c0 = arith.constant 0 : index
    %barrier = nvgpu.mbarrier.create -> !barrier
    // expected-error @+1 {{'nvgpu.tma.async.load' cannot be compiled for sm_86: it needs Tma}}
    nvgpu.tma.async.load %map[%c0, %c0], %barrier[%c0] to %tile : !map, !barrier -> memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'nvgpu.tma.async.store' cannot be compiled for sm_86: it needs BulkStore}}
    nvgpu.tma.async.store %tile to %map[%c0, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>> -> !map
    // expected-error @+1 {{'nvgpu.tma.prefetch.descriptor' cannot be compiled for sm_86: it needs Tma}}
    nvgpu.tma.prefetch.descriptor %map : !map
    gpu.return
  }
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<32x32xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @fence(%p: !llvm.ptr) kernel {
    %map = builtin.unrealized_conversion_cast %p : !llvm.ptr to !map
    // expected-error @+1 {{'nvgpu.tma.fence.descriptor' cannot be compiled for sm_90: it needs PTX 8.3, and sm_90 is compiled with PTX 8.0}}
    nvgpu.tma.fence.descriptor %map : !map
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @fence_nvvm(%p: !llvm.ptr) kernel {
    %size = arith.constant 128 : i32
    // expected-error @+1 {{'nvvm.fence.proxy.acquire' cannot be compiled for sm_90: it needs PTX 8.3}}
    nvvm.fence.proxy.acquire #nvvm.mem_scope<sys> %p, %size
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @wgmma_plain_sm90() kernel {
    // expected-error @+1 {{'nvvm.wgmma.fence.aligned' op is not supported on sm_90}}
    nvvm.wgmma.fence.aligned
    gpu.return
  }
}

// -----

// wgmma is sm_90a only: NVVM's verifier accepts nvvm.wgmma.mma_async on
// sm_100a, where llc cannot select it (it aborted the process); acopy refuses
// it at the op.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @wgmma_on_sm100a(%da: i64, %db: i64) kernel {
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32)>
    // expected-error @+1 {{'nvvm.wgmma.mma_async' cannot be compiled for sm_100a: it needs Wgmma, which sm_100a does not have}}
    %d = nvvm.wgmma.mma_async %da, %db, %zero, <m = 64, n = 8, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    gpu.return
  }
}
