// GPU suite kernel `fb_cp_async_barrier` (tests/gpu/README.md), built with --acopy-fallback
// for sm_80: copy the 64x128 f32 window at the dynamic start (%s0, %s1) with a barrier and
// oob_mode zeros (both kept by fallback mode on cp.async), wait on parity 0, write the
// tile to out. The cases pass aligned, misaligned, negative and past-the-edge starts.
// Built with tests/gpu/build-ptx.sh (fb_* kernels get --acopy-fallback).
gpu.module @fb_cp_async_barrier [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_barrier(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
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
