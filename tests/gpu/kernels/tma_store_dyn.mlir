// GPU suite kernel `tma_store_dyn` (tests/gpu/README.md): fill the 64x128 f32 tile from src
// with plain loads, store it with a TMA store to the window of out at the dynamic start
// (%s0, %s1), wait. Elements of the window outside out are not written (the store clips).
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_store_dyn [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_store_dyn(%src: memref<64x128xf32>, %out: memref<256x512xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %flat = memref.collapse_shape %src [[0, 1]] : memref<64x128xf32> into memref<8192xf32>
    %outflat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32>
      memref.store %v, %outflat[%e] : memref<8192xf32, 3>
    }
    "acopy.copy_smem_to_gmem"(%tile, %out, %s0, %s1) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
