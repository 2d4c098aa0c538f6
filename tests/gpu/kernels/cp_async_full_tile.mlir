// GPU suite case `cp_async_full_tile` (tests/gpu/README.md): copy all of src (64x128 f32) to smem, wait, write smem to out.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_full_tile.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_full_tile.ptx
gpu.module @cp_async_full_tile [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_full_tile(%src: memref<64x128xf32>, %out: memref<64x128xf32>)
      workgroup(%tile : memref<64x128xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
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
