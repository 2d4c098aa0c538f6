// GPU suite cases `tma_store_swz32_f16_*` (tests/gpu/README.md, "Swizzled stores"): on sm_90, a round
// trip through a swizzled tile: the 32x16 f16 window at (%s0, %s1) of src is loaded with swizzle = 32
// (TMA with CU_TENSOR_MAP_SWIZZLE_32B where the innermost start is 16-byte aligned, else cp.async
// writing the same pattern), then stored with swizzle = 32 to the window at (%s0 + 16, %s1 + 16) of
// out (a TMA store through a swizzled tensor map, or, at a misaligned start, element-wise stores that
// read each element where the pattern put it). out must hold src's window there, poison elsewhere.
// Built with: acopy-opt tma_store_swz32_f16.mlir --acopy-lower --emit=ptx -o ../ptx/tma_store_swz32_f16.ptx --tma-manifest=../ptx/tma_store_swz32_f16.manifest.json
gpu.module @tma_store_swz32_f16 [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_store_swz32_f16(%src: memref<64x64xf16>, %out: memref<64x64xf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x16xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c16 = arith.constant 16 : index
    %cw = arith.constant 16 : index
    %parity = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<64x64xf16> -> memref<32x16xf16, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    %t0 = arith.addi %s0, %c16 : index
    %t1 = arith.addi %s1, %cw : index
    acopy.copy_smem_to_gmem %tile -> %out[%t0, %t1] {swizzle = 32 : i64} : memref<32x16xf16, 3> -> memref<64x64xf16>
    acopy.wait_smem_to_gmem {pending = 0 : i64}
    gpu.return
  }
}
