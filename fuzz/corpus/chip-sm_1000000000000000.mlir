gpu.module @m [#nvvm.target<chip = "sm_1000000000000000">] {
}
