// GPU suite kernel `tma_dyn_3d` (tests/gpu/README.md): copy the 4x8x32 f32 window of a
// 12x40x96 src at the dynamic start (%s0, %s1, %s2) with TMA; no two dimensions are
// equal, so coordinates in the wrong order read the wrong elements.
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_dyn_3d [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_dyn_3d(%src: memref<12x40x96xf32>, %out: memref<4x8x32xf32>, %s0: index, %s1: index, %s2: index)
      workgroup(%tile: memref<4x8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %flat = memref.collapse_shape %tile [[0, 1, 2]] : memref<4x8x32xf32, 3> into memref<1024xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %s2, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<12x40x96xf32>, memref<4x8x32xf32, 3>, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %outflat = memref.collapse_shape %out [[0, 1, 2]] : memref<4x8x32xf32> into memref<1024xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 1024 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<1024xf32, 3>
      memref.store %v, %outflat[%e] : memref<1024xf32>
    }
    gpu.return
  }
}
