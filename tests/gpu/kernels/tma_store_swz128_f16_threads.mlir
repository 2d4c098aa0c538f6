// GPU suite cases `tma_store_swz128_f16_threads_*` (tests/gpu/README.md, "Swizzled stores"): on sm_90,
// a swizzled tile written by threads, not by a copy: thread e moves element (r, c) = (e / 64, e mod 64)
// of src's 32x64 f16 window at (%s0, %s1) to the tile's byte o ^ ((o >> 3) & 0x70), o = 128 r + 2 c
// (TMA's 128-byte pattern, written out here from its definition, docs/lowering-cp-async.md, "Swizzled
// tiles"; the tile is 1024-byte aligned). The tile is then stored with swizzle = 128 to the same window
// of out. A store that ignored the swizzle would write the rows' 16-byte units permuted.
// Built with: acopy-opt tma_store_swz128_f16_threads.mlir --acopy-lower --emit=ptx -o ../ptx/tma_store_swz128_f16_threads.ptx --tma-manifest=../ptx/tma_store_swz128_f16_threads.manifest.json
gpu.module @tma_store_swz128_f16_threads [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_store_swz128_f16_threads(%src: memref<64x256xf16>, %out: memref<64x256xf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x64xf16, 3>) kernel {
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c112 = arith.constant 112 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x64xf16, 3> into memref<2048xf16, 3>
    scf.for %e = %tid to %count step %nthreads {
      %r = arith.divui %e, %c64 : index
      %c = arith.remui %e, %c64 : index
      %row = arith.addi %s0, %r : index
      %col = arith.addi %s1, %c : index
      %v = memref.load %src[%row, %col] : memref<64x256xf16>
      %o = arith.muli %e, %c2 : index
      %shifted = arith.shrui %o, %c3 : index
      %bits = arith.andi %shifted, %c112 : index
      %moved = arith.xori %o, %bits : index
      %p = arith.divui %moved, %c2 : index
      memref.store %v, %flat[%p] : memref<2048xf16, 3>
    }
    acopy.copy_smem_to_gmem %tile -> %out[%s0, %s1] {swizzle = 128 : i64} : memref<32x64xf16, 3> -> memref<64x256xf16>
    acopy.wait_smem_to_gmem {pending = 0 : i64}
    gpu.return
  }
}
