// Every element type cp.async supports: 1-, 2-, 4- and 8-byte integers and
// floats. Each copies a 16-row window of 64-byte rows out of a wider array, so
// every one moves in 16-byte cg chunks and reads src with its own row stride.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx --chip=sm_86 -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_86

// PTX: .version 7.1
// PTX: .target sm_86

// CHECK-LABEL: gpu.func @copy_i8
// CHECK-SAME: memref<16x64xi8, 3>
// CHECK: %[[ROW_I8:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_I8]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_i8(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_f16
// CHECK-SAME: memref<16x32xf16, 3>
// CHECK: %[[ROW_F16:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_F16]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_f16(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_bf16
// CHECK-SAME: memref<16x32xbf16, 3>
// CHECK: %[[ROW_BF16:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_BF16]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_bf16(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_f32
// CHECK-SAME: memref<16x16xf32, 3>
// CHECK: %[[ROW_F32:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_F32]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_f32(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_i32
// CHECK-SAME: memref<16x16xi32, 3>
// CHECK: %[[ROW_I32:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_I32]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_i32(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_f64
// CHECK-SAME: memref<16x8xf64, 3>
// CHECK: %[[ROW_F64:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_F64]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_f64(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;

// CHECK-LABEL: gpu.func @copy_i64
// CHECK-SAME: memref<16x8xi64, 3>
// CHECK: %[[ROW_I64:.*]] = arith.constant 256 : index
// CHECK: arith.muli %{{.*}}, %[[ROW_I64]] : index
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry copy_i64(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @copy_i8(%src: memref<64x256xi8>, %i: index) workgroup(%tile : memref<16x64xi8, 3>) kernel {
    %c64 = arith.constant 64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c64) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x256xi8>, memref<16x64xi8, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_f16(%src: memref<64x128xf16>, %i: index) workgroup(%tile : memref<16x32xf16, 3>) kernel {
    %c32 = arith.constant 32 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c32) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x128xf16>, memref<16x32xf16, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_bf16(%src: memref<64x128xbf16>, %i: index) workgroup(%tile : memref<16x32xbf16, 3>) kernel {
    %c32 = arith.constant 32 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c32) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x128xbf16>, memref<16x32xbf16, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_f32(%src: memref<64x64xf32>, %i: index) workgroup(%tile : memref<16x16xf32, 3>) kernel {
    %c16 = arith.constant 16 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c16) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf32>, memref<16x16xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_i32(%src: memref<64x64xi32>, %i: index) workgroup(%tile : memref<16x16xi32, 3>) kernel {
    %c16 = arith.constant 16 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c16) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xi32>, memref<16x16xi32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_f64(%src: memref<64x32xf64>, %i: index) workgroup(%tile : memref<16x8xf64, 3>) kernel {
    %c8 = arith.constant 8 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c8) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x32xf64>, memref<16x8xf64, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @copy_i64(%src: memref<64x32xi64>, %i: index) workgroup(%tile : memref<16x8xi64, 3>) kernel {
    %c8 = arith.constant 8 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c8) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x32xi64>, memref<16x8xi64, 3>, index, index) -> ()
    gpu.return
  }
}
