// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// What MLIR's own verifier rejects, from the ODS definition (dialect/acopy.td):
// unknown ops, operand counts, operand kinds and segment sizes. In generic form,
// the one form that can spell these mistakes.

func.func @unknown_op() {
  // expected-error @+1 {{unregistered operation 'acopy.frob' found in dialect ('acopy') that does not allow unknown operations}}
  "acopy.frob"() : () -> ()
  return
}

// -----

func.func @missing_segments(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{'acopy.copy_gmem_to_smem' op operand count (4) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}

// -----

func.func @non_memref_src(%dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{'acopy.copy_gmem_to_smem' op operand #0 must be memref of any type values, but got 'index'}}
  "acopy.copy_gmem_to_smem"(%i, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (index, memref<64x128xf32, 3>, index, index) -> ()
  return
}

// -----

func.func @wrong_index_type(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %p: i1) {
  // expected-error @+1 {{'acopy.copy_gmem_to_smem' op operand #3 must be variadic of index, but got 'i1'}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, i1) -> ()
  return
}

// -----

func.func @wrong_operand_count(%bar: memref<1xi64, 3>) {
  // expected-error @+1 {{'acopy.barrier_wait' op expected 2 operands, but found 1}}
  "acopy.barrier_wait"(%bar) : (memref<1xi64, 3>) -> ()
  return
}

// -----

func.func @parity_not_i1(%bar: memref<1xi64, 3>, %i: index) {
  // expected-error @+1 {{'acopy.barrier_wait' op operand #1 must be 1-bit signless integer, but got 'index'}}
  "acopy.barrier_wait"(%bar, %i) : (memref<1xi64, 3>, index) -> ()
  return
}

// -----

func.func @segments_do_not_add_up(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{'acopy.copy_gmem_to_smem' op operand count (4) does not match with the total size (5) specified in attribute 'operandSegmentSizes'}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}
