// GPU suite case `tma_multicast` (tests/gpu/README.md): a 2x1x1 cluster, collective_axes = ["x"]: each CTA loads half of the 64x128 window at (64, 128) and multicasts it; CTA rank r writes its tile to out[r].
// Built with: acopy-opt tma_multicast.mlir --acopy-lower --emit=ptx -o ../ptx/tma_multicast.ptx --tma-manifest=../ptx/tma_multicast.manifest.json
gpu.module @tma_multicast [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_multicast(%src: memref<256x512xf32>, %out: memref<2x64x128xf32>)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    // barrier_init ends with a cluster barrier in a cluster kernel, so no
    // peer multicasts into an uninitialised barrier.
    "acopy.copy_gmem_to_smem"(%src, %tile, %c64, %c128, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %mine = memref.subview %out[%rank, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf32> to memref<64x128xf32, strided<[128, 1], offset: ?>>
    %outflat = memref.collapse_shape %mine [[0, 1]] : memref<64x128xf32, strided<[128, 1], offset: ?>> into memref<8192xf32, strided<[1], offset: ?>>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<8192xf32, 3>
      memref.store %v, %outflat[%e] : memref<8192xf32, strided<[1], offset: ?>>
    }
    // No CTA leaves while its peer may still multicast into it.
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}
