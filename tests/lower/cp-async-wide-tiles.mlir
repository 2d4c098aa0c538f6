// Wide swizzled tiles on the cp.async path (fallback mode; docs/dialect.md,
// "Wide tiles"): a row of n swizzle spans is stored as n column panels, so
// each chunk's logical tile offset L (row-major) is first placed at
// (c / S)·R·S + r·S + (c mod S), with r = L / (n·S) and c = L mod (n·S), and
// then XORed with TMA's pattern as in a one-span tile; the TMA path writes the
// same panels with one box each (tests/lower/tma-wide-tiles.mlir).
// RUN: acopy-opt %s --acopy-lower --acopy-fallback 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_80

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // 16 x 32 f32 with swizzle = 64: rows of 128 bytes, 2 panels of 16 x 64
  // bytes (1024 each). 128 threads, one 16-byte chunk each.
  // CHECK-LABEL: gpu.func @two_panels
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x32xf32, 3> {llvm.align = 512 : i64})
  // CHECK-DAG: %[[ROWB:.*]] = arith.constant 128 : index
  // CHECK-DAG: %[[ROWM:.*]] = arith.constant 127 : index
  // CHECK-DAG: %[[SPAN:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[PANEL:.*]] = arith.constant 1024 : index
  // CHECK-DAG: %[[SPANM:.*]] = arith.constant 63 : index
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 48 : i64
  // CHECK: %[[R:.*]] = arith.divui %[[L:.*]], %[[ROWB]] : index
  // CHECK-NEXT: %[[C:.*]] = arith.andi %[[L]], %[[ROWM]] : index
  // CHECK-NEXT: %[[J:.*]] = arith.divui %[[C]], %[[SPAN]] : index
  // CHECK-NEXT: %[[JB:.*]] = arith.muli %[[J]], %[[PANEL]] : index
  // CHECK-NEXT: %[[RB:.*]] = arith.muli %[[R]], %[[SPAN]] : index
  // CHECK-NEXT: %[[IN:.*]] = arith.andi %[[L]], %[[SPANM]] : index
  // CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[JB]], %[[RB]] : index
  // CHECK-NEXT: %[[O:.*]] = arith.addi %[[SUM]], %[[IN]] : index
  // CHECK-NEXT: %[[O64:.*]] = arith.index_cast %[[O]] : index to i64
  // CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %{{.*}}[%[[O64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.ptrtoint %[[AT]] : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %{{.*}} : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  gpu.func @two_panels(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<16x32xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%i, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x512xf32> -> memref<16x32xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // Rows count every outer window dimension: 2 x 8 rows of 64 i8 with
  // swizzle = 32 are 2 panels of 16 rows x 32 bytes (512 each). Under zero
  // fill the element-wise path (an unaligned dynamic start) places each
  // element the same way.
  // CHECK-LABEL: gpu.func @three_d
  // CHECK-DAG: %[[PANEL:.*]] = arith.constant 512 : index
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 16 : i64
  // CHECK: arith.muli %{{.*}}, %[[PANEL]] : index
  // CHECK: arith.andi %{{.*}}, %[[MASK]] : i64
  // CHECK: nvvm.cp.async.shared.global
  // CHECK: arith.muli %{{.*}}, %[[PANEL]] : index
  // CHECK: arith.andi %{{.*}}, %[[MASK]] : i64
  // CHECK: llvm.store
  gpu.func @three_d(%src: memref<4x64x256xi8>, %i: index, %j: index) workgroup(%tile: memref<2x8x64xi8, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %i, %j] -> %tile {swizzle = 32 : i64} : memref<4x64x256xi8> -> memref<2x8x64xi8, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
