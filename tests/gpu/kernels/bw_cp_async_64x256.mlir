// GPU bandwidth kernel `bw_cp_async_64x256` (tests/gpu/README.md): block (bx, by) streams the
// 64x256 tile at (by*64, bx*256) of src to smem with cp.async (128 threads,
// known block size) and back to the same place of dst with 16-byte vector stores.
// The tile lives at the start of dynamic shared memory (16-byte aligned).
// Built with tests/gpu/build-ptx.sh: acopy-opt bw_cp_async_64x256.mlir --acopy-lower --emit=ptx -o ../ptx/bw_cp_async_64x256.ptx
gpu.module @bw_cp_async_64x256 [#nvvm.target<chip = "sm_80">] {
  gpu.func @bw_cp_async_64x256(%src: memref<32768x8192xf32>, %dst: memref<32768x8192xf32>) kernel
      attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x256xf32, #gpu.address_space<workgroup>>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %rows = arith.constant 64 : index
    %cols = arith.constant 256 : index
    %row = arith.muli %by, %rows : index
    %col = arith.muli %bx, %cols : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %row, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<32768x8192xf32>, memref<64x256xf32, #gpu.address_space<workgroup>>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 4096 : index
    %per_row = arith.constant 64 : index
    scf.for %e = %tid to %count step %nthreads {
      %r = arith.divui %e, %per_row : index
      %q = arith.remui %e, %per_row : index
      %c = arith.muli %q, %c4 : index
      %v = vector.load %tile[%r, %c] {alignment = 16} : memref<64x256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %gr = arith.addi %row, %r : index
      %gc = arith.addi %col, %c : index
      vector.store %v, %dst[%gr, %gc] {alignment = 16} : memref<32768x8192xf32>, vector<4xf32>
    }
    gpu.return
  }
}
