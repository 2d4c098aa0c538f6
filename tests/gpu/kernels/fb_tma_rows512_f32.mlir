// GPU suite cases `fb_tma_rows512_f32_*` (tests/gpu/README.md, "Wide tiles"): on sm_90: TMA, 2 boxes of 256 rows on one barrier, where the innermost start is 16-byte aligned, else the non-TMA path (cp.async);
// the 512x16 f32 window at (%s0, %s1), zeros outside src, lands in a row-major tile; out gets the
// tile. The tile is poisoned first.
// Built with tests/gpu/build-ptx.sh (--acopy-fallback: the name starts with fb_).
gpu.module @fb_tma_rows512_f32 [#nvvm.target<chip = "sm_90">] {
  gpu.func @fb_tma_rows512_f32(%src: memref<640x48xf32>, %out: memref<512x16xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<512x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<512x16xf32, 3> into memref<8192xf32, 3>
    %poison = arith.constant 0xFFFFFFFF : f32
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<8192xf32, 3>
    }
    // The poison is written through the generic proxy, the copy through the async one.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    %parity = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "zeros"} : memref<640x48xf32> -> memref<512x16xf32, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<512x16xf32> into memref<8192xf32>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %outflat[%e] : memref<8192xf32>
    }
    gpu.return
  }
}
