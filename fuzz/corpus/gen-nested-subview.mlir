// Generated (acopy-fuzz --seed 9 --case 43): nested modules, a memref.subview source, cp.async and TMA chips.
module {
  gpu.module @m [#nvvm.target<O = 3, chip = "sm_86", features = "+ptx80">] {
    gpu.func @k(%a2: memref<2x512xf16>) workgroup(%w1 : memref<8xf16, 3>) kernel {
      %bid3 = gpu.block_id z
      %c4 = arith.constant 1 : index
      %s5 = arith.muli %bid3, %c4 : index
      %c6 = arith.constant 1 : index
      %view7 = memref.subview %a2[%s5, %c6] [1, 256] [1, 1] : memref<2x512xf16> to memref<1x256xf16, strided<[512, 1], offset: ?>>
      %c8 = arith.constant 0 : index
      %c9 = arith.constant 8 : index
      "acopy.copy_gmem_to_smem"(%view7, %w1, %c8, %c9) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds", assume_aligned_start} : (memref<1x256xf16, strided<[512, 1], offset: ?>>, memref<8xf16, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      gpu.return
    }
  }
}

// -----

module {
  module @inner {
  gpu.module @m [#nvvm.target<O = 3, chip = "sm_110a", features = "+ptx80">] {
    gpu.func @k(%a2: memref<?x1024x1024x128xf32>, %a5: index, %a9: memref<32x1024x128x32xf16>, %a10: index, %a13: index) workgroup(%w1 : memref<128xf32, 3>, %w8 : memref<2x32xf16, 3>, %w14 : memref<1xi64, 3>) kernel attributes {nvvm.reqntid = array<i32: 32, 4, 1>} {
      %c3 = arith.constant 150 : index
      %c4 = arith.constant 66 : index
      %c6 = arith.constant 384 : index
      %c7 = arith.constant false
      "acopy.copy_smem_to_gmem"(%w1, %a2, %c3, %c4, %a5, %c6, %c7) {operandSegmentSizes = array<i32: 1, 1, 4, 1>} : (memref<128xf32, 3>, memref<?x1024x1024x128xf32>, index, index, index, index, i1) -> ()
      "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = false} : () -> ()
      %c11 = arith.constant 0 : index
      %c12 = arith.constant 72 : index
      "acopy.barrier_init"(%w14) : (memref<1xi64, 3>) -> ()
      "acopy.copy_gmem_to_smem"(%a9, %w8, %a10, %c11, %c12, %a13, %w14) {operandSegmentSizes = array<i32: 1, 1, 4, 1, 0>} : (memref<32x1024x128x32xf16>, memref<2x32xf16, 3>, index, index, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
  }
}

// -----

module {
  gpu.module @m [#nvvm.target<chip = "sm_110a">] {
    gpu.func @k() workgroup(%w1 : memref<1xi64, 3>) kernel {
      "acopy.barrier_init"(%w1) : (memref<1xi64, 3>) -> ()
      %c2 = arith.constant false
      "acopy.barrier_wait"(%w1, %c2) : (memref<1xi64, 3>, i1) -> ()
      gpu.return
    }
  }
}
