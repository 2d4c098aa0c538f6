// GPU suite kernel `tma_store_3d` (tests/gpu/README.md): a rank-3 TMA store: fill the
// 3x8x32 f32 tile from src with plain loads, store it to the window of the 10x24x64 out at
// the dynamic start (%s0, %s1, %s2), wait. No two dimensions or starts are equal, so
// coordinates in the wrong order write the wrong place.
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_store_3d [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_store_3d(%src: memref<3x8x32xf32>, %out: memref<10x24x64xf32>, %s0: index, %s1: index, %s2: index)
      workgroup(%tile: memref<3x8x32xf32, 3>) kernel {
    %flat = memref.collapse_shape %src [[0, 1, 2]] : memref<3x8x32xf32> into memref<768xf32>
    %outflat = memref.collapse_shape %tile [[0, 1, 2]] : memref<3x8x32xf32, 3> into memref<768xf32, 3>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 768 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<768xf32>
      memref.store %v, %outflat[%e] : memref<768xf32, 3>
    }
    "acopy.copy_smem_to_gmem"(%tile, %out, %s0, %s1, %s2) {operandSegmentSizes = array<i32: 1, 1, 3, 0>} : (memref<3x8x32xf32, 3>, memref<10x24x64xf32>, index, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
