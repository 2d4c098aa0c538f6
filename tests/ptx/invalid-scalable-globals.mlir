// A workgroup attribution or memref.global of scalable vectors becomes an LLVM
// global, which LLVM refuses with a bare "Globals cannot contain scalable
// types" (no error line, no location). --emit reports it first, at the op.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower --emit=llvm
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower --emit=ptx
// RUN: not acopy-opt %s --split-input-file --acopy-lower --emit=llvm 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: invalid-scalable-globals.mlir:13:3: error: the workgroup attribution
// CHECK-NOT: Globals cannot contain scalable types

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the workgroup attribution memref<4xvector<[4]xf32>, #gpu.address_space<workgroup>> cannot be compiled: a global (shared memory or memref.global) cannot hold scalable vectors}}
  gpu.func @k() workgroup(%w: memref<4xvector<[4]xf32>, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{the global memref<2x4xvector<[2]x[2]xi8>, 3> cannot be compiled: a global (shared memory or memref.global) cannot hold scalable vectors}}
  memref.global "private" @g : memref<2x4xvector<[2]x[2]xi8>, 3>
}

// -----

// Fixed-size vectors are fine.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  memref.global "private" @g : memref<4xvector<4xf32>, 3>
  gpu.func @k() workgroup(%w: memref<4xvector<4xf32>, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}
