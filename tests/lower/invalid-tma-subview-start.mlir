// A constant window start so large that start + extent overflows i64 used to
// make the lowering's subview bounds check overflow and abort the process. It
// is now stopped by verification (A17: TMA coordinates are signed 32-bit),
// which acopy-lower runs first and which adds the subview's constant offset
// (dimension 0's offset %r is dynamic, so dimension 1 is the one reported);
// the bounds check also uses checked arithmetic.
// RUN: acopy-opt %s --verify-diagnostics --acopy-lower

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %r: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %huge = arith.constant 9223372036854775807 : index
    %view = memref.subview %src[%r, 16] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1], offset: ?>>
    // expected-error @+1 {{TMA coordinates are signed 32-bit integers, but the window starts at 9223372036854775823 along dimension 1}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %huge, %huge, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
