// Generated (acopy-fuzz --seed 9 --case 26): a collective TMA load and a TMA store on sm_100.
module {
  gpu.module @m [#nvvm.target<chip = "sm_100">] {
    gpu.func @k(%a2: memref<32x128x64x?x64xi8>, %a9: index, %a10: index, %a13: memref<1x2x512x?x128xi64>, %a16: index, %a23: memref<256x16xf16>) workgroup(%w1 : memref<64x64xi8, 3>, %w12 : memref<32x1x128xi64, 3>, %w21 : memref<1xi64, 3>, %w22 : memref<16xf16, #gpu.address_space<workgroup>>, %w26 : memref<1xi64, 3>) kernel {
      %bid3 = gpu.block_id x
      %c4 = arith.constant 51 : index
      %s5 = arith.muli %bid3, %c4 : index
      %bid6 = gpu.block_id z
      %c7 = arith.constant 38 : index
      %s8 = arith.muli %bid6, %c7 : index
      %c11 = arith.constant 192 : index
      "acopy.copy_smem_to_gmem"(%w1, %a2, %s5, %s8, %a9, %a10, %c11) {operandSegmentSizes = array<i32: 1, 1, 5, 0>, assume_aligned_start} : (memref<64x64xi8, 3>, memref<32x128x64x?x64xi8>, index, index, index, index, index) -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
      %c14 = arith.constant 96 : index
      %c15 = arith.constant 22 : index
      %c17 = arith.constant 0 : index
      %bid18 = gpu.block_id y
      %c19 = arith.constant 128 : index
      %s20 = arith.muli %bid18, %c19 : index
      "acopy.barrier_init"(%w21) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
      "acopy.copy_gmem_to_smem"(%a13, %w12, %c14, %c15, %a16, %c17, %s20, %w21) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>, oob_mode = "zeros", collective_axes = ["x"]} : (memref<1x2x512x?x128xi64>, memref<32x1x128xi64, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
      %c24 = arith.constant 114 : index
      %c25 = arith.constant 16 : index
      "acopy.barrier_init"(%w26) : (memref<1xi64, 3>) -> ()
      "acopy.copy_gmem_to_smem"(%a23, %w22, %c24, %c25, %w26) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x16xf16>, memref<16xf16, #gpu.address_space<workgroup>>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}
