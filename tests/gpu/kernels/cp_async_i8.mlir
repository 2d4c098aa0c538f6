// GPU suite case `cp_async_i8` (tests/gpu/README.md): copy the 32x128 i8 window at (16, 128), wait, write smem to out.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_i8.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_i8.ptx
gpu.module @cp_async_i8 [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_i8(%src: memref<128x256xi8>, %out: memref<32x128xi8>)
      workgroup(%tile : memref<32x128xi8, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c16, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<128x256xi8>, memref<32x128xi8, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x128xi8, 3> into memref<4096xi8, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x128xi8> into memref<4096xi8>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<4096xi8, 3>
      memref.store %v, %outflat[%e] : memref<4096xi8>
    }
    gpu.return
  }
}
