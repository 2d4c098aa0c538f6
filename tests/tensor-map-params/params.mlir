// acopy-tensor-map-params: after convert-gpu-to-nvvm, the trailing tensor-map
// arguments of a TMA kernel become `__grid_constant__` byval CUtensorMaps
// (convert-gpu-to-nvvm drops llvm.byval and nvvm.* argument attributes, so
// acopy-lower cannot put them on the gpu.func).
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-lower, gpu.module(convert-gpu-to-nvvm, acopy-tensor-map-params))' | FileCheck %s
// Running it twice changes nothing.
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-lower, gpu.module(convert-gpu-to-nvvm, acopy-tensor-map-params, acopy-tensor-map-params))' | FileCheck %s

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: llvm.func @load
  // CHECK-SAME: %{{[^:]*}}: i64, %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes
  // CHECK-SAME: acopy.tensor_maps
  // CHECK-SAME: nvvm.kernel
  gpu.func @load(%src: memref<256x512xf32>, %i: index)
      workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }

  // A kernel without TMA copies keeps its signature.
  // CHECK-LABEL: llvm.func @plain
  // CHECK-NOT: grid_constant
  // CHECK: llvm.return
  gpu.func @plain(%x: memref<4xf32>) kernel {
    gpu.return
  }
}
