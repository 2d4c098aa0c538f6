// RUN: acopy-opt %s | acopy-opt | FileCheck %s
// Every acopy op parses, passes the dialect checks, prints and parses again.

// CHECK-LABEL: func.func @copy_all_operands
func.func @copy_all_operands(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %j: index, %bar: memref<1xi64, 3>, %p: i1) {
  // CHECK: "acopy.copy_gmem_to_smem"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}})
  // CHECK-SAME: collective_axes = ["x"]
  // CHECK-SAME: leader_tracked = "partitioned"
  // CHECK-SAME: oob_mode = "zeros"
  // CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>
  // CHECK-SAME: partition_axis = 0 : i64
  // CHECK-SAME: swizzle = 128 : i64
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %j, %bar, %p)
      {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "zeros", collective_axes = ["x"],
       leader_tracked = "partitioned", partition_axis = 0 : i64, swizzle = 128 : i64}
      : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
  return
}

// CHECK-LABEL: func.func @copy_minimal
func.func @copy_minimal(%src: memref<?x512xf16, #gpu.address_space<global>>, %dst: memref<32x64xf16, #gpu.address_space<workgroup>>, %i: index, %j: index) {
  // CHECK: "acopy.copy_gmem_to_smem"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}
      : (memref<?x512xf16, #gpu.address_space<global>>, memref<32x64xf16, #gpu.address_space<workgroup>>, index, index) -> ()
  return
}

// CHECK-LABEL: func.func @copy_rank_reducing
func.func @copy_rank_reducing(%src: memref<4x8x16xi8, 1>, %dst: memref<8x16xi8, 3>, %i: index) {
  // CHECK: "acopy.copy_gmem_to_smem"({{[^)]*}}) {oob_mode = "promise_in_bounds", operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"}
      : (memref<4x8x16xi8, 1>, memref<8x16xi8, 3>, index, index, index) -> ()
  return
}

// CHECK-LABEL: func.func @companions
func.func @companions(%bar: memref<1xi64, 3>, %parity: i1, %tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index, %p: i1) {
  // CHECK: "acopy.wait_gmem_to_smem"() {pending = 2 : i64}
  "acopy.wait_gmem_to_smem"() {pending = 2 : i64} : () -> ()
  // CHECK: "acopy.barrier_init"(%{{[a-z0-9]+}}) {arrival_count = 1 : i64}
  "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
  // CHECK: "acopy.barrier_wait"(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}) : (memref<1xi64, 3>, i1) -> ()
  "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
  // CHECK: "acopy.copy_smem_to_gmem"({{[^)]*}}) {commit_group = false, operandSegmentSizes = array<i32: 1, 1, 2, 1>, reduction_op = "add"}
  "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false, reduction_op = "add"}
      : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
  // CHECK: "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true}
  "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
  return
}
