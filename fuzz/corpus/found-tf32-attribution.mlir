// Found by scripts/fuzz.sh (seed 0x18ed02c244caa0ce, case 209): a tf32 workgroup attribution
// segfaulted convert-gpu-to-nvvm under --emit (tests/ptx/invalid-tf32-attributions.mlir).
module {
  gpu.module @m [#nvvm.target<chip = "sm_120">, #nvvm.target<chip = "sm_90">] {
    gpu.func @k(%a2: memref<32x4096x64xtf32>, %a6: index) workgroup(%w1 : memref<32x8x16xtf32, 3>, %w8 : memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>} {
      %bid3 = gpu.block_id z
      %c4 = arith.constant 55 : index
      %s5 = arith.muli %bid3, %c4 : index
      %c7 = arith.constant 32 : index
      %c9 = arith.constant false
      gpu.return
    }
  }
}
