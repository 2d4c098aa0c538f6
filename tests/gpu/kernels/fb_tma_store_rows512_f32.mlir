// GPU suite cases `fb_tma_store_rows512_f32_*` (tests/gpu/README.md, "Wide tiles"): fill the
// 512x16 f32 tile from src with plain loads, store it with TMA to the window of out at the dynamic
// start (%s0, %s1) as 2 boxes of 256 rows in one bulk group (element-wise where the start is
// misaligned), wait. Elements of the window outside out are not written (the store clips).
// Built with tests/gpu/build-ptx.sh (--acopy-fallback: the name starts with fb_).
gpu.module @fb_tma_store_rows512_f32 [#nvvm.target<chip = "sm_90">] {
  gpu.func @fb_tma_store_rows512_f32(%src: memref<512x16xf32>, %out: memref<640x48xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<512x16xf32, 3>) kernel {
    %flat = memref.collapse_shape %src [[0, 1]] : memref<512x16xf32> into memref<8192xf32>
    %tileflat = memref.collapse_shape %tile [[0, 1]] : memref<512x16xf32, 3> into memref<8192xf32, 3>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32>
      memref.store %v, %tileflat[%e] : memref<8192xf32, 3>
    }
    acopy.copy_smem_to_gmem %tile -> %out[%s0, %s1] : memref<512x16xf32, 3> -> memref<640x48xf32>
    acopy.wait_smem_to_gmem {pending = 0 : i64}
    gpu.return
  }
}
