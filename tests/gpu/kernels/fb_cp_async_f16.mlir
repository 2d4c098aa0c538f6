// GPU suite kernel `fb_cp_async_f16` (tests/gpu/README.md), built with --acopy-fallback for
// sm_80: copy the 32x64 f16 window at the dynamic start (%s0, %s1) with a barrier and
// oob_mode zeros; odd columns are only 2-byte aligned, which the element-wise path copies.
// Built with tests/gpu/build-ptx.sh (fb_* kernels get --acopy-fallback).
gpu.module @fb_cp_async_f16 [#nvvm.target<chip = "sm_80">] {
  gpu.func @fb_cp_async_f16(%src: memref<128x256xf16>, %out: memref<32x64xf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x64xf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x64xf16, 3> into memref<2048xf16, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "zeros"} : (memref<128x256xf16>, memref<32x64xf16, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x64xf16> into memref<2048xf16>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<2048xf16, 3>
      memref.store %v, %outflat[%e] : memref<2048xf16>
    }
    gpu.return
  }
}
