// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Several violations on one op report only the first, in the documented order (docs/verification.md):
// cp.async E10, E1, E2, E3, E4, E5, E11; TMA E10, E8, E9, E6, E11, T1-T4;
// then our own rules.

// Every cp.async violation at once, plus mismatched dtypes: E10.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @all_then_e10(%src: memref<256x512xf32>, %dst: memref<64x128xi32, 3>, %bar: memref<1xi64, 3>, %p: i1) kernel {
    %c300 = arith.constant 300 : index
    // expected-error @+1 {{Expected dtypes to match but src had type f32 and dst had type i32}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c300, %c300, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, collective_axes = ["x"], leader_tracked = "replicated", oob_mode = "zeros", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x128xi32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e1_first(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>, %p: i1) kernel {
    // expected-error @+1 {{copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, collective_axes = ["x"], leader_tracked = "replicated", oob_mode = "zeros"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

// On Ampere a leader_tracked copy always reports E2 or E3, never E8.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e2_before_e3(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) kernel {
    // expected-error @+1 {{Only the TMA implementation supports collective copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e3_before_e4(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) kernel {
    // expected-error @+1 {{Only the TMA implementation supports leader_tracked copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e4_before_e5(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) kernel {
    // expected-error @+1 {{The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e5_before_e11(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %p: i1) kernel {
    %c300 = arith.constant 300 : index
    // expected-error @+1 {{The cp.async implementation does not support user-defined predicates}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c300, %c300, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
}

// -----

// Documented rules come before our own (E11 before A4's swizzle rule, which
// this shared-tile argument breaks).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @e11_before_own(%src: memref<256x512xf32>, %dst: memref<64x32xf32, 3>) kernel {
    %c300 = arith.constant 300 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [300:364, 300:332] but buffer has shape (256, 512).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c300, %c300) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// TMA: leader_tracked without collective_axes, partitioned on a cluster of 4,
// no barrier, on sm_90 (no cta_group::2): E8.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @e8_first(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    // expected-error @+1 {{`collective_axes` must be specified when `leader_tracked` is set}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @e9_before_e6(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    // expected-error @+1 {{Partitioned loads only supported for clusters of size 2. Got cluster size (4, 1, 1).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @e6_before_e11(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>) kernel {
    %c300 = arith.constant 300 : index
    // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c300, %c300) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @e11_before_t1(%src: memref<1x1x1x1x256x512xf32>, %dst: memref<300x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [0:1, 0:1, 0:1, 0:1, 0:300, 0:128] but buffer has shape (1, 1, 1, 1, 256, 512).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0, %c0, %c0, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 6, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<1x1x1x1x256x512xf32>, memref<300x128xf32, 3>, index, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @t1_before_t2(%src: memref<1x1x1x1x512x512xf32>, %dst: memref<300x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies only support striding up to 5 dimensions}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 6, 1, 0>} : (memref<1x1x1x1x512x512xf32>, memref<300x128xf32, 3>, index, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @t2_before_t3(%src: memref<1024x1024xf32>, %dst: memref<300x3xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies only support copying <=256 elements along each dimension, got (300, 3)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x1024xf32>, memref<300x3xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @t3_before_t4(%src: memref<256x512xf32>, %dst: memref<64x3xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies require the number of bits copied along the last dimension to be divisible by 128, but got 96}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 64 : i64} : (memref<256x512xf32>, memref<64x3xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// T4 before our own rules (A13: 200-byte rows, A14: strided tile).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @t4_before_own(%src: memref<256x100xf16>, %dst: memref<64x128xf16, strided<[256, 1]>, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies with swizzle=64 require the last dimension of the slice to be exactly 64 bytes i.e.  32 elements, but got 128 elements.}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 64 : i64} : (memref<256x100xf16>, memref<64x128xf16, strided<[256, 1]>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Stores: E10 before our own rules, on the cp.async path too.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @store_e10_first(%tile: memref<64x128xf16, 3>, %out: memref<256x512xf32>, %i: index) kernel {
    // expected-error @+1 {{Expected dtypes to match but src had type f16 and dst had type f32}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf16, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}
