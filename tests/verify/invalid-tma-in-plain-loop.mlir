// E6 and E7 apply to copies and waits inside a loop that is NOT marked
// acopy.pipeline: only a marked loop's top-level copies and wait belong to the
// pipeliner, which gives them barriers on sm_90 and newer.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @plain(%src: memref<1024x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
      acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<1024x128xf32> -> memref<8x128xf32, 3>
      // expected-error @+1 {{wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
      acopy.wait_gmem_to_smem {pending = 0 : i64}
    }
    gpu.return
  }
}
