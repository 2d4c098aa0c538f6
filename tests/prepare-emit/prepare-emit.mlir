// acopy-prepare-emit, run by name: each gpu.module's target names its chip (the
// chip option overrides it) with the PTX ISA the chip model asks for, keeping
// the optimisation level the old target gave.
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-prepare-emit)' | FileCheck %s
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-prepare-emit{emit=llvm})' | FileCheck %s
// RUN: acopy-opt %s --pass-pipeline='builtin.module(acopy-prepare-emit{chip=sm_90 emit=ptx})' | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: gpu.module @ampere
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx71">]
// CHECK-LABEL: gpu.module @hopper
// CHECK-SAME: [#nvvm.target<chip = "sm_90", features = "+ptx80">]
// SM90-LABEL: gpu.module @ampere
// SM90-SAME: [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// SM90-LABEL: gpu.module @hopper
// SM90-SAME: [#nvvm.target<chip = "sm_90", features = "+ptx80">]
gpu.module @ampere [#nvvm.target<O = 3, chip = "sm_80">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
