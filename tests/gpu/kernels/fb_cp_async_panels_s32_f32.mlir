// GPU suite cases `fb_cp_async_panels_s32_f32_*` (tests/gpu/README.md, "Wide tiles"): on sm_80: cp.async, each chunk placed in its column panel, then swizzled;
// the 64x64 f32 window at (%s0, %s1) lands in a tile of rows of 8 32-byte swizzle spans,
// stored as column panels (docs/dialect.md, "Wide tiles"); out gets the tile's raw bytes in
// memory order. The tile is poisoned first. fb_tma_panels_s32_f32 is the same copy on the other path.
// Built with tests/gpu/build-ptx.sh (--acopy-fallback: the name starts with fb_).
gpu.module @fb_cp_async_panels_s32_f32 [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_panels_s32_f32(%src: memref<96x160xf32>, %out: memref<64x64xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x64xf32, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x64xf32, 3> into memref<4096xf32, 3>
    %poison = arith.constant 0xFFFFFFFF : f32
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<4096xf32, 3>
    }
    gpu.barrier
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile {oob_mode = "zeros", swizzle = 32 : i64} : memref<96x160xf32> -> memref<64x64xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<64x64xf32> into memref<4096xf32>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<4096xf32, 3>
      memref.store %v, %outflat[%e] : memref<4096xf32>
    }
    gpu.return
  }
}
