// --emit=ptx and --emit=llvm refuse, with an error at the op, what they cannot
// compile; nothing reaches the NVPTX backend, which would abort the process.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=llvm

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @not_lowered(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'acopy.copy_gmem_to_smem' must be lowered before LLVM IR or PTX is emitted: run acopy-lower first}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// expected-error @below {{LLVM IR and PTX are compiled from gpu.modules, and this input has none: put the kernels in a gpu.module}}
module {
  func.func @host() {
    return
  }
}

// -----

// expected-error @+1 {{cannot determine the target chip}}
gpu.module @no_target {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// An sm_90 instruction in an sm_80 module: llc would abort with "Cannot select".
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @try_wait(%bar: !llvm.ptr<3>, %phase: i32) kernel {
    // expected-error @+1 {{'nvvm.mbarrier.try_wait' cannot be compiled for sm_80: it needs MbarrierTryWait, which sm_80 does not have}}
    %done = nvvm.mbarrier.try_wait %bar, %phase : !llvm.ptr<3>, i32 -> i1
    gpu.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_86">] {
  gpu.func @tma(%bar: !llvm.ptr<3>, %tx: i32) kernel {
    // expected-error @+1 {{'nvvm.mbarrier.arrive.expect_tx' cannot be compiled for sm_86: it needs Tma, which sm_86 does not have}}
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    // expected-error @+1 {{'nvvm.fence.mbarrier.init' cannot be compiled for sm_86: it needs Clusters, which sm_86 does not have}}
    nvvm.fence.mbarrier.init
    gpu.return
  }
}

// -----

// setmaxnreg is architecture-specific: sm_90a has it, plain sm_90 does not (llc
// refuses it there with "Cannot select").
gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  gpu.func @registers() kernel {
    // expected-error @+1 {{'nvvm.setmaxregister' cannot be compiled for sm_90: it needs SetMaxNReg, which sm_90 does not have}}
    nvvm.setmaxregister increase 232
    gpu.return
  }
}
