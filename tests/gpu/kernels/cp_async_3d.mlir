// GPU suite case `cp_async_3d` (tests/gpu/README.md): copy the 4x16x32 window at (3, 8, 32), wait, write smem to out.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_3d.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_3d.ptx
gpu.module @cp_async_3d [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_3d(%src: memref<16x64x96xf32>, %out: memref<4x16x32xf32>)
      workgroup(%tile : memref<4x16x32xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c3, %c8, %c32) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<16x64x96xf32>, memref<4x16x32xf32, 3>, index, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %flat = memref.collapse_shape %tile [[0, 1, 2]] : memref<4x16x32xf32, 3> into memref<2048xf32, 3>
    %outflat = memref.collapse_shape %out [[0, 1, 2]] : memref<4x16x32xf32> into memref<2048xf32>
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
