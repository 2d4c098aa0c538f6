// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// The cp.async implementation (sm_80 to sm_89): the documented E1-E5 and our own
// rules for what cp.async cannot do. Each case breaks exactly one rule.

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @barrier(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: E1
    // expected-error @+1 {{copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @collective(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // RULE: E2
    // expected-error @+1 {{Only the TMA implementation supports collective copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// leader_tracked alone: E3 on cp.async chips (E8 is a TMA-path rule).
gpu.module @m [#nvvm.target<chip = "sm_87">] {
  gpu.func @leader_tracked(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // RULE: E3
    // expected-error @+1 {{Only the TMA implementation supports leader_tracked copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// E4 when oob_mode is absent (the default is "zeros") ...
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @oob_default(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // RULE: E4
    // expected-error @+1 {{The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// ... "zeros" ...
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @oob_zeros(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// ... and "undefined".
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @oob_undefined(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "undefined"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @predicate(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) kernel {
    // RULE: E5
    // expected-error @+1 {{The cp.async implementation does not support user-defined predicates}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
}

// -----

// Our own: cp.async copies windows of rank 1 to 5, like TMA.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @rank6(%src: memref<1x1x1x1x2x64xf32>, %dst: memref<64xf32, 3>, %i: index) kernel {
    // RULE: A3
    // expected-error @+1 {{The cp.async implementation supports src ranks 1 to 5, but src has rank 6}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 6, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<1x1x1x1x2x64xf32>, memref<64xf32, 3>, index, index, index, index, index, index) -> ()
    gpu.return
  }
}

// -----

// Our own: the cp.async lowering writes unswizzled tiles only.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @swizzle(%src: memref<256x512xf32>, %dst: memref<64x32xf32, 3>, %i: index) kernel {
    // RULE: A4
    // expected-error @+1 {{swizzle=128 needs the TMA implementation (Hopper and newer GPUs); the cp.async implementation only writes unswizzled tiles}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index) -> ()
    gpu.return
  }
}
