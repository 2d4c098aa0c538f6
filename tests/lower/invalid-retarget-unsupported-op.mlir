// acopy-lower retargets each gpu.module it lowers to the chip it lowered it
// for; an op of the user's that the chip cannot compile (wgmma, sm_90a only,
// under --chip=sm_100a) gets an error at it first, instead of a module that
// no longer verifies (the fuzzer's robustness mutants found this).
// RUN: acopy-opt %s --chip=sm_100a --acopy-lower --verify-diagnostics
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    // expected-error @+1 {{'nvvm.wgmma.fence.aligned' cannot be compiled for sm_100a: it needs Wgmma, which sm_100a does not have}}
    nvvm.wgmma.fence.aligned
    gpu.return
  }
}
