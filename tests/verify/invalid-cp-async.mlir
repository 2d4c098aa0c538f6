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

// Our own: a swizzled cp.async tile holds TMA's pattern, laid on shared
// addresses, so it must be dense, row-major and aligned to the pattern's
// repeat (8 rows of the span). A shared tile passed in as an argument has no
// alignment the lowering can raise.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @swizzle(%src: memref<256x512xf32>, %dst: memref<64x32xf32, 3>, %i: index) kernel {
    // RULE: A4
    // expected-error @+1 {{swizzle=128 on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to 1024 bytes (8 rows of 128 bytes), but the dst tile memref<64x32xf32, 3> cannot be guaranteed to be: it must be a workgroup attribution of the kernel gpu.func, a memref.global in shared memory, the result of a memref.assume_alignment of at least 1024, or a view with a static offset of one of those}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A4: rows of the tile padded apart (a view of a wider buffer) break the pattern.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @swizzle_strided(%src: memref<256x512xf16>, %i: index) workgroup(%buf: memref<16x64xf16, 3>) kernel {
    %dst = memref.subview %buf[0, 0] [16, 32] [1, 1] : memref<16x64xf16, 3> to memref<16x32xf16, strided<[64, 1]>, 3>
    // expected-error @+1 {{swizzle=64 on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to 512 bytes (8 rows of 64 bytes), but the dst tile memref<16x32xf16, strided<[64, 1]>, 3> is not contiguous}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 64 : i64} : (memref<256x512xf16>, memref<16x32xf16, strided<[64, 1]>, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A4: a view that starts inside a pattern (4 rows of 32 bytes in) cannot be
// aligned to it by raising the buffer.
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @swizzle_offset(%src: memref<256x512xi8>, %i: index) workgroup(%buf: memref<20x32xi8, 3>) kernel {
    %dst = memref.subview %buf[4, 0] [16, 32] [1, 1] : memref<20x32xi8, 3> to memref<16x32xi8, strided<[32, 1], offset: 128>, 3>
    // expected-error @+1 {{swizzle=32 on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to 256 bytes (8 rows of 32 bytes), but the dst tile memref<16x32xi8, strided<[32, 1], offset: 128>, 3> starts 128 bytes into its buffer (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 32 : i64} : (memref<256x512xi8>, memref<16x32xi8, strided<[32, 1], offset: 128>, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// T4 holds on cp.async chips too, with TMA's text: a swizzled tile's rows are
// exactly one swizzle span, so it is the same bytes on both paths. T4 comes
// before A4 (documented rules first).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @swizzle_span(%src: memref<256x512xf16>, %dst: memref<64x32xf16, 3>, %i: index) kernel {
    // expected-error @+1 {{Async copies with swizzle=128 require the last dimension of the slice to be exactly 128 bytes i.e.  64 elements, but got 32 elements.}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 128 : i64} : (memref<256x512xf16>, memref<64x32xf16, 3>, index, index) -> ()
    gpu.return
  }
}
