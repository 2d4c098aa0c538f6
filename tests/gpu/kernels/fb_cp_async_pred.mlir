// GPU suite kernel `fb_cp_async_pred` (tests/gpu/README.md), built with --acopy-fallback for
// sm_80: fill the tile with 7.0, then copy the 64x128 f32 window at the dynamic start
// (%s0, %s1) under %pred (oob_mode zeros, no barrier: one commit group), wait_gmem_to_smem,
// write the tile to out. With %pred false nothing is copied and the wait still returns.
// Built with tests/gpu/build-ptx.sh (fb_* kernels get --acopy-fallback).
gpu.module @fb_cp_async_pred [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_pred(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %s0: index, %s1: index, %pred: i1)
      workgroup(%tile: memref<64x128xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %seven = arith.constant 7.0 : f32
    %tid0 = gpu.thread_id x
    %nthreads0 = gpu.block_dim x
    %count0 = arith.constant 8192 : index
    scf.for %e = %tid0 to %count0 step %nthreads0 {
      memref.store %seven, %flat[%e] : memref<8192xf32, 3>
    }
    gpu.barrier
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %pred) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<64x128xf32> into memref<8192xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %outflat[%e] : memref<8192xf32>
    }
    gpu.return
  }
}
