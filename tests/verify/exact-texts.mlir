// The documented texts are exact: each error line ends where the documented text
// ends, and each bad op gets exactly one error.
// RUN: not acopy-opt %s --split-input-file --acopy-verify 2>&1 >/dev/null | FileCheck %s --implicit-check-not=error:

gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %dsth: memref<64x128xf16, 3>, %i: index, %bar: memref<1xi64, 3>, %p: i1) kernel {
    %c200 = arith.constant 200 : index
    // CHECK: error: Expected dtypes to match but src had type f32 and dst had type f16{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dsth, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf16, 3>, index, index) -> ()
    // CHECK: error: copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: error: Only the TMA implementation supports collective copies{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // CHECK: error: Only the TMA implementation supports leader_tracked copies{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // CHECK: error: The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // CHECK: error: The cp.async implementation does not support user-defined predicates{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
    // CHECK: error: Out-of-bounds read of src: reading [200:264, 200:328] but buffer has shape (256, 512).{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %c200, %c200) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @hopper [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 4, 2, 1>} {
    // CHECK: error: copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // CHECK: error: wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.{{$}}
    "acopy.wait_gmem_to_smem"() : () -> ()
    // CHECK: error: `collective_axes` must be specified when `leader_tracked` is set{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: error: Partitioned loads only supported for clusters of size 2. Got cluster size (4, 2, 1).{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @shapes [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src6: memref<1x1x1x1x2x64xf32>, %d64: memref<64xf32, 3>, %src: memref<1024x1024xf32>, %dlong: memref<512x64xf32, 3>, %dnarrow: memref<64x3xf32, 3>, %dsw: memref<64x64xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // CHECK: error: Async copies only support striding up to 5 dimensions{{$}}
    "acopy.copy_gmem_to_smem"(%src6, %d64, %i, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 6, 1, 0>} : (memref<1x1x1x1x2x64xf32>, memref<64xf32, 3>, index, index, index, index, index, index, memref<1xi64, 3>) -> ()
    // CHECK: error: Async copies only support copying <=256 elements along each dimension, got (512, 64){{$}}
    "acopy.copy_gmem_to_smem"(%src, %dlong, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x1024xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: error: Async copies require the number of bits copied along the last dimension to be divisible by 128, but got 96{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dnarrow, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x1024xf32>, memref<64x3xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: error: Async copies with swizzle=64 require the last dimension of the slice to be exactly 64 bytes i.e.  16 elements, but got 64 elements.{{$}}
    "acopy.copy_gmem_to_smem"(%src, %dsw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 64 : i64} : (memref<1024x1024xf32>, memref<64x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
