// Fallback mode (docs/verification.md), opt-in: on pre-Hopper chips E1-E5 are not reported
// where the semantics can be kept exactly; otherwise the error is strict
// mode's. Strict mode is the default (see invalid-cp-async.mlir).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-fallback
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(acopy-verify{fallback=true})'
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(acopy-verify{fallback})'
//
// Each waived rule of a kept op is an MLIR remark at the op (the remark
// directives below); printed, it names the input file as errors do.
// RUN: not acopy-opt %s --split-input-file --acopy-fallback 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: fallback.mlir:26:5: remark: fallback mode keeps this op on sm_80: the barrier tracks completion through cp.async.mbarrier.arrive
// REMARK-NEXT: fallback.mlir:26:5: remark: fallback mode keeps this op on sm_80: collective_axes is dropped on a 1×1×1 cluster
// REMARK-NEXT: fallback.mlir:26:5: remark: fallback mode keeps this op on sm_80: leader_tracked is dropped on a 1×1×1 cluster
// REMARK-NEXT: fallback.mlir:26:5: remark: fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size
// REMARK-NEXT: fallback.mlir:26:5: remark: fallback mode keeps this op on sm_80: the predicate guards the copy

// Everything E1-E5 complain about, kept: a barrier, a predicate, "zeros",
// "undefined", and a replicated leader-tracked multicast on a 1x1x1 cluster.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @kept(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>, %p: i1) kernel {
    // expected-remark @+5 {{fallback mode keeps this op on sm_80: the barrier tracks completion through cp.async.mbarrier.arrive}}
    // expected-remark @+4 {{fallback mode keeps this op on sm_80: collective_axes is dropped on a 1×1×1 cluster}}
    // expected-remark @+3 {{fallback mode keeps this op on sm_80: leader_tracked is dropped on a 1×1×1 cluster}}
    // expected-remark @+2 {{fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size}}
    // expected-remark @+1 {{fallback mode keeps this op on sm_80: the predicate guards the copy}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "zeros", collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    // expected-remark @+1 {{fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // expected-remark @+1 {{fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "undefined"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A real multicast cannot be kept: E2, even though the barrier (E1) could be.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @multicast(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{Only the TMA implementation supports collective copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Neither can a partitioned copy, which needs 2 CTAs (on Hopper: E9).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @partitioned(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Only the TMA implementation supports leader_tracked copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// ... nor leader_tracked without collective_axes (on Hopper: E8).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @leader_alone(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{Only the TMA implementation supports leader_tracked copies}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// Rules other than E1-E5 stay: E11, and our own A4 (a swizzled tile whose
// alignment to the pattern cannot be guaranteed).
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @others(%src: memref<256x512xf32>, %dst: memref<64x32xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    %c300 = arith.constant 300 : index
    // expected-error @+1 {{Out-of-bounds read of src: reading [300:364, 300:332] but buffer has shape (256, 512).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c300, %c300, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{swizzle=128 on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to 1024 bytes (8 rows of 128 bytes), but the dst tile memref<64x32xf32, 3> cannot be guaranteed to be}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Hopper and newer are not affected.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @hopper(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // expected-error @+1 {{wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
    "acopy.wait_gmem_to_smem"() : () -> ()
    gpu.return
  }
}
