// MLIR's generic form of every acopy op still parses, with the attributes in
// the attribute dictionary `{...}` or as properties `<{...}>`, and prints in
// the custom form (docs/dialect.md, "Two spellings").
// RUN: acopy-opt %s | FileCheck %s --strict-whitespace

// CHECK-LABEL: func.func @copy_gmem_to_smem
func.func @copy_gmem_to_smem(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %j: index, %bar: memref<1xi64, 3>, %p: i1) {
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 barrier(%arg4 : memref<1xi64, 3>) if %arg5 {collective_axes = ["x"], leader_tracked = "partitioned", oob_mode = "zeros", partition_axis = 0 : i64, swizzle = 128 : i64} : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %j, %bar, %p)
      {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "zeros", collective_axes = ["x"],
       leader_tracked = "partitioned", partition_axis = 0 : i64, swizzle = 128 : i64}
      : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
  // Only a predicate: the segment sizes tell it from a barrier.
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 if %arg5 : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %j, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>}
      : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, i1) -> ()
  // Properties, as MLIR's generic printer writes them.
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 barrier(%arg4 : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %j, %bar) <{oob_mode = "promise_in_bounds", operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}>
      : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
  return
}

// Properties hold acopy's own attributes only: MLIR drops another name there.
// CHECK-LABEL: func.func @foreign_property
func.func @foreign_property() {
  // CHECK-NEXT: {{^    }}acopy.wait_gmem_to_smem {pending = 1 : i64}{{$}}
  "acopy.wait_gmem_to_smem"() <{pending = 1 : i64, my.tag = 7 : i32}> : () -> ()
  return
}

// CHECK-LABEL: func.func @wait_gmem_to_smem
func.func @wait_gmem_to_smem() {
  // CHECK-NEXT: {{^    }}acopy.wait_gmem_to_smem {pending = 0 : i64}{{$}}
  "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
  // CHECK-NEXT: {{^    }}acopy.wait_gmem_to_smem{{$}}
  "acopy.wait_gmem_to_smem"() : () -> ()
  return
}

// CHECK-LABEL: func.func @barriers
func.func @barriers(%bar: memref<1xi64, 3>, %parity: i1) {
  // CHECK-NEXT: {{^    }}acopy.barrier_init %arg0 {arrival_count = 1 : i64} : memref<1xi64, 3>{{$}}
  "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
  // CHECK-NEXT: {{^    }}acopy.barrier_wait %arg0, %arg1 : memref<1xi64, 3>{{$}}
  "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
  return
}

// CHECK-LABEL: func.func @stores
func.func @stores(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index, %p: i1) {
  // CHECK-NEXT: {{^    }}acopy.copy_smem_to_gmem %arg0 -> %arg1[%arg2, %arg2] if %arg3 {commit_group = false, reduction_op = "add"} : memref<64x128xf32, 3> -> memref<256x512xf32>{{$}}
  "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>, commit_group = false, reduction_op = "add"}
      : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
  // CHECK-NEXT: {{^    }}acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}{{$}}
  "acopy.wait_smem_to_gmem"() {pending = 0 : i64, read_only = true} : () -> ()
  return
}

// CHECK-LABEL: func.func @swizzled_index
func.func @swizzled_index(%tile: memref<64x64xf16, 3>, %r: index, %c: index) -> (index, index) {
  // CHECK-NEXT: {{^    }}%physical_row, %physical_col = acopy.swizzled_index %arg0[%arg1, %arg2] : memref<64x64xf16, 3>{{$}}
  %pr, %pc = "acopy.swizzled_index"(%tile, %r, %c) : (memref<64x64xf16, 3>, index, index) -> (index, index)
  return %pr, %pc : index, index
}
