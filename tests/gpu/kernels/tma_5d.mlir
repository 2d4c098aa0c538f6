// GPU suite case `tma_5d` (tests/gpu/README.md): a rank-5 copy: the 2x2x3x8x32 window at (1, 1, 2, 4, 32).
// Built with: acopy-opt tma_5d.mlir --acopy-lower --emit=ptx -o ../ptx/tma_5d.ptx --tma-manifest=../ptx/tma_5d.manifest.json
gpu.module @tma_5d [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_5d(%src: memref<3x4x5x16x64xf32>, %out: memref<2x2x3x8x32xf32>)
      workgroup(%tile: memref<2x2x3x8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %flat = memref.collapse_shape %tile [[0, 1, 2, 3, 4]] : memref<2x2x3x8x32xf32, 3> into memref<3072xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c1, %c1, %c2, %c4, %c32, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<3x4x5x16x64xf32>, memref<2x2x3x8x32xf32, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %outflat = memref.collapse_shape %out [[0, 1, 2, 3, 4]] : memref<2x2x3x8x32xf32> into memref<3072xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 3072 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<3072xf32, 3>
      memref.store %v, %outflat[%e] : memref<3072xf32>
    }
    gpu.return
  }
}
