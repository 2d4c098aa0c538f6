// A swizzled tile on the cp.async path whose slots do not fit static shared
// memory: they move to dynamic shared memory like any other, and the rewrite
// promises each copy its slot's 1024-byte alignment (memref.assume_alignment),
// which the run-time round-up of the dynamic base gives, so the swizzled copy
// verifies and lowers (it was refused by P11 before).
// RUN: acopy-opt %s --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @swizzled_cp_async
// CHECK-SAME: acopy.dynamic_shared_memory =
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.assume_alignment %{{.+}}, 1024
// CHECK-NEXT: acopy.copy_gmem_to_smem {{.+}} swizzle = 128
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @swizzled_cp_async(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<128x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c128 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<128x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<128x64xf16, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
