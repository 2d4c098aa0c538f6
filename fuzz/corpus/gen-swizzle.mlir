// Generated (acopy-fuzz --seed 9 --case 4): TMA loads with swizzle = 128, two gpu.modules.
module {
  gpu.module @m [#nvvm.target<O = 3, chip = "sm_110a", features = "+ptx80">] {
    gpu.func @k(%a2: memref<?x2x2x32xf32, strided<[?, 4096, ?, 1], offset: 7>>, %a4: index) workgroup(%w1 : memref<2x2x32xf32, 3>, %w7 : memref<1xi64, 3>, %w9 : memref<1xi64, 3>, %w11 : memref<1xi64, 3>) kernel {
      %c3 = arith.constant 42 : index
      %c5 = arith.constant 72 : index
      %c6 = arith.constant 0 : index
      "acopy.barrier_init"(%w7) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
      %c8 = arith.constant false
      "acopy.copy_gmem_to_smem"(%a2, %w1, %c3, %a4, %c5, %c6, %w7, %c8) {operandSegmentSizes = array<i32: 1, 1, 4, 1, 1>, swizzle = 128 : i64} : (memref<?x2x2x32xf32, strided<[?, 4096, ?, 1], offset: 7>>, memref<2x2x32xf32, 3>, index, index, index, index, memref<1xi64, 3>, i1) -> ()
      "acopy.barrier_init"(%w9) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
      %c10 = arith.constant false
      "acopy.barrier_wait"(%w9, %c10) : (memref<1xi64, 3>, i1) -> ()
      %c12 = arith.constant false
      "acopy.barrier_wait"(%w11, %c12) : (memref<1xi64, 3>, i1) -> ()
      gpu.return
    }
  }
  gpu.module @m2 [#nvvm.target<chip = "sm_121a">] {
    gpu.func @k(%a2: memref<64x16x128x?x1024xbf16>, %a3: index, %a13: index) workgroup(%w1 : memref<1x2x16xbf16, 3>, %w14 : memref<1xi64, 3>) kernel {
      %bid4 = gpu.block_id y
      %c5 = arith.constant 50 : index
      %s6 = arith.muli %bid4, %c5 : index
      %bid7 = gpu.block_id y
      %c8 = arith.constant 44 : index
      %s9 = arith.muli %bid7, %c8 : index
      %bid10 = gpu.block_id x
      %c11 = arith.constant 14 : index
      %s12 = arith.muli %bid10, %c11 : index
      "acopy.barrier_init"(%w14) {arrival_count = 2 : i64} : (memref<1xi64, 3>) -> ()
      %c15 = arith.constant false
      "acopy.copy_gmem_to_smem"(%a2, %w1, %a3, %s6, %s9, %s12, %a13, %w14, %c15) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 1>} : (memref<64x16x128x?x1024xbf16>, memref<1x2x16xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>, i1) -> ()
      gpu.return
    }
  }
}
