// Rule P10's message lists what the slots take, and when they would move to
// dynamic shared memory, the bytes that align them there: 1008 for a tile of
// 128-byte swizzle, whose slots need 1024-byte alignment of a 16-byte aligned
// base (a mutation survivor of shard 5, 2026-12-03: the part was dropped and no
// test read it).
// RUN: acopy-opt %s --verify-diagnostics --acopy-verify

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<8192x64xf16>, %out: memref<8192x64xf16>, %n: index) workgroup(%tile: memref<256x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %tid = gpu.thread_id x
    // RULE: P10
    // expected-error @+1 {{the pipelined loop needs 263224 bytes of shared memory on sm_90a (8 x 32768 bytes for memref<256x64xf16, 3>, 72 bytes of barriers, 1008 bytes to align the slots in dynamic shared memory), more than the 232448 bytes a block can have; at most 7 stages fit}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c256 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<8192x64xf16> -> memref<256x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<256x64xf16, 3>
      memref.store %v, %out[%row, %tid] : memref<8192x64xf16>
    } {acopy.pipeline = {stages = 8 : i64}}
    gpu.return
  }
}
