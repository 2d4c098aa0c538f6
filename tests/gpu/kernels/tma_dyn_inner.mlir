// GPU suite kernel `tma_dyn_inner` (tests/gpu/README.md): `tma_dyn_bf16` with a src whose
// innermost stride is dynamic (`strided<[256, ?]>`; the host passes 1, the only stride its
// tensor map takes). Built with tests/gpu/build-ptx.sh.
gpu.module @tma_dyn_inner [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma_dyn_inner(%src: memref<128x256xbf16, strided<[256, ?]>>, %out: memref<32x64xbf16>, %s0: index, %s1: index)
      workgroup(%tile: memref<32x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %flat = memref.collapse_shape %tile [[0, 1]] : memref<32x64xbf16, 3> into memref<2048xbf16, 3>
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xbf16, strided<[256, ?]>>, memref<32x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    %outflat = memref.collapse_shape %out [[0, 1]] : memref<32x64xbf16> into memref<2048xbf16>
    %tid = gpu.thread_id x
    %nthreads = gpu.block_dim x
    %count = arith.constant 2048 : index
    scf.for %e = %tid to %count step %nthreads {
      %v = memref.load %flat[%e] : memref<2048xbf16, 3>
      memref.store %v, %outflat[%e] : memref<2048xbf16>
    }
    gpu.return
  }
}
