// GPU suite case `tma_pred` (tests/gpu/README.md): fill the tile with 7.0, then copy the 64x128 window at (64, 128) under %pred: with false nothing is copied, the barrier expects 0 bytes and still completes.
// Built with: acopy-opt tma_pred.mlir --acopy-lower --emit=ptx -o ../ptx/tma_pred.ptx --tma-manifest=../ptx/tma_pred.manifest.json
gpu.module @tma_pred [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_pred(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %pred: i1)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
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
    "acopy.copy_gmem_to_smem"(%src, %tile, %c64, %c128, %bar, %pred) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
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
