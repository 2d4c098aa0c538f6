// GPU suite cases `fb_cp_async_swz64_f16_*` (tests/gpu/README.md, "Swizzled tiles"): on sm_80 (cp.async,
// --acopy-fallback for oob_mode = "zeros"), the 32x32 f16 window at (%s0, %s1) lands in a
// tile of one 64-byte swizzle span per row, in TMA's SWIZZLE_64B order; out gets the tile's
// raw bytes in memory order. The tile is poisoned (all bits set) first, so a chunk or a
// zero that is not written shows. tma_swz64_f16 is the same copy on the TMA path.
// Built with: acopy-opt fb_cp_async_swz64_f16.mlir --acopy-lower --acopy-fallback --emit=ptx -o ../ptx/fb_cp_async_swz64_f16.ptx --tma-manifest=../ptx/fb_cp_async_swz64_f16.manifest.json
gpu.module @fb_cp_async_swz64_f16 [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_swz64_f16(%src: memref<48x80xf16>, %out: memref<32x32xf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x32xf16, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 1024 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x32xf16, 3> into memref<1024xf16, 3>
    %poison = arith.constant 0xFFFF : f16
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<1024xf16, 3>
    }
    gpu.barrier
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile {oob_mode = "zeros", swizzle = 64 : i64} : memref<48x80xf16> -> memref<32x32xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x32xf16> into memref<1024xf16>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<1024xf16, 3>
      memref.store %v, %outflat[%e] : memref<1024xf16>
    }
    gpu.return
  }
}
