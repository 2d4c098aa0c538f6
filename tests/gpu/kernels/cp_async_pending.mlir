// GPU suite case `cp_async_pending` (tests/gpu/README.md): 4 copies (4 commit groups): window i = src[64i : 64i+16, 128:256] into buffer i; wait pending=2 and write buffers 0, 1; wait pending=0 and write buffers 2, 3.
// Built with tests/gpu/build-ptx.sh: acopy-opt cp_async_pending.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_pending.ptx
gpu.module @cp_async_pending [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_pending(%src: memref<256x512xf32>, %out: memref<4x16x128xf32>)
      workgroup(%b0 : memref<16x128xf32, 3>, %b1 : memref<16x128xf32, 3>, %b2 : memref<16x128xf32, 3>, %b3 : memref<16x128xf32, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %r0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %b0, %r0, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    %r1 = arith.constant 64 : index
    "acopy.copy_gmem_to_smem"(%src, %b1, %r1, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    %r2 = arith.constant 128 : index
    "acopy.copy_gmem_to_smem"(%src, %b2, %r2, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    %r3 = arith.constant 192 : index
    "acopy.copy_gmem_to_smem"(%src, %b3, %r3, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    %outflat = memref.collapse_shape %out [[0], [1, 2]] : memref<4x16x128xf32> into memref<4x2048xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %f0 = memref.collapse_shape %b0 [[0, 1]] : memref<16x128xf32, 3> into memref<2048xf32, 3>
    %f1 = memref.collapse_shape %b1 [[0, 1]] : memref<16x128xf32, 3> into memref<2048xf32, 3>
    %f2 = memref.collapse_shape %b2 [[0, 1]] : memref<16x128xf32, 3> into memref<2048xf32, 3>
    %f3 = memref.collapse_shape %b3 [[0, 1]] : memref<16x128xf32, 3> into memref<2048xf32, 3>
    "acopy.wait_gmem_to_smem"() {pending = 2 : i64} : () -> ()
    scf.for %e = %tid to %c2048 step %nthreads {
      %v = memref.load %f0[%e] : memref<2048xf32, 3>
      memref.store %v, %outflat[%c0, %e] : memref<4x2048xf32>
    }
    scf.for %e = %tid to %c2048 step %nthreads {
      %v = memref.load %f1[%e] : memref<2048xf32, 3>
      memref.store %v, %outflat[%c1, %e] : memref<4x2048xf32>
    }
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    scf.for %e = %tid to %c2048 step %nthreads {
      %v = memref.load %f2[%e] : memref<2048xf32, 3>
      memref.store %v, %outflat[%c2, %e] : memref<4x2048xf32>
    }
    scf.for %e = %tid to %c2048 step %nthreads {
      %v = memref.load %f3[%e] : memref<2048xf32, 3>
      memref.store %v, %outflat[%c3, %e] : memref<4x2048xf32>
    }
    gpu.return
  }
}
