// A swizzled tile in a marked loop on the cp.async path (sm_80): each slot is
// aligned to the swizzle pattern's repeat (8 rows of 128 bytes = 1024 bytes,
// plan/loops/slots.rs), so the pattern starts at every slot. The 1536-byte
// tile gets 2048-byte slots in a 1024-aligned buffer, and every copy, the
// refill at a dynamic slot included, lays the pattern (docs/pipelining.md,
// "Shared memory"; docs/lowering-cp-async.md, "Swizzled tiles").
// RUN: acopy-opt %s --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @swizzled
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<6144xi8, 3> {llvm.align = 1024 : i64})
// CHECK: memref.view %[[BUF]][%{{.+}}][] : memref<6144xi8, 3> to memref<12x64xf16, 3>
// CHECK-NEXT: acopy.copy_gmem_to_smem {{.*}}swizzle = 128 : i64
// CHECK: %[[C2048:.+]] = arith.constant 2048 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[C2048]]][]
// CHECK-NEXT: acopy.copy_gmem_to_smem {{.*}}swizzle = 128 : i64
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %[[SLOT:.+]] = %{{.+}}) -> (index, index)
// CHECK: arith.addi %[[SLOT]], %c2
// CHECK: acopy.copy_gmem_to_smem {{.*}}swizzle = 128 : i64
// CHECK: {acopy.pipelined = {stages = 3 : i64}}
// LOWER-LABEL: gpu.func @swizzled
// LOWER-SAME: workgroup(%{{.+}} : memref<6144xi8, 3> {llvm.align = 1024 : i64})
// LOWER-COUNT-3: arith.xori %{{.+}}, %{{.+}} : i64
// LOWER-NOT: acopy.copy_gmem_to_smem
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @swizzled(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<12x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c12 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<12x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<12x64xf16, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x64xf16>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
