// Rule A26 (a TMA kernel launched with gpu.launch_func) holds when acopy-lower
// lowers the gpu.modules on MLIR's thread pool, each in a copy without the host
// code: the copies start knowing which kernels the original module launches. A
// shard-9 mutation survivor (2026-12-03: the copies started with none) lowered
// the launched kernel without the error.
// RUN: acopy-opt %s --acopy-lower --verify-diagnostics -o /dev/null
// RUN: not acopy-opt %s --acopy-lower --debug 2>&1 >/dev/null | FileCheck %s
// CHECK: lowering per gpu.module on MLIR's thread pool modules=2
module attributes {gpu.container_module} {
  func.func @host(%src: memref<256x512xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<256x512xf32>, %c1 : index)
    return
  }
  gpu.module @a [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
      // expected-error @+1 {{kernel @a::@k is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode}}
      "acopy.copy_smem_to_gmem"(%tile, %src, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
      gpu.return
    }
  }
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
      "acopy.copy_smem_to_gmem"(%tile, %src, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
      gpu.return
    }
  }
}
