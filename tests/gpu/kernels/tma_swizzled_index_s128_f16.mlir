// GPU suite case `tma_swizzled_index_s128_f16` (tests/gpu/README.md, "Reading a swizzled tile"): on sm_90
// (TMA (CU_TENSOR_MAP_SWIZZLE_128B)), the 32x64 f16 window at (%s0, %s1) is copied into a tile with swizzle = 128;
// then each element (r, c) of out is read LOGICALLY through acopy.swizzled_index, whose
// pair indexes the tile where the copy stored (r, c), so out must equal the window, not
// the swizzled bytes. The tile is poisoned (all bits set) first, so a wrong position that
// no copy wrote shows. cp_async_swizzled_index_s128_f16 is the same read on the other path.
// Built with: acopy-opt tma_swizzled_index_s128_f16.mlir --acopy-lower --emit=ptx -o ../ptx/tma_swizzled_index_s128_f16.ptx --tma-manifest=../ptx/tma_swizzled_index_s128_f16.manifest.json
gpu.module @tma_swizzled_index_s128_f16 [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_swizzled_index_s128_f16(%src: memref<48x160xf16>, %out: memref<32x64xf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    %c64 = arith.constant 64 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x64xf16, 3> into memref<2048xf16, 3>
    %poison = arith.constant 0xFFFF : f16
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<2048xf16, 3>
    }
    // The poison is written through the generic proxy, the copy through the async one.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    %parity = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<48x160xf16> -> memref<32x64xf16, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    scf.for %e = %tid to %count step %nthreads {
      %r = arith.divui %e, %c64 : index
      %c = arith.remui %e, %c64 : index
      %p:2 = acopy.swizzled_index %tile[%r, %c] : memref<32x64xf16, 3>
      %v = memref.load %tile[%p#0, %p#1] : memref<32x64xf16, 3>
      memref.store %v, %out[%r, %c] : memref<32x64xf16>
    }
    gpu.return
  }
}
