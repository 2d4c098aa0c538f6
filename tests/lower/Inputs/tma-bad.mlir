// A TMA copy the lowering refuses (its src is not a kernel argument).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x512xf32>
    "acopy.copy_gmem_to_smem"(%cast, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
