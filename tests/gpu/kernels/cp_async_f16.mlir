// GPU suite case `cp_async_f16` (tests/gpu/README.md): copy the 32x64 f16 window at (32, 64), wait, write smem to out.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_f16.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_f16.ptx
gpu.module @cp_async_f16 [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_f16(%src: memref<128x256xf16>, %out: memref<32x64xf16>)
      workgroup(%tile : memref<32x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c32, %c64) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<128x256xf16>, memref<32x64xf16, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x64xf16, 3> into memref<2048xf16, 3>
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x64xf16> into memref<2048xf16>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<2048xf16, 3>
      memref.store %v, %outflat[%e] : memref<2048xf16>
    }
    gpu.return
  }
}
