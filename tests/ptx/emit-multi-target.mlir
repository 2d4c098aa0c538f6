// A gpu.module with #nvvm.targets for several chips holds no acopy op
// (acopy-verify refuses one there). acopy-lower leaves it alone, and --emit
// compiles it once per target, as gpu-module-to-binary does: lowering and
// emit agree (docs/verification.md, "Verify and lower agree").
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK: // acopy-opt: gpu.module @two
// CHECK: .version 7.1
// CHECK: .target sm_80
// CHECK: .entry plain
// CHECK: // acopy-opt: gpu.module @two
// CHECK: .version 8.0
// CHECK: .target sm_90a
// CHECK: .entry plain
// LOWER: gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">]
// LLVM-COUNT-1: ; acopy-opt: gpu.module @two
// LLVM-NOT: acopy-opt: gpu.module
gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">] {
  gpu.func @plain(%p: memref<4xf32>) kernel {
    gpu.return
  }
}
