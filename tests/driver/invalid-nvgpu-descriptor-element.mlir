// MLIR 22's nvgpu verifiers ask a descriptor's memref element for its bit
// width, which crashes the process (SIGSEGV) for an element that is neither an
// integer nor a float; acopy refuses it before parsing, at the memref shape (the
// robustness mutants found it: an f16 tile turned into complex<f32>).
// RUN: not acopy-opt %s 2>&1 | FileCheck %s
// CHECK: :[[@LINE+1]]:55: error: !nvgpu.warpgroup.descriptor takes a memref of integer or float elements, not complex: MLIR 22's verifier crashes on others, so acopy refuses it before parsing
!desc = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xcomplex<f32>, #gpu.address_space<workgroup>>>
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%d: !desc) kernel {
    gpu.return
  }
}
