// GPU suite kernel `tma_mc_y` (tests/gpu/README.md): 2x2x1 clusters on a grid of several
// clusters, collective_axes = ["y"]: the CTAs of each group load a share of the 64x128 f32
// window at the dynamic start (%s0, %s1) and multicast it, so every CTA ends with the whole
// window; block (bx, by) writes its tile to out[by * gridDim.x + bx].
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_mc_y [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_mc_y(%src: memref<256x512xf32>, %out: memref<16x64x128xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %gx = gpu.grid_dim x
    %row = arith.muli %by, %gx : index
    %block = arith.addi %row, %bx : index
    %mine = memref.subview %out[%block, 0, 0] [1, 64, 128] [1, 1, 1] : memref<16x64x128xf32> to memref<64x128xf32, strided<[128, 1], offset: ?>>
    %outflat = memref.collapse_shape %mine [[0, 1]] : memref<64x128xf32, strided<[128, 1], offset: ?>> into memref<8192xf32, strided<[1], offset: ?>>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %outflat[%e] : memref<8192xf32, strided<[1], offset: ?>>
    }
    // No CTA leaves while a peer may still multicast into it.
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}
