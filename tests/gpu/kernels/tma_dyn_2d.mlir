// GPU suite kernel `tma_dyn_2d` (tests/gpu/README.md): copy the 64x128 f32 window at the
// dynamic start (%s0, %s1) with TMA (oob_mode zeros), wait on the barrier, write the tile to
// out. The cases pass aligned, misaligned, negative and past-the-edge starts.
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_dyn_2d [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_dyn_2d(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
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
