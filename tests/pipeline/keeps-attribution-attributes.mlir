// When a pipelined tile's slots move to dynamic shared memory, the pass removes
// the tile's workgroup attribution; the kernel's other attributions keep their
// own attributes (here the 1024-byte alignment a swizzled tile needs), whichever
// position the removed one had.
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null | FileCheck %s

// CHECK: gpu.func @k
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<64x64xf16, 3> {llvm.align = 1024 : i64})
// CHECK-SAME: acopy.dynamic_shared_memory
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %o: memref<4096x64xf16>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3> {llvm.align = 16 : i64}, %other: memref<64x64xf16, 3> {llvm.align = 1024 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    acopy.copy_gmem_to_smem %o[%c0, %c0] -> %other {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<64x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    %w = memref.load %other[%c0, %c0] : memref<64x64xf16, 3>
    memref.store %w, %o[%c0, %c0] : memref<4096x64xf16>
    gpu.return
  }
}
