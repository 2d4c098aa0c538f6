// --emit compiles a gpu.module for several chips only for chips acopy knows,
// and checks each chip's NVVM ops: errors at the gpu.module or the op.
// acopy-lower leaves such a module alone (it has no acopy op).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx
// RUN: acopy-opt %s --split-input-file --acopy-lower | FileCheck %s

// CHECK: gpu.module @old [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_75">]
// expected-error @+1 {{chip "sm_75" is not supported: acopy needs sm_80 or newer}}
gpu.module @old [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_75">] {
  gpu.func @plain() kernel {
    gpu.return
  }
}

// -----

gpu.module @mixed [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">] {
  gpu.func @fence() kernel {
    // expected-error @+1 {{'nvvm.fence.proxy' cannot be compiled for sm_80}}
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.return
  }
}
