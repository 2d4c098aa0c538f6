gpu.module @m [#nvvm.target<chip = "unknown">] {
}
