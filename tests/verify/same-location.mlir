// Each failing op gets exactly one error (docs/verification.md), also when two
// ops share a location, as two copies a frontend makes from one source line do:
// the error is given once per op, not once per location, in every route.
// The second case: two ops whose memory space the lowering cannot map.
// RUN: not acopy-opt %s --split-input-file --acopy-verify 2>&1 | FileCheck %s
// RUN: not acopy-opt %s --split-input-file --acopy-lower 2>&1 | FileCheck %s
// RUN: not acopy-opt %s --split-input-file --emit ptx 2>&1 | FileCheck %s
// CHECK-COUNT-2: kernel.py:7:3: error: Only the TMA implementation supports collective copies
// CHECK-NOT: error:
// CHECK-COUNT-2: kernel.py:9:5: error: 'memref.alloca' uses memref<4xf32, "scratch">, whose memory space "scratch" the lowering to NVVM cannot map
// CHECK-NOT: error:

#line7 = loc("kernel.py":7:3)
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @collective(%src: memref<256x512xf32>, %a: memref<64x128xf32, 3>, %b: memref<64x128xf32, 3>, %i: index) kernel {
    "acopy.copy_gmem_to_smem"(%src, %a, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> () loc(#line7)
    "acopy.copy_gmem_to_smem"(%src, %b, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> () loc(#line7)
    gpu.return
  }
}

// -----

#line9 = loc("kernel.py":9:5)
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @spaces() kernel {
    %a = memref.alloca() : memref<4xf32, "scratch"> loc(#line9)
    %b = memref.alloca() : memref<4xf32, "scratch"> loc(#line9)
    gpu.return
  }
}
