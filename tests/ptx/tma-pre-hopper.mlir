// No TMA instruction ever reaches LLVM for a pre-Hopper chip: llc would abort
// the process with "Cannot select". A barrier copy, a store and a store wait
// on sm_80 get diagnostics instead, also when --chip overrides a Hopper
// module's target.
// RUN: not acopy-opt %s --split-input-file --acopy-lower --emit=ptx 2>&1 | FileCheck %s
// RUN: not acopy-opt %S/Inputs/hopper-copy.mlir --chip=sm_80 --acopy-lower --emit=ptx 2>&1 | FileCheck %s --check-prefix=OVERRIDE

// CHECK: error: copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation
// CHECK-NOT: LLVM ERROR
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @load(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK: error: copy_smem_to_gmem is only supported on Hopper and newer GPUs, which have TMA stores; sm_86 uses the cp.async implementation, which only copies GMEM->SMEM
// CHECK: error: wait_smem_to_gmem waits for TMA stores, which only Hopper and newer GPUs have; sm_86 has none
// CHECK-NOT: LLVM ERROR
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @store(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
}

// OVERRIDE: error: copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation
// OVERRIDE-NOT: LLVM ERROR
