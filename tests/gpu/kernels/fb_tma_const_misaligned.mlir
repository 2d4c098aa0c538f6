// GPU suite kernel `fb_tma_const_misaligned` (tests/gpu/README.md), built with
// --acopy-fallback for sm_90: copy the 64x128 f32 window at the constant start (37, 133)
// (column 133 is 532 bytes, not a multiple of 16, so TMA cannot take it; fallback mode
// lowers it through cp.async completing the same barrier), wait on parity 0, write the
// tile to out.
// Built with tests/gpu/build-ptx.sh (fb_* kernels get --acopy-fallback).
gpu.module @fb_tma_const_misaligned [#nvvm.target<chip = "sm_90">] {
  gpu.func @fb_tma_const_misaligned(%src: memref<256x512xf32>, %out: memref<64x128xf32>)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c37 = arith.constant 37 : index
    %c133 = arith.constant 133 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %c133, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
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
