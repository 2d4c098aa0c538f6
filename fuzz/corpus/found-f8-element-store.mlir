// Found by scripts/fuzz.sh (seed 0x20261201, case 744): acopy-verify accepted this f8 store,
// whose element-wise path then loaded an f8E4M3FN value, which LLVM cannot (tests/lower/tma-element-store-f8.mlir).
module {
  gpu.module @m [#nvvm.target<chip = "sm_121a">] {
    gpu.func @k(%a2: memref<256x?x32x1xf8E4M3FN, strided<[8192, 0, ?, 1], offset: 7>>, %a4: index) workgroup(%w1 : memref<64xf8E4M3FN, 3>) kernel {
      %c3 = arith.constant 84 : index
      %bid5 = gpu.block_id z
      %c6 = arith.constant 24 : index
      %s7 = arith.muli %bid5, %c6 : index
      %c8 = arith.constant 64 : index
      "acopy.copy_smem_to_gmem"(%w1, %a2, %c3, %a4, %s7, %c8) {operandSegmentSizes = array<i32: 1, 1, 4, 0>} : (memref<64xf8E4M3FN, 3>, memref<256x?x32x1xf8E4M3FN, strided<[8192, 0, ?, 1], offset: 7>>, index, index, index, index) -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
      gpu.return
    }
  }
}
