// Two errors of the rules table in one module, no expected-* comments:
// verify-diagnostics.test compares the error lines themselves.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @no_barrier(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
