// cp.async's 16-byte chunks need the workgroup buffer 16-byte aligned, so the
// lowering raises a smaller `llvm.align` on the attribution and keeps its other
// attributes (docs/lowering-cp-async.md).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s

// CHECK-LABEL: gpu.func @raised
// CHECK-SAME: workgroup(%{{[^ ]+}} : memref<64x128xf32, 3> {llvm.align = 16 : i64, test.keep})
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @raised(%src: memref<64x128xf32>, %i: index) workgroup(%dst: memref<64x128xf32, 3> {llvm.align = 4 : i64, test.keep}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
