// GPU suite case `cp_async_window_8b` (tests/gpu/README.md): copy the 32x128 window at (40, 130), only 8-byte aligned (8-byte ca chunks), wait, write smem to out.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_window_8b.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_window_8b.ptx
gpu.module @cp_async_window_8b [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_window_8b(%src: memref<256x512xf32>, %out: memref<32x128xf32>)
      workgroup(%tile : memref<32x128xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c40 = arith.constant 40 : index
    %c130 = arith.constant 130 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c40, %c130) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x128xf32, 3> into memref<4096xf32, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x128xf32> into memref<4096xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<4096xf32, 3>
      memref.store %v, %outflat[%e] : memref<4096xf32>
    }
    gpu.return
  }
}
