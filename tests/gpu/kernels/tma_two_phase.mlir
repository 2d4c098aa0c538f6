// GPU suite kernel `tma_two_phase` (tests/gpu/README.md): one barrier, two phases. Copy the
// 64x128 f32 window at (%s0, %s1), wait on parity 0, write the tile to out[0]; then copy the
// window at (%s2, %s3) into the same tile with the same barrier, wait on parity 1, write
// it to out[1]. A wait on the wrong parity returns at once and out[1] shows the first window.
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_two_phase [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_two_phase(%src: memref<256x512xf32>, %out: memref<2x64x128xf32>, %s0: index, %s1: index, %s2: index, %s3: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %all = memref.collapse_shape %out [[0, 1, 2]] : memref<2x64x128xf32> into memref<16384xf32>
    %p0 = arith.constant false
    %p1 = arith.constant true
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %p0) : (memref<1xi64, 3>, i1) -> ()
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %all[%e] : memref<16384xf32>
    }
    // Every thread has read the first tile before the second copy overwrites it.
    gpu.barrier
    "acopy.copy_gmem_to_smem"(%src, %tile, %s2, %s3, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %p1) : (memref<1xi64, 3>, i1) -> ()
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      %o = arith.addi %e, %count : index
      memref.store %v, %all[%o] : memref<16384xf32>
    }
    gpu.return
  }
}
