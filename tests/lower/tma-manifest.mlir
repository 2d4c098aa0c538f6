// --tma-manifest=FILE writes every kernel's tensor maps as JSON (the
// acopy-manifest format, version 2, which lists a kernel without tensor maps
// too): read after acopy-lower, before the upstream lowering, so it works with
// every --emit; split inputs add up; a failed run writes no manifest.
// tests/lower/manifest-launch-facts.mlir checks the launch facts.
// RUN: rm -f %t.json %t.ptx.json %t.bad.json
// RUN: acopy-opt %s --split-input-file --acopy-lower --tma-manifest=%t.json -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx --tma-manifest=%t.ptx.json -o /dev/null
// RUN: FileCheck %s < %t.ptx.json
// RUN: not acopy-opt %S/Inputs/tma-bad.mlir --acopy-lower --tma-manifest=%t.bad.json -o /dev/null 2> /dev/null
// RUN: test ! -e %t.bad.json

// CHECK: "version": 2,
// CHECK: "module": "first",
// CHECK-NEXT: "kernel": "copy",
// CHECK-NEXT: "chip": "sm_90a",
// CHECK-NEXT: "cluster": [
// CHECK-NEXT: 2,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "tensor_maps": [
// CHECK-NEXT: {
// CHECK-NEXT: "param": 3,
// CHECK-NEXT: "arg": 0,
// CHECK-NEXT: "element_type": "bf16",
// CHECK-NEXT: "element_bytes": 2,
// CHECK-NEXT: "box": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 64
// CHECK-NEXT: ],
// CHECK-NEXT: "swizzle": 128,
// CHECK-NEXT: "oob_fill": "none",
// CHECK-NEXT: "l2_promotion": "none",
// CHECK-NEXT: "interleave": "none"
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "param": 4,
// CHECK-NEXT: "arg": 1,
// CHECK-NEXT: "element_type": "bf16",
// CHECK: "module": "first",
// CHECK-NEXT: "kernel": "plain",
// CHECK: "tensor_maps": [],
// CHECK: "module": "second",
// CHECK-NEXT: "kernel": "store",
// CHECK-NEXT: "chip": "sm_90",
// CHECK: "param": 2,
// CHECK-NEXT: "arg": 0,
// CHECK-NEXT: "element_type": "i32",
// CHECK-NEXT: "element_bytes": 4,
// CHECK-NOT: "kernel":

gpu.module @first [#nvvm.target<chip = "sm_90a">] {
  gpu.func @copy(%src: memref<256x512xbf16>, %dst: memref<256x512xbf16>, %i: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start, collective_axes = ["x"], swizzle = 128 : i64} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x64xbf16, 3>, memref<256x512xbf16>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
  gpu.func @plain(%x: memref<4xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @second [#nvvm.target<chip = "sm_90">] {
  gpu.func @store(%dst: memref<256x512xi32>, %i: index) workgroup(%tile: memref<64x32xi32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
}
