// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// Attribute values the typed views reject: each error names the attribute and what it accepts.

func.func @oob_mode(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'oob_mode' must be one of "zeros", "promise_in_bounds", "undefined", but got "zero"}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {oob_mode = "zero"} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @swizzle(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'swizzle' must be one of 0, 32, 64, 128 (i64), but got 48 : i64}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {swizzle = 48 : i64} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @collective_axis(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'collective_axes' must be one of "x", "y", "z", but got "w"}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {collective_axes = ["x", "w"]} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @collective_axes_repeated(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'collective_axes' must be one of an array of distinct "x", "y", "z", but got ["x", "x"]}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {collective_axes = ["x", "x"]} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @leader_tracked(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'leader_tracked' must be one of "partitioned", "replicated", but got "leader"}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {leader_tracked = "leader"} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @partitioned_without_axis(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'partition_axis' is required when leader_tracked = "partitioned"}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {leader_tracked = "partitioned", collective_axes = ["x"]} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @pending_negative() {
  // expected-error @+1 {{attribute 'pending' must be one of a non-negative i64, but got -1 : i64}}
  acopy.wait_gmem_to_smem {pending = -1 : i64}
  return
}

// -----

func.func @arrival_count_zero(%bar: memref<1xi64, 3>) {
  // expected-error @+1 {{attribute 'arrival_count' must be one of an i64 in [1, 1048575], but got 0 : i64}}
  acopy.barrier_init %bar {arrival_count = 0 : i64} : memref<1xi64, 3>
  return
}

// -----

func.func @reduction_op(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{attribute 'reduction_op' must be one of "add", "min", "max", "inc", "dec", "and", "or", "xor", "umin", "umax", "smin", "smax", but got "mul"}}
  acopy.copy_smem_to_gmem %tile -> %out[%i, %i] {reduction_op = "mul"} : memref<64x128xf32, 3> -> memref<256x512xf32>
  return
}

// -----

func.func @read_only_not_bool() {
  // expected-error @+1 {{attribute 'read_only' must be one of true, false, but got 1 : i64}}
  acopy.wait_smem_to_gmem {read_only = 1 : i64}
  return
}

// -----

// An empty string is a value like any other (it used to crash the driver).
func.func @empty_string(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'leader_tracked' must be one of "partitioned", "replicated", but got ""}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {leader_tracked = ""} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @empty_axis(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'collective_axes' must be one of "x", "y", "z", but got ""}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {collective_axes = [""]} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @assume_aligned_start_not_unit(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'assume_aligned_start' must be one of unit (the name alone, as in {assume_aligned_start}), but got true}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {assume_aligned_start = true} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @assume_aligned_start_on_store(%src: memref<64x128xf32, 3>, %dst: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{attribute 'assume_aligned_start' must be one of unit (the name alone, as in {assume_aligned_start}), but got 1 : i64}}
  acopy.copy_smem_to_gmem %src -> %dst[%i, %i] {assume_aligned_start = 1} : memref<64x128xf32, 3> -> memref<256x512xf32>
  return
}
