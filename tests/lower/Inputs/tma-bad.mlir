// A TMA copy acopy-lower refuses (its src is not a kernel argument: rule A20).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %src = memref.alloc() : memref<256x512xf32>
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
