// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// What the IRDL definition itself rejects: unknown ops, operand counts and base types.

func.func @unknown_op() {
  // expected-error @+1 {{unregistered operation 'acopy.frob' found in dialect ('acopy') that does not allow unknown operations}}
  "acopy.frob"() : () -> ()
  return
}

// -----

func.func @missing_segments(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}

// -----

func.func @non_memref_src(%dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{expected base type 'builtin.memref' but got 'builtin.index'}}
  "acopy.copy_gmem_to_smem"(%i, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (index, memref<64x128xf32, 3>, index, index) -> ()
  return
}

// -----

func.func @wrong_index_type(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) {
  // expected-error @+1 {{expected 'index' but got 'i1'}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, i1) -> ()
  return
}

// -----

func.func @wrong_operand_count(%bar: memref<1xi64, 3>) {
  // expected-error @+1 {{op expects exactly 2 operands, but got 1}}
  "acopy.barrier_wait"(%bar) : (memref<1xi64, 3>) -> ()
  return
}

// -----

func.func @parity_not_i1(%bar: memref<1xi64, 3>, %i: index) {
  // expected-error @+1 {{expected 'i1' but got 'index'}}
  "acopy.barrier_wait"(%bar, %i) : (memref<1xi64, 3>, index) -> ()
  return
}

// -----

func.func @segments_do_not_add_up(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}
