// GPU suite cases `fb_cp_async_swz32_i8_*` (tests/gpu/README.md, "Swizzled tiles"): on sm_80 (cp.async,
// --acopy-fallback for oob_mode = "zeros"), the 32x32 i8 window at (%s0, %s1) lands in a
// tile of one 32-byte swizzle span per row, in TMA's SWIZZLE_32B order; out gets the tile's
// raw bytes in memory order. The tile is poisoned (all bits set) first, so a chunk or a
// zero that is not written shows. tma_swz32_i8 is the same copy on the TMA path.
// Built with: acopy-opt fb_cp_async_swz32_i8.mlir --acopy-lower --acopy-fallback --emit=ptx -o ../ptx/fb_cp_async_swz32_i8.ptx --tma-manifest=../ptx/fb_cp_async_swz32_i8.manifest.json
gpu.module @fb_cp_async_swz32_i8 [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_swz32_i8(%src: memref<48x80xi8>, %out: memref<32x32xi8>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x32xi8, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 1024 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x32xi8, 3> into memref<1024xi8, 3>
    %poison = arith.constant -1 : i8
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<1024xi8, 3>
    }
    gpu.barrier
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile {oob_mode = "zeros", swizzle = 32 : i64} : memref<48x80xi8> -> memref<32x32xi8, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x32xi8> into memref<1024xi8>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<1024xi8, 3>
      memref.store %v, %outflat[%e] : memref<1024xi8>
    }
    gpu.return
  }
}
