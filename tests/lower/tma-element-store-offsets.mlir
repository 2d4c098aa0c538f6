// The element-wise path of a TMA store (a dynamic start that may be misaligned,
// fallback mode): element `l` of the block's loop is tile element
// (l div 64 mod 8, l mod 64); it is read at the tile's own strides (row 64)
// and written at dst's (row 256), at the window start (%i, %j) from dst's
// origin. A dst in memory space 1 is already a global pointer; a dst with no
// memory space is a generic pointer, cast to the global space.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// CHECK-LABEL: gpu.func @global_space_dst
// CHECK: } else {
// CHECK-NOT: llvm.addrspacecast
// CHECK: %[[DST:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NOT: llvm.addrspacecast
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %c512{{(_[0-9]+)?}} step
// CHECK-NEXT: %[[X:.*]] = arith.remui %[[L]], %c64{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.divui %[[L]], %c64{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[Y:.*]] = arith.remui %[[ROWS]], %c8{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[GY:.*]] = arith.addi %arg1, %[[Y]] : index
// CHECK-NEXT: arith.cmpi ult, %[[GY]], %c64{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[DROW:.*]] = arith.muli %[[GY]], %c256{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[TROW:.*]] = arith.muli %[[Y]], %c64{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[GX:.*]] = arith.addi %arg2, %[[X]] : index
// CHECK-NEXT: arith.cmpi ult, %[[GX]], %c256{{(_[0-9]+)?}} : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: %[[DOFF:.*]] = arith.addi %[[DROW]], %[[GX]] : index
// CHECK-NEXT: %[[TOFF:.*]] = arith.addi %[[TROW]], %[[X]] : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[TB:.*]] = arith.muli %[[TOFF]], %c2{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[TB64:.*]] = arith.index_cast %[[TB]] : index to i64
// CHECK-NEXT: %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%[[TB64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[DB:.*]] = arith.muli %[[DOFF]], %c2{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[DB64:.*]] = arith.index_cast %[[DB]] : index to i64
// CHECK-NEXT: %[[TARGET:.*]] = llvm.getelementptr %[[DST]][%[[DB64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[SRC]] : !llvm.ptr<3> -> i16
// CHECK-NEXT: llvm.store %[[V]], %[[TARGET]] : i16, !llvm.ptr<1>

// CHECK-LABEL: gpu.func @generic_dst
// CHECK: } else {
// CHECK: %[[G:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr{{$}}
// CHECK-NEXT: llvm.addrspacecast %[[G]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.store

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @global_space_dst(%d: memref<64x256xf16, 1>, %i: index, %j: index) workgroup(%t: memref<8x64xf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<8x64xf16, 3>, memref<64x256xf16, 1>, index, index) -> ()
    gpu.return
  }
  gpu.func @generic_dst(%d: memref<64x256xf16>, %i: index, %j: index) workgroup(%t: memref<8x64xf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<8x64xf16, 3>, memref<64x256xf16>, index, index) -> ()
    gpu.return
  }
}
