// The pipeliner's copies keep what the user's copy says besides its slot: the
// oob_mode, the swizzle and the assume_aligned_start promise (docs/dialect.md)
// reach every copy it issues, in the prologue and in the steady state, on both
// paths, so the lowering takes the same (fast, unchecked-start) route it would
// take for the copy outside a loop.
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_80

// CHECK: gpu.func @k
// CHECK: acopy.copy_gmem_to_smem {{.*}} {assume_aligned_start, oob_mode = "promise_in_bounds", swizzle = 128 : i64}
// CHECK: scf.for
// CHECK: acopy.copy_gmem_to_smem {{.*}} {assume_aligned_start, oob_mode = "promise_in_bounds", swizzle = 128 : i64}
// CHECK-NOT: acopy.copy_gmem_to_smem {{.*}}oob_mode = "zeros"
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<8x64xf16, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64, assume_aligned_start} : memref<4096x64xf16> -> memref<8x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %p:2 = acopy.swizzled_index %tile[%c0, %tid] : memref<8x64xf16, 3>
      %v = memref.load %tile[%p#0, %p#1] : memref<8x64xf16, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
