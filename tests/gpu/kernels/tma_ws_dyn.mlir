// GPU suite kernel `tma_ws_dyn` (tests/gpu/README.md): a loop of 4 trips marked
// acopy.pipeline with a producer warp (S = 3) copies 8x128 f32 tiles of src at the
// dynamic start (%s0 + 8i, %s1) and the 128 consumers write each tile to rows 8i..8i+8
// of out, so out = the 32x128 window at (%s0, %s1). The alignment proof cannot read %s1:
// each copy checks it at run time; misaligned, the producer's one thread copies the tile
// with cp.async and completes the slot's full barrier itself
// (tests/pipeline/warp-specialized-dynamic-start.mlir pins that IR).
// Built with tests/gpu/build-ptx.sh.
gpu.module @tma_ws_dyn [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_ws_dyn(%src: memref<256x512xf32>, %out: memref<32x128xf32>, %s0: index, %s1: index)
      workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c8 : index
      %row = arith.addi %s0, %off : index
      acopy.copy_gmem_to_smem %src[%row, %s1] -> %tile {oob_mode = "promise_in_bounds"} : memref<256x512xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      scf.for %e = %tid to %c1024 step %c128 {
        %r = arith.divui %e, %c128 : index
        %c = arith.remui %e, %c128 : index
        %orow = arith.addi %off, %r : index
        %v = memref.load %tile[%r, %c] : memref<8x128xf32, 3>
        memref.store %v, %out[%orow, %c] : memref<32x128xf32>
      }
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}
