// Dynamic shapes and strides: strides and offsets come from the strided
// metadata; what cannot be proved aligned is checked at run time, with a
// smaller chunk (or element-wise copy) when the check fails.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// Dynamic sizes with a static layout need no metadata, and the window start
// bx * 64 is proved 16-byte aligned.
// CHECK-LABEL: gpu.func @dynamic_rows
// CHECK-NOT: memref.extract_strided_metadata
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg

// memref<?x?xf32>: the row stride is only known at run time.
// CHECK-LABEL: gpu.func @dynamic_strides
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[ELEMENTS:.*]] = arith.addi %{{.*}}, %arg2 : index
// CHECK: %[[START:.*]] = arith.muli %[[ELEMENTS]], %{{.*}} : index
// CHECK: %[[ROW_BYTES:.*]] = arith.muli %[[STRIDES]]#0, %{{.*}} : index
// CHECK: %[[BITS:.*]] = arith.ori %[[START]], %[[ROW_BYTES]] : index
// The mask for 16-byte chunks is 15 (the constant's printed name says its
// value): the low four bits must be zero.
// CHECK: %[[LOW:.*]] = arith.andi %[[BITS]], %c15{{(_[0-9]+)?}} : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[ALIGNED]] {
// CHECK: arith.muli %{{.*}}, %[[ROW_BYTES]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: } else {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry dynamic_strides
// PTX-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// PTX-DAG: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4;

// A subview with a dynamic offset, f16: when the check fails nothing of 4 bytes
// is proved, so the slow side copies element by element.
// CHECK-LABEL: gpu.func @dynamic_offset_f16
// CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[SUB:.*]] :
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: } else {
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i16
// CHECK: llvm.store %[[V]], %{{.*}} : i16, !llvm.ptr<3>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry dynamic_offset_f16
// PTX-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// PTX-DAG: ld.global.b16
// PTX-DAG: st.shared.b16

// A dynamic innermost stride: every element is its own row, 4 bytes each.
// CHECK-LABEL: gpu.func @dynamic_inner_stride
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @dynamic_rows(%src: memref<?x512xf32>, %bx: index) workgroup(%tile : memref<16x64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %col = arith.muli %bx, %c64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<?x512xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @dynamic_strides(%src: memref<?x?xf32>, %i: index, %j: index) workgroup(%tile : memref<16x64xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<?x?xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @dynamic_offset_f16(%src: memref<?x?xf16>, %i: index, %j: index) workgroup(%tile : memref<16x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %sub = memref.subview %src[%i, %j] [16, 64] [1, 1] : memref<?x?xf16> to memref<16x64xf16, strided<[?, 1], offset: ?>>
    "acopy.copy_gmem_to_smem"(%sub, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<16x64xf16, strided<[?, 1], offset: ?>>, memref<16x64xf16, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @dynamic_inner_stride(%src: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: index) workgroup(%tile : memref<4x8xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<4x8xf32, 3>, index, index) -> ()
    gpu.return
  }
}
