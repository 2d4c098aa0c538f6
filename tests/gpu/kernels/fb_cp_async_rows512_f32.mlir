// GPU suite cases `fb_cp_async_rows512_f32_*` (tests/gpu/README.md, "Wide tiles"): on sm_80: cp.async (no box limit on this path);
// the 512x16 f32 window at (%s0, %s1), zeros outside src, lands in a row-major tile; out gets the
// tile. The tile is poisoned first.
// Built with tests/gpu/build-ptx.sh (--acopy-fallback: the name starts with fb_).
gpu.module @fb_cp_async_rows512_f32 [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_rows512_f32(%src: memref<640x48xf32>, %out: memref<512x16xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<512x16xf32, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<512x16xf32, 3> into memref<8192xf32, 3>
    %poison = arith.constant 0xFFFFFFFF : f32
    scf.for %e = %tid to %count step %nthreads {
      memref.store %poison, %flat[%e] : memref<8192xf32, 3>
    }
    gpu.barrier
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile {oob_mode = "zeros"} : memref<640x48xf32> -> memref<512x16xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<512x16xf32> into memref<8192xf32>
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %outflat[%e] : memref<8192xf32>
    }
    gpu.return
  }
}
