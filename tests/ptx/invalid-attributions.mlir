// Attributions outside the memory space convert-gpu-to-nvvm assumes (shared
// for workgroup, the default space for private) are an error at the gpu.func
// under --emit: upstream's conversion made IR that does not verify
// ('llvm.insertvalue' op Type mismatch).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=llvm

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{the workgroup attribution memref<64x32xf32, 257> cannot be compiled: convert-gpu-to-nvvm needs workgroup attributions in shared memory (3 or #gpu.address_space<workgroup>)}}
  gpu.func @workgroup_space() workgroup(%tile: memref<64x32xf32, 257>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the workgroup attribution memref<4xf32> cannot be compiled}}
  gpu.func @workgroup_global() workgroup(%tile: memref<4xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the private attribution memref<4xf32, 5> cannot be compiled: convert-gpu-to-nvvm needs private attributions in the default memory space (none, 0 or #gpu.address_space<private>)}}
  gpu.func @private_space() private(%p: memref<4xf32, 5>) kernel {
    gpu.return
  }
}

// -----

// The spaces it supports compile.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @ok() workgroup(%a: memref<4xf32, 3>, %b: memref<4xf32, #gpu.address_space<workgroup>>) private(%c: memref<4xf32>, %d: memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}
