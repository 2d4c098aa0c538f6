func.func @fine() {
  return
}
// -----
func.func @bad(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, swizzle = 3 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  return
}
