// GPU suite case `cp_async_pipe_static_smem` (tests/gpu/README.md; issue 26, defect 2): a
// pipelined loop (S = 2, slots of 71x84 f32 = 23856 bytes) next to 14880 bytes of static
// workgroup memory. 14880 + 2 x 23856 = 62592 bytes is above 48 KiB, so the pipeliner moves
// the slots to dynamic shared memory: 47712 dynamic bytes (below 48 KiB on their own) and
// 14880 static ones (above 48 KiB together), which the runtime must opt in for.
// Built with: acopy-opt cp_async_pipe_static_smem.mlir --acopy-lower --emit=ptx -o ../ptx/cp_async_pipe_static_smem.ptx --tma-manifest=../ptx/cp_async_pipe_static_smem.manifest.json
gpu.module @cp_async_pipe_static_smem [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async_pipe_static_smem(%src: memref<284x84xf32>, %out: memref<284x84xf32>)
      workgroup(%tile: memref<71x84xf32, 3>, %extra: memref<3720xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c71 = arith.constant 71 : index
    %c84 = arith.constant 84 : index
    %c3719 = arith.constant 3719 : index
    %c3720 = arith.constant 3720 : index
    %c5964 = arith.constant 5964 : index
    %tid = gpu.thread_id x
    %bdim = gpu.block_dim x
    // The static buffer holds the first 3720 elements of src ...
    scf.for %e = %tid to %c3720 step %bdim {
      %r = arith.divui %e, %c84 : index
      %c = arith.remui %e, %c84 : index
      %v = memref.load %src[%r, %c] : memref<284x84xf32>
      memref.store %v, %extra[%e] : memref<3720xf32, 3>
    }
    // ... while the pipelined loop copies src to out, 71 rows per trip.
    scf.for %i = %c0 to %c4 step %c1 {
      %row = arith.muli %i, %c71 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<284x84xf32>, memref<71x84xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      scf.for %e = %tid to %c5964 step %bdim {
        %r = arith.divui %e, %c84 : index
        %c = arith.remui %e, %c84 : index
        %orow = arith.addi %row, %r : index
        %v = memref.load %tile[%r, %c] : memref<71x84xf32, 3>
        memref.store %v, %out[%orow, %c] : memref<284x84xf32>
      }
    } {acopy.pipeline = {stages = 2 : i64}}
    // Then the first 3720 elements of out are those of the static buffer, reversed
    // (read by other threads than wrote them, so the buffer must really be there).
    gpu.barrier
    scf.for %e = %tid to %c3720 step %bdim {
      %from = arith.subi %c3719, %e : index
      %v = memref.load %extra[%from] : memref<3720xf32, 3>
      %r = arith.divui %e, %c84 : index
      %c = arith.remui %e, %c84 : index
      memref.store %v, %out[%r, %c] : memref<284x84xf32>
    }
    gpu.return
  }
}
