// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// Operands the typed views reject: memory spaces, shapes, index counts, barrier types.

func.func @src_in_shared(%src: memref<256x512xf32, 3>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{src must be a memref in global memory (no memory space, 1, or #gpu.address_space<global>), got memref<256x512xf32, 3>}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32, 3> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @dst_in_global(%src: memref<256x512xf32>, %dst: memref<64x128xf32>, %i: index) {
  // expected-error @+1 {{dst must be a memref in shared memory (3 or #gpu.address_space<workgroup>), got memref<64x128xf32>}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32> -> memref<64x128xf32>
  return
}

// -----

func.func @dst_dynamic(%src: memref<256x512xf32>, %dst: memref<?x128xf32, 3>, %i: index) {
  // expected-error @+1 {{dst must have a static shape of rank 1 or more, got memref<?x128xf32, 3>}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32> -> memref<?x128xf32, 3>
  return
}

// -----

func.func @too_few_indices(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{expected 2 indices, one per dimension of src, got 1}}
  acopy.copy_gmem_to_smem %src[%i] -> %dst : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @dst_rank_above_src(%src: memref<512xf32>, %dst: memref<4x128xf32, 3>, %i: index) {
  // expected-error @+1 {{dst has rank 2 but src has rank 1; the tile may not have more dimensions than the global memref}}
  acopy.copy_gmem_to_smem %src[%i] -> %dst : memref<512xf32> -> memref<4x128xf32, 3>
  return
}

// -----

func.func @barrier_wrong_type(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<2xi64, 3>) {
  // expected-error @+1 {{barrier must be memref<1xi64> in shared memory (memref<1xi64, 3>), got memref<2xi64, 3>}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%bar : memref<2xi64, 3>) : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

// A 64-bit integer that is not signless is not the barrier's i64.
func.func @barrier_unsigned(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xui64, 3>) {
  // expected-error @+1 {{barrier must be memref<1xi64> in shared memory (memref<1xi64, 3>), got memref<1xui64, 3>}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%bar : memref<1xui64, 3>) : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @barrier_in_global(%bar: memref<1xi64>) {
  // expected-error @+1 {{barrier must be memref<1xi64> in shared memory (memref<1xi64, 3>), got memref<1xi64>}}
  acopy.barrier_init %bar : memref<1xi64>
  return
}

// -----

func.func @store_from_global(%tile: memref<64x128xf32>, %out: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{src must be a memref in shared memory (3 or #gpu.address_space<workgroup>), got memref<64x128xf32>}}
  acopy.copy_smem_to_gmem %tile -> %out[%i, %i] : memref<64x128xf32> -> memref<256x512xf32>
  return
}

// -----

// Every bad op gets its error; the check does not stop at the first.
func.func @two_bad_ops(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'oob_mode' must be one of}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {oob_mode = "zero"} : memref<256x512xf32> -> memref<64x128xf32, 3>
  // expected-error @+1 {{attribute 'swizzle' must be one of}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {swizzle = 16 : i64} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @swizzled_index_dynamic(%tile: memref<?x64xf16, 3>, %i: index) {
  // expected-error @+1 {{tile must have a static shape of rank 1 or more, got memref<?x64xf16, 3>}}
  %p:2 = acopy.swizzled_index %tile[%i, %i] : memref<?x64xf16, 3>
  return
}

// -----

func.func @swizzled_index_global(%tile: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{tile must be a memref in shared memory (3 or #gpu.address_space<workgroup>), got memref<64x64xf16>}}
  %p:2 = acopy.swizzled_index %tile[%i, %i] : memref<64x64xf16>
  return
}
