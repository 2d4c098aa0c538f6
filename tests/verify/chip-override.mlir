// The chip option overrides every gpu.module's #nvvm.target (docs/dialect.md, "Target"), as a
// driver flag and as a pipeline option, with the same results.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --chip=sm_90
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(acopy-verify{chip=sm_90})'

// Valid on sm_80, but checked as sm_90: E6.
gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // expected-error @+1 {{wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
    "acopy.wait_gmem_to_smem"() : () -> ()
    gpu.return
  }
}

// -----

// Targets that would be errors on their own are replaced by the override.
gpu.module @turing [#nvvm.target<chip = "sm_75">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
gpu.module @default_chip [#nvvm.target] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
gpu.module @two_chips [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Ops outside any gpu.module get the override's chip, here a TMA one, whose
// copies need a kernel gpu.func (A20).
func.func @no_gpu_module(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) {
  // expected-error @+1 {{the src of a TMA copy is not a kernel argument}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
  return
}
