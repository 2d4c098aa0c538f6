// An override to an older chip: a Hopper module's TMA copy becomes an error.
// RUN: acopy-opt %s --verify-diagnostics --acopy-verify --chip=sm_80
// RUN: acopy-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(canonicalize), acopy-verify{chip=sm_80})'

gpu.module @hopper [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
