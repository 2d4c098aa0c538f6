// Generated (acopy-fuzz --seed 9 --case 52): a TMA store with reduction_op = "add" on sm_120a.
module {
  gpu.module @m [#nvvm.target<O = 3, chip = "sm_120a", features = "+ptx80">] {
    gpu.func @k(%a2: memref<32x4x1024xf16>, %a6: index, %a9: memref<16x256xf32>, %a16: memref<32x1024x16x128xf32>) workgroup(%w1 : memref<4x16xf16, 3>, %w8 : memref<4x256xf32, 3>, %w14 : memref<1xi64, 3>, %w15 : memref<16x16x16xf32, 3>, %w25 : memref<1xi64, 3>) kernel {
      %bid3 = gpu.block_id z
      %c4 = arith.constant 22 : index
      %s5 = arith.muli %bid3, %c4 : index
      %c7 = arith.constant 16 : index
      "acopy.copy_smem_to_gmem"(%w1, %a2, %s5, %a6, %c7) {operandSegmentSizes = array<i32: 1, 1, 3, 0>, reduction_op = "add"} : (memref<4x16xf16, 3>, memref<32x4x1024xf16>, index, index, index) -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
      %bid10 = gpu.block_id z
      %c11 = arith.constant 41 : index
      %s12 = arith.muli %bid10, %c11 : index
      %c13 = arith.constant 0 : index
      "acopy.barrier_init"(%w14) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
      "acopy.copy_gmem_to_smem"(%a9, %w8, %s12, %c13, %w14) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<16x256xf32>, memref<4x256xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      %c17 = arith.constant 39 : index
      %bid18 = gpu.block_id x
      %c19 = arith.constant 5 : index
      %s20 = arith.muli %bid18, %c19 : index
      %bid21 = gpu.block_id y
      %c22 = arith.constant 8 : index
      %s23 = arith.muli %bid21, %c22 : index
      %c24 = arith.constant 32 : index
      "acopy.copy_gmem_to_smem"(%a16, %w15, %c17, %s20, %s23, %c24, %w25) {operandSegmentSizes = array<i32: 1, 1, 4, 1, 0>} : (memref<32x1024x16x128xf32>, memref<16x16x16xf32, 3>, index, index, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}
