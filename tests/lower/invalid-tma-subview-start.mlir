// A constant window start so large that start + extent overflows i64 is just
// a window that cannot be shown to stay inside the subview: an error at the
// op (the bounds check used to overflow and abort the process).
// RUN: acopy-opt %s --verify-diagnostics --acopy-lower

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %r: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %huge = arith.constant 9223372036854775807 : index
    %view = memref.subview %src[%r, 16] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1], offset: ?>>
    // expected-error @+1 {{the window of this TMA copy cannot be shown to stay inside the memref.subview src along dimension 0}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %huge, %huge, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xf32, strided<[512, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
