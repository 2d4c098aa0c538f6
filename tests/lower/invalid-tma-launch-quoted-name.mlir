// A host launch of a TMA kernel whose name needs quotes (@"a b") is found
// like any other: the lowering compares symbol references, not their
// spelling. (It used to miss the launch, add the tensor-map parameter anyway
// and leave a gpu.launch_func with too few operands: IR that does not verify.)
// RUN: acopy-opt %s --verify-diagnostics --acopy-lower

module attributes {gpu.container_module} {
  func.func @host(%src: memref<256x512xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"m 1"::@"a b" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<256x512xf32>, %c1 : index)
    return
  }
  gpu.module @"m 1" [#nvvm.target<chip = "sm_90">] {
    gpu.func @"a b"(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
      // expected-error @+1 {{kernel @"m 1"::@"a b" is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode}}
      "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}
