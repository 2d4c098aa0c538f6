// acopy-prepare-emit refuses what LLVM would abort on, with an error at the op;
// a symbol that is no PTX identifier only when PTX is made (emit=ptx, the
// default). Its options are its own: chip and emit.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(acopy-prepare-emit)'
// RUN: not acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-prepare-emit{emit=llvm})' 2>&1 | FileCheck %s --check-prefix=LLVM
// RUN: not acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-prepare-emit{emit=mlir})' 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-prepare-emit{fallback=true})' 2>&1 | FileCheck %s --check-prefix=KEY
// EMIT: acopy-opt: error: option 'emit' of pass 'acopy-prepare-emit' must be llvm or ptx, got 'mlir'
// KEY: acopy-opt: error: unknown option 'fallback' for pass 'acopy-prepare-emit'; it takes: chip, emit

// LLVM-NOT: cannot be written in PTX
// LLVM: invalid-prepare-emit.mlir:[[@LINE+18]]:5: error: 'nvvm.mbarrier.expect_tx' cannot be compiled for sm_80
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{the symbol name "a b" cannot be written in PTX}}
  gpu.func @"a b"() kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %tx = arith.constant 16 : i32
    %ptr = memref.extract_aligned_pointer_as_index %bar : memref<1xi64, 3> -> index
    %i = arith.index_cast %ptr : index to i64
    %p = llvm.inttoptr %i : i64 to !llvm.ptr<3>
    // expected-error @+1 {{'nvvm.mbarrier.expect_tx' cannot be compiled for sm_80: it needs Tma, which sm_80 does not have}}
    nvvm.mbarrier.expect_tx %p, %tx : !llvm.ptr<3>, i32
    gpu.return
  }
}
