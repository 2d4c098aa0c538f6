// A swizzled tile under fallback mode's zero fill (sm_80): the chunk's
// destination is swizzled before the cp.async with its source size, so the
// zeros land where TMA's pattern puts them too; the element-by-element path
// (an f16 start not proved 16-byte aligned) swizzles each element's address
// inside its 16-byte unit, its loaded value and its zero alike
// (docs/lowering-cp-async.md, "Swizzled tiles").
// RUN: acopy-opt %s --acopy-lower --acopy-fallback | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // CHECK-LABEL: gpu.func @zeros
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x32xf16, 3> {llvm.align = 512 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 48 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
  // CHECK: } else {
  // CHECK: %[[EADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[EROW:.*]] = arith.shrui %[[EADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[EBITS:.*]] = arith.andi %[[EROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[EMOVED:.*]] = arith.xori %[[EADDR]], %[[EBITS]] : i64
  // CHECK-NEXT: %[[EDST:.*]] = llvm.inttoptr %[[EMOVED]] : i64 to !llvm.ptr<3>
  // CHECK: scf.if
  // CHECK: llvm.store %{{.*}}, %[[EDST]] : i16, !llvm.ptr<3>
  // CHECK: } else {
  // CHECK-NEXT: llvm.store %{{.*}}, %[[EDST]] : i16, !llvm.ptr<3>
  gpu.func @zeros(%src: memref<100x200xf16>, %i: index, %j: index) workgroup(%tile: memref<16x32xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    acopy.copy_gmem_to_smem %src[%i, %j] -> %tile {oob_mode = "zeros", swizzle = 64 : i64} : memref<100x200xf16> -> memref<16x32xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
