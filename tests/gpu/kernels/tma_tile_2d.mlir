// GPU suite case `tma_tile_2d` (tests/gpu/README.md): copy the 64x128 window at (64, 128) of src with TMA, wait on the barrier, write the tile to out.
// Built with: acopy-opt tma_tile_2d.mlir --acopy-lower --emit=ptx -o ../ptx/tma_tile_2d.ptx --tma-manifest=../ptx/tma_tile_2d.manifest.json
gpu.module @tma_tile_2d [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_tile_2d(%src: memref<256x512xf32>, %out: memref<64x128xf32>)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c64, %c128, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
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
