// GPU suite cases `fb_tma_panels_s32_f32_*` (tests/gpu/README.md, "Wide tiles"): on sm_90: TMA, one box per column panel, where the innermost start is 16-byte aligned, else the non-TMA path (cp.async), decided at run time;
// the 64x64 f32 window at (%s0, %s1) lands in a tile of rows of 8 32-byte swizzle spans,
// stored as column panels (docs/dialect.md, "Wide tiles"); out gets the tile's raw bytes in
// memory order. The tile is poisoned first. fb_cp_async_panels_s32_f32 is the same copy on the other path.
// Built with tests/gpu/build-ptx.sh (--acopy-fallback: the name starts with fb_).
gpu.module @fb_tma_panels_s32_f32 [#nvvm.target<chip = "sm_90">] {
  gpu.func @fb_tma_panels_s32_f32(%src: memref<96x160xf32>, %out: memref<64x64xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x64xf32, 3> into memref<4096xf32, 3>
    %poison = arith.constant 0xFFFFFFFF : f32
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<4096xf32, 3>
    }
    // The poison is written through the generic proxy, the copy through the async one.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    %parity = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "zeros", swizzle = 32 : i64} : memref<96x160xf32> -> memref<64x64xf32, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<64x64xf32> into memref<4096xf32>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<4096xf32, 3>
      memref.store %v, %outflat[%e] : memref<4096xf32>
    }
    gpu.return
  }
}
