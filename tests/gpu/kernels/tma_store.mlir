// GPU suite case `tma_store` (tests/gpu/README.md): fill the tile from src with plain loads, store it to the 64x128 window of out at (64, 128) with a TMA store, wait.
// Built with: acopy-opt tma_store.mlir --acopy-lower --emit=ptx -o ../ptx/tma_store.ptx --tma-manifest=../ptx/tma_store.manifest.json
gpu.module @tma_store [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_store(%src: memref<64x128xf32>, %out: memref<256x512xf32>)
      workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<64x128xf32, 3> into memref<8192xf32, 3>
    %srcflat = memref.collapse_shape %src [[0, 1]] : memref<64x128xf32> into memref<8192xf32>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 8192 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %srcflat[%e] : memref<8192xf32>
      memref.store %v, %flat[%e] : memref<8192xf32, 3>
    }
    "acopy.copy_smem_to_gmem"(%tile, %out, %c64, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
