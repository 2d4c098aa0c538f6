// acopy-lower gives each op the user wrote one diagnostic, also when the op is
// a copy of a marked loop, which the pipeliner copies into the prologue and
// the steady state (a regression: E4 was reported three times per copy, and a
// fallback remark three times). --verify-diagnostics fails on any diagnostic
// beyond the expected ones.
// RUN: sed 's|STRICT: expected_|expected-|' %s | acopy-opt - --acopy-lower --verify-diagnostics
// RUN: sed 's|FALLBACK: expected_|expected-|' %s | acopy-opt - --acopy-lower --acopy-fallback --verify-diagnostics

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // FALLBACK: expected_remark @+1 {{acopy.pipeline: 3 stages, cp.async on sm_80}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      // STRICT: expected_error @+2 {{The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS}}
      // FALLBACK: expected_remark @+1 {{fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size}}
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "zeros"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
