// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// Custom forms misspelt or built wrong: every one is a located error from the
// parser (truncated input: invalid-custom-truncated.mlir). MLIR's parser words
// these messages; they are not acopy's documented errors.

func.func @misspelt_op(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{custom op 'acopy.barier_init' is unknown}}
  acopy.barier_init %b : memref<1xi64, 3>
  return
}

// -----

func.func @misspelt_barrier_keyword(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected ':'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barier(%b : memref<1xi64, 3>) : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @misspelt_if(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) {
  // expected-error @+1 {{expected ':'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst when %p : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @missing_arrow(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{expected '->'}}
  acopy.copy_gmem_to_smem %src[%i, %i] %dst : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @barrier_without_type(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected ':'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%b) : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @dst_type_not_memref(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{custom op 'acopy.copy_gmem_to_smem' invalid kind of type specified: expected builtin.memref, but found 'index'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst : memref<256x512xf32> -> index
  return
}

// -----

func.func @predicate_not_i1(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%i' expects different type than prior uses: 'i1' vs 'index'}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst if %i : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}

// -----

func.func @store_indices_on_src(%src: memref<64x128xf32, 3>, %dst: memref<256x512xf32>, %i: index) {
  // expected-error @+1 {{expected '->'}}
  acopy.copy_smem_to_gmem %src[%i, %i] -> %dst : memref<64x128xf32, 3> -> memref<256x512xf32>
  return
}

// -----

func.func @parity_missing(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected ','}}
  acopy.barrier_wait %b : memref<1xi64, 3>
  return
}

// -----

func.func @wait_with_operand(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{expected '=' after SSA name}}
  acopy.wait_gmem_to_smem %b
  return
}

// -----

func.func @wait_pending_bare() {
  // expected-error @+1 {{custom op 'pending' is unknown (tried 'func.pending' as well)}}
  acopy.wait_smem_to_gmem pending = 0
  return
}

// -----

func.func @undefined_value(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  acopy.barrier_init %bar : memref<1xi64, 3>
  return
}

// -----

func.func @types_as_a_function(%b: memref<1xi64, 3>) {
  // expected-error @+1 {{custom op 'acopy.barrier_init' invalid kind of type specified: expected builtin.memref, but found '(memref<1xi64, 3>) -> ()'}}
  acopy.barrier_init %b : (memref<1xi64, 3>) -> ()
  return
}
