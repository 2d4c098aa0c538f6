// A TMA copy through memref.casts of a kernel argument uses that argument's
// tensor map: a cast changes the type, not the descriptor the host encodes.
// Casts are looked through before and after a subview too.
// RUN: acopy-opt %s --split-input-file --acopy-lower | FileCheck %s

// CHECK-LABEL: gpu.func @cast
// CHECK-SAME: acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 64, 32>, element_type = f32, oob_fill = "none", param = 2 : i64, swizzle = 0 : i64}]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg2, %{{.*}}, box[%{{.*}}, %{{.*}}]
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @cast(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x512xf32>
    "acopy.copy_gmem_to_smem"(%cast, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The subview's offsets (16, 32) are added to the coordinates.
// CHECK-LABEL: gpu.func @cast_subview_cast
// CHECK-SAME: acopy.tensor_maps = [{arg = 1 : i64
// The constant coordinates fold to i32 constants at the top of the kernel.
// CHECK-DAG: %[[X:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[Y:.*]] = arith.constant 16 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg2, %{{.*}}, box[%[[X]], %[[Y]]]
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @cast_subview_cast(%i: index, %src: memref<256x512xf32>) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x?xf32>
    %view = memref.subview %cast[16, 32] [128, 256] [1, 1] : memref<?x?xf32> to memref<128x256xf32, strided<[?, 1], offset: ?>>
    %again = memref.cast %view : memref<128x256xf32, strided<[?, 1], offset: ?>> to memref<?x256xf32, strided<[?, 1], offset: ?>>
    "acopy.copy_gmem_to_smem"(%again, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<?x256xf32, strided<[?, 1], offset: ?>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
