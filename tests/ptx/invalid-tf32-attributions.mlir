// A workgroup or private attribution that holds tf32 (alone, in a vector or in
// a complex number): tf32 has no LLVM type, and MLIR 22's convert-gpu-to-nvvm
// segfaulted on such an attribution (exit 139; found by scripts/fuzz.sh,
// docs/robustness.md). --emit reports it first, at the gpu.func.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower --emit=llvm
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower --emit=ptx
// RUN: not acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: invalid-tf32-attributions.mlir:14:3: error: the workgroup attribution memref<4xtf32, 3> cannot be compiled: tf32 has no LLVM type
// CHECK-NOT: Stack dump

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the workgroup attribution memref<4xtf32, 3> cannot be compiled: tf32 has no LLVM type, and convert-gpu-to-nvvm crashes on an attribution that holds it}}
  gpu.func @k() workgroup(%w: memref<4xtf32, 3>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{the private attribution memref<4xtf32> cannot be compiled: tf32 has no LLVM type}}
  gpu.func @k() private(%p: memref<4xtf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the workgroup attribution memref<2xvector<2x2xtf32>, #gpu.address_space<workgroup>> cannot be compiled: tf32 has no LLVM type}}
  gpu.func @k() workgroup(%w: memref<2xvector<2x2xtf32>, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the workgroup attribution memref<4xcomplex<tf32>, 3> cannot be compiled: tf32 has no LLVM type}}
  gpu.func @k() workgroup(%w: memref<4xcomplex<tf32>, 3>) kernel {
    gpu.return
  }
}

// -----

// Other element types without an LLVM equivalent of their own convert: an
// f8 workgroup buffer and a complex f8 private one compile.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() workgroup(%w: memref<4xf8E4M3FN, 3>) private(%p: memref<2xcomplex<f8E5M2>>) kernel {
    gpu.return
  }
}
