// GPU bandwidth kernel `bw_tma_64x256` (tests/gpu/README.md): block (bx, by) streams the
// 64x256 tile at (by*64, bx*256) of src to smem with a TMA load and back to the
// same place of dst with a TMA store. The tile lives in dynamic shared memory
// (65536 + 1024 bytes): its base is rounded up to 1024 bytes at run time, which
// memref.assume_alignment tells the lowering; the mbarrier follows the tile.
// Built with: acopy-opt bw_tma_64x256.mlir --acopy-lower --emit=ptx -o ../ptx/bw_tma_64x256.ptx --tma-manifest=../ptx/bw_tma_64x256.manifest.json
gpu.module @bw_tma_64x256 [#nvvm.target<chip = "sm_90">] {
  gpu.func @bw_tma_64x256(%src: memref<32768x8192xf32>, %dst: memref<32768x8192xf32>) kernel {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %base = memref.extract_aligned_pointer_as_index %dyn : memref<?xi8, #gpu.address_space<workgroup>> -> index
    %rem = arith.remui %base, %c1024 : index
    %up = arith.subi %c1024, %rem : index
    %pad = arith.remui %up, %c1024 : index
    %view = memref.view %dyn[%pad][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x256xf32, #gpu.address_space<workgroup>>
    %tile = memref.assume_alignment %view, 1024 : memref<64x256xf32, #gpu.address_space<workgroup>>
    %tile_bytes = arith.constant 65536 : index
    %bar_at = arith.addi %pad, %tile_bytes : index
    %bar = memref.view %dyn[%bar_at][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %rows = arith.constant 64 : index
    %cols = arith.constant 256 : index
    %row = arith.muli %by, %rows : index
    %col = arith.muli %bx, %cols : index
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, #gpu.address_space<workgroup>>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %row, %col, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<32768x8192xf32>, memref<64x256xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, #gpu.address_space<workgroup>>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, #gpu.address_space<workgroup>>, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %row, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x256xf32, #gpu.address_space<workgroup>>, memref<32768x8192xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
