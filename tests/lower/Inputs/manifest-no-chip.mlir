// Kernels of gpu.modules without a chip acopy lowers for (an older chip, no
// target) and without acopy ops: the manifest leaves them out
// (tests/lower/manifest-launch-facts.mlir).
gpu.module @old [#nvvm.target<chip = "sm_70">] {
  gpu.func @k(%x: f32) kernel {
    gpu.return
  }
}

// -----

gpu.module @untargeted {
  gpu.func @k(%x: f32) kernel {
    gpu.return
  }
}
