// The chunk is the largest of 16, 8 and 4 bytes that divides the row bytes, the
// window start and the strides: 16 bytes use cache = cg, 8 and 4 use cache = ca.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @rows_of_24_bytes
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// PTX-LABEL: .entry rows_of_24_bytes
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 8;
// PTX-NOT: cp.async.c{{[ag]}}.shared.global
// PTX: cp.async.commit_group;

// CHECK-LABEL: gpu.func @rows_of_12_bytes
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// PTX-LABEL: .entry rows_of_12_bytes
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 4;
// PTX-NOT: cp.async.c{{[ag]}}.shared.global
// PTX: cp.async.commit_group;

// A start 8 bytes into a row.
// CHECK-LABEL: gpu.func @start_at_8_bytes
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// PTX-LABEL: .entry start_at_8_bytes
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 8;
// PTX-NOT: cp.async.c{{[ag]}}.shared.global
// PTX: cp.async.commit_group;

// A start 4 bytes into a row.
// CHECK-LABEL: gpu.func @start_at_4_bytes
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// PTX-LABEL: .entry start_at_4_bytes
// PTX: cp.async.ca.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 4;
// PTX-NOT: cp.async.c{{[ag]}}.shared.global
// PTX: cp.async.commit_group;

// A full-width window of a contiguous array is one row, so its 8-byte rows
// still move in 16-byte chunks.
// CHECK-LABEL: gpu.func @merged_rows
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// PTX-LABEL: .entry merged_rows
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;
// PTX-NOT: cp.async.c{{[ag]}}.shared.global
// PTX: cp.async.commit_group;
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @rows_of_24_bytes(%src: memref<64x64xf32>) workgroup(%tile : memref<16x6xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<16x6xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @rows_of_12_bytes(%src: memref<64x64xf32>) workgroup(%tile : memref<16x3xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<16x3xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @start_at_8_bytes(%src: memref<64x64xf32>) workgroup(%tile : memref<16x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c2) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<16x32xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @start_at_4_bytes(%src: memref<64x64xf32>) workgroup(%tile : memref<16x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c1) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<16x32xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @merged_rows(%src: memref<64x2xf32>, %i: index) workgroup(%tile : memref<16x2xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %row = arith.muli %i, %c16 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x2xf32>, memref<16x2xf32, 3>, index, index) -> ()
    gpu.return
  }
}
