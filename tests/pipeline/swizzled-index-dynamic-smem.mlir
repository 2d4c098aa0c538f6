// acopy.swizzled_index of a pipelined tile whose slots go to dynamic shared
// memory (4 stages of two 8 KiB tiles: 64 KiB), next to an unswizzled tile in
// the same buffer. acopy-lower plans the index on the verified IR before the
// pipeliner moves the tiles (plan/swizzled_index.rs, `remember`), so the
// other tile's copies, now views of the same buffer, do not count as writers.
// RUN: acopy-opt %s --acopy-lower 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_80
// A known limitation (docs/dialect.md, "acopy.swizzled_index"): verifying the
// pipelined IR on its own, without the plan made before pipelining, sees both
// tiles' copies in the one buffer and refuses the index.
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | not acopy-opt --acopy-verify 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: error: acopy.swizzled_index cannot index the tile memref<64x64xf16, 3>: the copies that write the tile use different swizzles (128, 0)

// CHECK-LABEL: gpu.func @dynamic_slots
// CHECK: gpu.dynamic_shared_memory
// CHECK: scf.for
// CHECK: arith.xori %{{.+}}, %{{.+}} : index
// CHECK-NOT: acopy.swizzled_index
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @dynamic_slots(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %r = gpu.thread_id y
    %c = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tb {oob_mode = "promise_in_bounds"} : memref<4096x64xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %p:2 = acopy.swizzled_index %ta[%r, %c] : memref<64x64xf16, 3>
      %v = memref.load %ta[%p#0, %p#1] : memref<64x64xf16, 3>
      %w = memref.load %tb[%r, %c] : memref<64x64xf16, 3>
      %s = arith.addf %v, %w : f16
      %at = arith.addi %row, %r : index
      memref.store %s, %out[%at, %c] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
