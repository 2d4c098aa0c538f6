// GPU suite cases `tma_swz128_i8_*` (tests/gpu/README.md, "Swizzled tiles"): on sm_90 (TMA with
// CU_TENSOR_MAP_SWIZZLE_128B where the innermost start is 16-byte aligned, else the non-TMA
// path, cp.async, decided at run time), the 32x128 i8 window at (%s0, %s1) lands in a tile of
// one 128-byte swizzle span per row; out gets the tile's raw bytes in memory order. The tile
// is poisoned (all bits set) first, so a chunk or a zero that is not written shows.
// fb_cp_async_swz128_i8 is the same copy on the cp.async path.
// Built with: acopy-opt tma_swz128_i8.mlir --acopy-lower --emit=ptx -o ../ptx/tma_swz128_i8.ptx --tma-manifest=../ptx/tma_swz128_i8.manifest.json
gpu.module @tma_swz128_i8 [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_swz128_i8(%src: memref<48x320xi8>, %out: memref<32x128xi8>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x128xi8, 3>, %bar: memref<1xi64, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x128xi8, 3> into memref<4096xi8, 3>
    %poison = arith.constant -1 : i8
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<4096xi8, 3>
    }
    // The poison is written through the generic proxy, the copy through the async one.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    %parity = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "zeros", swizzle = 128 : i64} : memref<48x320xi8> -> memref<32x128xi8, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x128xi8> into memref<4096xi8>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<4096xi8, 3>
      memref.store %v, %outflat[%e] : memref<4096xi8>
    }
    gpu.return
  }
}
