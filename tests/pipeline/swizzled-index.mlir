// acopy.swizzled_index in a loop marked acopy.pipeline (docs/dialect.md,
// "acopy.swizzled_index"): it is a consumer after the wait, so the pass
// points its tile at the iteration's slot view, proved aligned to the
// pattern's repeat (8 rows of 128 bytes), where every slot's pattern starts;
// the index then folds or computes the same position in every slot. On both
// paths the pipelined IR verifies again, lowers and assembles.
// RUN: acopy-opt %s --split-input-file --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-pipeline | acopy-opt --split-input-file --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-lower | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90

// CHECK-LABEL: gpu.func @cp_async
// CHECK: scf.for
// CHECK: acopy.wait_gmem_to_smem
// CHECK: %[[VIEW:.+]] = memref.view
// CHECK-NEXT: %[[SLOT:.+]] = memref.assume_alignment %[[VIEW]], 1024
// CHECK-NEXT: %[[PR:.+]], %[[PC:.+]] = acopy.swizzled_index %[[SLOT]][%{{.+}}, %{{.+}}] : memref<16x64xf16, 3>
// CHECK-NEXT: memref.load %[[SLOT]][%[[PR]], %[[PC]]] : memref<16x64xf16, 3>
// CHECK: {acopy.pipelined = {stages = 3 : i64}}
// LOWER-LABEL: gpu.func @cp_async
// LOWER-NOT: acopy.swizzled_index
// LOWER: scf.for
// LOWER: arith.xori %{{.+}}, %{{.+}} : index
// LOWER: memref.load
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<16x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %r = gpu.thread_id y
    %c = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<16x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %p:2 = acopy.swizzled_index %tile[%r, %c] : memref<16x64xf16, 3>
      %v = memref.load %tile[%p#0, %p#1] : memref<16x64xf16, 3>
      %at = arith.addi %row, %r : index
      memref.store %v, %out[%at, %c] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @tma
// CHECK: scf.for
// CHECK: acopy.barrier_wait
// CHECK: %[[VIEW:.+]] = memref.view
// CHECK-NEXT: %[[SLOT:.+]] = memref.assume_alignment %[[VIEW]], 1024
// CHECK-NEXT: %[[PR:.+]], %[[PC:.+]] = acopy.swizzled_index %[[SLOT]][%{{.+}}, %{{.+}}] : memref<64x64xf16, 3>
// CHECK-NEXT: memref.load %[[SLOT]][%[[PR]], %[[PC]]] : memref<64x64xf16, 3>
// CHECK: {acopy.pipelined = {stages = 2 : i64}}
// LOWER-LABEL: gpu.func @tma
// LOWER-NOT: acopy.swizzled_index
// LOWER: arith.xori %{{.+}}, %{{.+}} : index
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @tma(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %r = gpu.thread_id y
    %c = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %p:2 = acopy.swizzled_index %tile[%r, %c] : memref<64x64xf16, 3>
      %v = memref.load %tile[%p#0, %p#1] : memref<64x64xf16, 3>
      %at = arith.addi %row, %r : index
      memref.store %v, %out[%at, %c] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
