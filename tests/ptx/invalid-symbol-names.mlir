// A symbol PTX cannot name is an error at its op under --emit=ptx: the NVPTX
// backend would abort the process ("Symbol name with unsupported characters").
// LLVM IR can spell any name, so --emit=llvm still succeeds.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower --emit=ptx
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=llvm | FileCheck %s
// CHECK: define ptx_kernel void @"a b"
// CHECK: define ptx_kernel void @"\FF"

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{the symbol name "a b" cannot be written in PTX: a PTX name is [a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+}}
  gpu.func @"a b"() kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the symbol name "\FF" cannot be written in PTX}}
  gpu.func @"\FF"() kernel {
    gpu.return
  }
}
