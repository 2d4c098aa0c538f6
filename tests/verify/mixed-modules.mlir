// RUN: acopy-opt %s --verify-diagnostics --acopy-verify
// One file, several gpu.modules: each is verified against its own chip, and
// every op is checked (verification does not stop at the first bad op).

gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    // expected-error @+1 {{wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

gpu.module @blackwell [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

gpu.module @no_target {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>) kernel {
    // expected-error @+1 {{cannot determine the target chip}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// The cluster is the enclosing kernel's: the same copy is fine in a 2-CTA
// cluster and an error in a 4-CTA one.
gpu.module @clusters [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @quad(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    // expected-error @+1 {{Partitioned loads only supported for clusters of size 2. Got cluster size (4, 1, 1).}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
