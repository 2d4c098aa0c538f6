// GPU suite case `tma_swizzle_128b` (tests/gpu/README.md): swizzle = 128: the 64x32 window at (64, 96) lands in a 1024-byte aligned tile in SWIZZLE_128B order; out gets the raw tile bytes in memory order.
// Built with: acopy-opt tma_swizzle_128b.mlir --acopy-lower --emit=ptx -o ../ptx/tma_swizzle_128b.ptx --tma-manifest=../ptx/tma_swizzle_128b.manifest.json
gpu.module @tma_swizzle_128b [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_swizzle_128b(%src: memref<256x512xf32>, %out: memref<64x32xf32>)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x32xf32, 3> into memref<2048xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c64, %c96, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<64x32xf32> into memref<2048xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<2048xf32, 3>
      memref.store %v, %outflat[%e] : memref<2048xf32>
    }
    gpu.return
  }
}
