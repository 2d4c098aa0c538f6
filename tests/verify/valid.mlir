// Valid IR on every supported chip: no diagnostic, and the IR is unchanged.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-verify | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-fallback | FileCheck %s

// CHECK-LABEL: gpu.module @sm_80
gpu.module @sm_80 [#nvvm.target<chip = "sm_80">] {
  gpu.func @copies(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %src3: memref<4x8x16xi8>, %dst3: memref<8x16xi8, 3>, %dyn: memref<?x?xf16>, %dsth: memref<32x64xf16, 3>, %i: index) kernel {
    %c192 = arith.constant 192 : index
    %c384 = arith.constant 384 : index
    // CHECK-COUNT-4: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c192, %c384) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src3, %dst3, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x8x16xi8>, memref<8x16xi8, 3>, index, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%dyn, %dsth, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x?xf16>, memref<32x64xf16, 3>, index, index) -> ()
    // CHECK: acopy.wait_gmem_to_smem
    "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%bar: memref<1xi64, 3>, %parity: i1) kernel {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_86
gpu.module @sm_86 [#nvvm.target<chip = "sm_86">] {
  gpu.func @copies(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %src3: memref<4x8x16xi8>, %dst3: memref<8x16xi8, 3>, %dyn: memref<?x?xf16>, %dsth: memref<32x64xf16, 3>, %i: index) kernel {
    %c192 = arith.constant 192 : index
    %c384 = arith.constant 384 : index
    // CHECK-COUNT-4: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c192, %c384) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src3, %dst3, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x8x16xi8>, memref<8x16xi8, 3>, index, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%dyn, %dsth, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x?xf16>, memref<32x64xf16, 3>, index, index) -> ()
    // CHECK: acopy.wait_gmem_to_smem
    "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%bar: memref<1xi64, 3>, %parity: i1) kernel {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_87
gpu.module @sm_87 [#nvvm.target<chip = "sm_87">] {
  gpu.func @copies(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %src3: memref<4x8x16xi8>, %dst3: memref<8x16xi8, 3>, %dyn: memref<?x?xf16>, %dsth: memref<32x64xf16, 3>, %i: index) kernel {
    %c192 = arith.constant 192 : index
    %c384 = arith.constant 384 : index
    // CHECK-COUNT-4: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c192, %c384) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src3, %dst3, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x8x16xi8>, memref<8x16xi8, 3>, index, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%dyn, %dsth, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x?xf16>, memref<32x64xf16, 3>, index, index) -> ()
    // CHECK: acopy.wait_gmem_to_smem
    "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%bar: memref<1xi64, 3>, %parity: i1) kernel {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_89
gpu.module @sm_89 [#nvvm.target<chip = "sm_89">] {
  gpu.func @copies(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %src3: memref<4x8x16xi8>, %dst3: memref<8x16xi8, 3>, %dyn: memref<?x?xf16>, %dsth: memref<32x64xf16, 3>, %i: index) kernel {
    %c192 = arith.constant 192 : index
    %c384 = arith.constant 384 : index
    // CHECK-COUNT-4: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %c192, %c384) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src3, %dst3, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4x8x16xi8>, memref<8x16xi8, 3>, index, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%dyn, %dsth, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x?xf16>, memref<32x64xf16, 3>, index, index) -> ()
    // CHECK: acopy.wait_gmem_to_smem
    "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%bar: memref<1xi64, 3>, %parity: i1) kernel {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_90
gpu.module @sm_90 [#nvvm.target<chip = "sm_90">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_90a
gpu.module @sm_90a [#nvvm.target<chip = "sm_90a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_100
gpu.module @sm_100 [#nvvm.target<chip = "sm_100">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_100a
gpu.module @sm_100a [#nvvm.target<chip = "sm_100a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @leader_tracked(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "partitioned"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "replicated"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x", "y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_101a
gpu.module @sm_101a [#nvvm.target<chip = "sm_101a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @leader_tracked(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "partitioned"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "replicated"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x", "y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_103a
gpu.module @sm_103a [#nvvm.target<chip = "sm_103a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @leader_tracked(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "partitioned"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "replicated"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x", "y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_110a
gpu.module @sm_110a [#nvvm.target<chip = "sm_110a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A 512-row window multicast over 2 CTAs: each loads a 256-row box.
  gpu.func @multicast(%src: memref<1024x512xf32>, %i: index) workgroup(%dst : memref<512x64xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["x"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<1024x512xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @leader_tracked(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "partitioned"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "replicated"
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x", "y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_120
gpu.module @sm_120 [#nvvm.target<chip = "sm_120">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A collective over a cluster axis of size 1 is a plain copy: no multicast needed.
  gpu.func @collective_of_one(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["y"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_120a
gpu.module @sm_120a [#nvvm.target<chip = "sm_120a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A collective over a cluster axis of size 1 is a plain copy: no multicast needed.
  gpu.func @collective_of_one(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["y"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sm_121a
gpu.module @sm_121a [#nvvm.target<chip = "sm_121a">] {
  gpu.func @copies(%src: memref<256x512xf32>, %src5: memref<2x4x8x16x64xbf16>, %view: memref<256x512xf32, strided<[1024, 1], offset: ?>>, %i: index, %p: i1) workgroup(%dst : memref<64x128xf32, 3>, %sw : memref<64x32xf32, 3>, %dst5 : memref<2x4x8x16x32xbf16, 3>, %bar : memref<1xi64, 3>) kernel {
    // CHECK-COUNT-5: acopy.copy_gmem_to_smem
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.copy_gmem_to_smem"(%src, %sw, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, oob_mode = "undefined", swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src5, %dst5, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (memref<2x4x8x16x64xbf16>, memref<2x4x8x16x32xbf16, 3>, index, index, index, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%view, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1], offset: ?>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @stores(%out: memref<256x512xf32>, %iout: memref<256x512xi32>, %i: index, %p: i1) workgroup(%tile : memref<64x128xf32, 3>, %itile : memref<64x128xi32, 3>) kernel {
    // CHECK-COUNT-3: acopy.copy_smem_to_gmem
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%itile, %iout, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // CHECK: acopy.wait_smem_to_gmem
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
    gpu.return
  }
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.barrier_init
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    // CHECK: acopy.barrier_wait
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  // A collective over a cluster axis of size 1 is a plain copy: no multicast needed.
  gpu.func @collective_of_one(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<64x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}collective_axes = ["y"]
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A partitioned copy splits along partition_axis, not like a multicast: its
// window needs no leading dimension that divides by 2 (rule A12 is for
// multicasts only).
// CHECK-LABEL: gpu.module @partitioned_odd_rows
gpu.module @partitioned_odd_rows [#nvvm.target<chip = "sm_100a">] {
  gpu.func @partitioned(%src: memref<256x512xf32>, %i: index) workgroup(%dst : memref<3x128xf32, 3>, %bar : memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // CHECK: acopy.copy_gmem_to_smem{{.*}}leader_tracked = "partitioned",{{.*}} partition_axis = 1 : i64
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<3x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A `kernel` attribute on an op other than gpu.launch_func launches nothing:
// the TMA kernel is not host-launched (rule A26 does not apply).
// CHECK-LABEL: func.func @host
module attributes {gpu.container_module} {
  func.func @host() attributes {kernel = @m::@k} {
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
      // CHECK: acopy.copy_gmem_to_smem
      "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}
