// Generated (acopy-fuzz --seed 9 --case 71): a cluster kernel in nested modules, a reduction store.
module {
  module @inner {
  gpu.module @m [#nvvm.target<chip = "sm_110a">] {
    gpu.func @k(%a2: memref<1024xf16, strided<[1], offset: ?>>, %a5: memref<4x16xbf16>) workgroup(%w1 : memref<8xf16, #gpu.address_space<workgroup>>, %w4 : memref<16xbf16, 3>, %w8 : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
      %c3 = arith.constant 0 : index
      "acopy.copy_smem_to_gmem"(%w1, %a2, %c3) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, reduction_op = "add"} : (memref<8xf16, #gpu.address_space<workgroup>>, memref<1024xf16, strided<[1], offset: ?>>, index) -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = false} : () -> ()
      %c6 = arith.constant 50 : index
      %c7 = arith.constant 16 : index
      "acopy.copy_gmem_to_smem"(%a5, %w4, %c6, %c7, %w8) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start} : (memref<4x16xbf16>, memref<16xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
  }
}
