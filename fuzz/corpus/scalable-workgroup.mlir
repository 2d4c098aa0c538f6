gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() workgroup(%w : memref<4x[4]xf32, 3>) kernel {
    gpu.return
  }
}
