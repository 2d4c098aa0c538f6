// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// The TMA implementation (sm_90 and newer): the documented E6-E9. Each case breaks
// exactly one rule.

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @no_barrier(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // RULE: E6
    // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @wait_gmem_to_smem() kernel {
    // RULE: E7
    // expected-error @+1 {{wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @leader_without_collective(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: E8
    // expected-error @+1 {{`collective_axes` must be specified when `leader_tracked` is set}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @partitioned_cluster_of_4(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    // RULE: E9
    // expected-error @+1 {{Partitioned loads only supported for clusters of size 2. Got cluster size (4, 1, 1).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Without nvvm.cluster_dim the cluster is 1x1x1.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @partitioned_no_cluster(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Partitioned loads only supported for clusters of size 2. Got cluster size (1, 1, 1).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Missing trailing cluster sizes are 1.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @partitioned_cluster_1x2(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 4>} {
    // expected-error @+1 {{Partitioned loads only supported for clusters of size 2. Got cluster size (1, 4, 1).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
