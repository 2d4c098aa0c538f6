// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Attribute values outside their sets get one error each, naming the
// attribute and what it accepts, before any chip rule. (acopy-opt reports
// them when it reads the ops; acopy-verify reports the same errors itself
// for callers that run it as a library: see passes/src/verify/tests.rs.)

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{attribute 'oob_mode' must be one of "zeros", "promise_in_bounds", "undefined", but got "ZEROS"}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "ZEROS"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'oob_mode' must be one of "zeros", "promise_in_bounds", "undefined", but got 2 : i64}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = 2 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'swizzle' must be one of 0, 32, 64, 128 (i64), but got 256 : i64}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 256 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'collective_axes' must be one of an array of distinct "x", "y", "z", but got "x"}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = "x"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'leader_tracked' must be one of "partitioned", "replicated", but got "both"}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "both"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'partition_axis' must be one of a non-negative i64, but got -1 : i64}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = -1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{attribute 'partition_axis' is required when leader_tracked = "partitioned"}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @companions(%bar: memref<1xi64, 3>, %parity: i1, %gbar: memref<1xi64>) kernel {
    // expected-error @+1 {{attribute 'pending' must be one of a non-negative i64, but got -1 : i64}}
    "acopy.wait_gmem_to_smem"() {pending = -1 : i64} : () -> ()
    // expected-error @+1 {{attribute 'arrival_count' must be one of an i64 in [1, 1048575], but got 1048576 : i64}}
    "acopy.barrier_init"(%bar) {arrival_count = 1048576 : i64} : (memref<1xi64, 3>) -> ()
    // expected-error @+1 {{barrier must be memref<1xi64> in shared memory (memref<1xi64, 3>), got memref<1xi64>}}
    "acopy.barrier_wait"(%gbar, %parity) : (memref<1xi64>, i1) -> ()
    // expected-error @+1 {{attribute 'read_only' must be one of true, false, but got "yes"}}
    "acopy.wait_smem_to_gmem"() {read_only = "yes"} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index) kernel {
    // expected-error @+1 {{attribute 'reduction_op' must be one of "add", "min", "max", "inc", "dec", "and", "or", "xor", "umin", "umax", "smin", "smax", but got "ADD"}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "ADD"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    // expected-error @+1 {{attribute 'commit_group' must be one of true, false, but got 1 : i64}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, commit_group = 1 : i64} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}
