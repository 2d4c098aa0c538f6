func.func @ok(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %unused = arith.addi %c0, %c1 : index
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}
