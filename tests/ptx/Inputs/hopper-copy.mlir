// A TMA load in a Hopper module; run with --chip=sm_80 it must be refused.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @load(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
