// A streaming tile copy for sm_90 (Hopper), with acopy's TMA lowering.
//
// Each block copies one 64x128 f32 tile: global -> shared with one TMA load
// (acopy.copy_gmem_to_smem with an mbarrier), waits on the barrier, then
// shared -> global with one TMA store (acopy.copy_smem_to_gmem) and waits for
// the store. One thread of the block issues the TMA instructions; the whole
// block takes part in the barrier ops.
//
// Launch: grid (4096 / 128, 4096 / 64, 1) = (32, 64, 1), any block size.
// Parameters: src and dst (7 each, docs/kernel-abi.md), then the two trailing
// __grid_constant__ CUtensorMaps that acopy-lower appends, one per argument
// (same box, different base). The manifest says how to encode them; host code
// passes them by value after the arguments (docs/lowering-tma.md §3).
//
//   acopy-opt examples/tile_copy_sm90.mlir --acopy-lower              # NVVM
//   acopy-opt examples/tile_copy_sm90.mlir --acopy-lower --emit=ptx \
//       --tma-manifest=tile_copy_sm90.json                            # PTX + manifest
module {
  gpu.module @tile_copy [#nvvm.target<chip = "sm_90">] {
    gpu.func @tile_copy(%src: memref<4096x4096xf32>, %dst: memref<4096x4096xf32>)
        workgroup(%tile : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %phase0 = arith.constant false
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c64 : index
      %col = arith.muli %bx, %c128 : index

      // One arrival (the copy's) completes the barrier's phase 0.
      acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>

      // global -> shared: 32 KiB in one cp.async.bulk.tensor, tracked by %bar.
      acopy.copy_gmem_to_smem %src[%row, %col] -> %tile barrier(%bar : memref<1xi64, 3>)
          {oob_mode = "promise_in_bounds"}
          : memref<4096x4096xf32> -> memref<64x128xf32, 3>
      acopy.barrier_wait %bar, %phase0 : memref<1xi64, 3>

      // shared -> global: one bulk tensor store in its own bulk group; wait
      // until it has completed before the block (and its shared memory) ends.
      acopy.copy_smem_to_gmem %tile
          -> %dst[%row, %col]
          : memref<64x128xf32, 3> -> memref<4096x4096xf32>
      acopy.wait_smem_to_gmem {pending = 0 : i64}
      gpu.return
    }
  }
}
