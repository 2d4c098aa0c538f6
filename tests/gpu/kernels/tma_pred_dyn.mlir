// GPU suite kernel `tma_pred_dyn` (tests/gpu/README.md): tma_pred at the dynamic start
// (%s0, %s1): fill the tile with 7.0, then copy the 64x128 f32 window under %pred; with
// false nothing is copied and the barrier phase still completes, whichever path the start
// takes.
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_pred_dyn [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_pred_dyn(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %s0: index, %s1: index, %pred: i1)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %seven = arith.constant 7.0 : f32
    %tid0 = gpu.thread_id x
    %nthreads0 = gpu.block_dim x
    %count0 = arith.constant 8192 : index
    scf.for %e = %tid0 to %count0 step %nthreads0 {
      memref.store %seven, %flat[%e] : memref<8192xf32, 3>
    }
    gpu.barrier
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar, %pred) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
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
