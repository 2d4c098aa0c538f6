// GPU bandwidth kernel `bw_tma_dyn_64x128` (tests/gpu/README.md): bw_tma_64x128 with the
// window start moved by the kernel argument %off (the suite passes 0), so the compiler
// cannot prove the start aligned and must check it at run time. Block (bx, by) streams the
// 64x128 tile at (by*64 + %off, bx*128 + %off) of src to smem with a TMA load and back to the
// same place of dst with a TMA store. The tile lives in dynamic shared memory
// (32768 + 1024 bytes): its base is rounded up to 1024 bytes at run time, which
// memref.assume_alignment tells the lowering; the mbarrier follows the tile.
// Built with tests/gpu/build-ptx.sh.
gpu.module @bw_tma_dyn_64x128 [#nvvm.target<chip = "sm_90">] {
  gpu.func @bw_tma_dyn_64x128(%src: memref<32768x8192xf32>, %dst: memref<32768x8192xf32>, %off: index) kernel {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %base = memref.extract_aligned_pointer_as_index %dyn : memref<?xi8, #gpu.address_space<workgroup>> -> index
    %rem = arith.remui %base, %c1024 : index
    %up = arith.subi %c1024, %rem : index
    %pad = arith.remui %up, %c1024 : index
    %view = memref.view %dyn[%pad][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf32, #gpu.address_space<workgroup>>
    %tile = memref.assume_alignment %view, 1024 : memref<64x128xf32, #gpu.address_space<workgroup>>
    %tile_bytes = arith.constant 32768 : index
    %bar_at = arith.addi %pad, %tile_bytes : index
    %bar = memref.view %dyn[%bar_at][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %rows = arith.constant 64 : index
    %cols = arith.constant 128 : index
    %row0 = arith.muli %by, %rows : index
    %col0 = arith.muli %bx, %cols : index
    %row = arith.addi %row0, %off : index
    %col = arith.addi %col0, %off : index
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, #gpu.address_space<workgroup>>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %row, %col, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<32768x8192xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, #gpu.address_space<workgroup>>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, #gpu.address_space<workgroup>>, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %row, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf32, #gpu.address_space<workgroup>>, memref<32768x8192xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
