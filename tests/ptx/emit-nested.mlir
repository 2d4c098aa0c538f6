// --emit compiles every gpu.module wherever it sits: at the top level, or
// inside nested builtin.modules (up to 3 deep); a deeper one, or one inside
// another op, gets a located error. It never exits 0 with nothing printed.
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx --acopy-fallback | FileCheck %s

// CHECK: // acopy-opt: gpu.module @top
// CHECK: .target sm_80
// CHECK: cp.async.cg.shared.global
// CHECK: // acopy-opt: gpu.module @inner
// CHECK: .target sm_90
// CHECK: cp.async.bulk.tensor.2d
// CHECK: // acopy-opt: gpu.module @deepest
// CHECK: .target sm_80
// CHECK: cp.async.cg.shared.global
// LLVM: ; acopy-opt: gpu.module @top
// LLVM: ; acopy-opt: gpu.module @inner
// LLVM: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d
// LLVM: ; acopy-opt: gpu.module @deepest
module {
  gpu.module @top [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile : memref<64x128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
      gpu.return
    }
  }
  builtin.module @outer {
    gpu.module @inner [#nvvm.target<chip = "sm_90">] {
      gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
        "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
        gpu.return
      }
    }
    builtin.module {
      builtin.module {
        gpu.module @deepest [#nvvm.target<chip = "sm_80">] {
          gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile : memref<64x128xf32, 3>) kernel {
            %c0 = arith.constant 0 : index
            "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
            gpu.return
          }
        }
      }
    }
  }
}
