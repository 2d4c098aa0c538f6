// GPU suite case `cp_async_block` (tests/gpu/README.md): one kernel for every block size (no known block size): copy the 64x128 window at (64, 128), wait, write smem to out with a block-stride loop.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_block.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_block.ptx
gpu.module @cp_async_block [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_block(%src: memref<256x512xf32>, %out: memref<64x128xf32>)
      workgroup(%tile : memref<64x128xf32, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c64, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
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
