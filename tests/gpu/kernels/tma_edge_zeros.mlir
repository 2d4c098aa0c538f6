// GPU suite case `tma_edge_zeros` (tests/gpu/README.md): oob_mode zeros: the 64x128 window at (160, 256) has only 40x44 elements inside src; TMA fills the rest with zeros.
// Built with: acopy-opt tma_edge_zeros.mlir --acopy-lower --emit=ptx -o ../ptx/tma_edge_zeros.ptx --tma-manifest=../ptx/tma_edge_zeros.manifest.json
gpu.module @tma_edge_zeros [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_edge_zeros(%src: memref<200x300xf32>, %out: memref<64x128xf32>)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c160 = arith.constant 160 : index
    %c256 = arith.constant 256 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %c160, %c256, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<200x300xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
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
