// Every acopy op, with and without each optional part, in the custom form
// (docs/dialect.md): it parses, passes the dialect checks, and prints as
// written; printing, parsing and printing again gives the same bytes.
// RUN: acopy-opt %s > %t.first
// RUN: acopy-opt %t.first > %t.second
// RUN: diff %t.first %t.second
// RUN: FileCheck %s --strict-whitespace < %t.first

// CHECK-LABEL: func.func @copy_all_parts
func.func @copy_all_parts(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %j: index, %bar: memref<1xi64, 3>, %p: i1) {
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 barrier(%arg4 : memref<1xi64, 3>) if %arg5 {assume_aligned_start, collective_axes = ["x"], leader_tracked = "partitioned", oob_mode = "zeros", partition_axis = 0 : i64, swizzle = 128 : i64} : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  acopy.copy_gmem_to_smem %src[%i, %j] -> %dst barrier(%bar : memref<1xi64, 3>) if %p
      {oob_mode = "zeros", collective_axes = ["x"], leader_tracked = "partitioned",
       partition_axis = 0 : i64, swizzle = 128 : i64, assume_aligned_start}
      : memref<256x512xf32> -> memref<64x128xf32, 3>
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 barrier(%arg4 : memref<1xi64, 3>) : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  acopy.copy_gmem_to_smem %src[%i, %j] -> %dst barrier(%bar : memref<1xi64, 3>) : memref<256x512xf32> -> memref<64x128xf32, 3>
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg3, %arg2] -> %arg1 if %arg5 : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  acopy.copy_gmem_to_smem %src[%j, %i] -> %dst if %p : memref<256x512xf32> -> memref<64x128xf32, 3>
  // CHECK-NEXT: {{^    }}return
  return
}

// CHECK-LABEL: func.func @copy_minimal
func.func @copy_minimal(%src: memref<?x512xf16, #gpu.address_space<global>>, %dst: memref<32x64xf16, #gpu.address_space<workgroup>>, %i: index, %j: index) {
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg3] -> %arg1 : memref<?x512xf16, #gpu.address_space<global>> -> memref<32x64xf16, #gpu.address_space<workgroup>>{{$}}
  acopy.copy_gmem_to_smem %src[%i, %j] -> %dst : memref<?x512xf16, #gpu.address_space<global>> -> memref<32x64xf16, #gpu.address_space<workgroup>>
  return
}

// CHECK-LABEL: func.func @copy_rank_reducing
func.func @copy_rank_reducing(%src: memref<4x8x16xi8, 1>, %dst: memref<8x16xi8, 3>, %i: index) {
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg2, %arg2] -> %arg1 {oob_mode = "promise_in_bounds"} : memref<4x8x16xi8, 1> -> memref<8x16xi8, 3>{{$}}
  acopy.copy_gmem_to_smem %src[%i, %i, %i] -> %dst {oob_mode = "promise_in_bounds"} : memref<4x8x16xi8, 1> -> memref<8x16xi8, 3>
  return
}

// CHECK-LABEL: func.func @loads_and_barriers
func.func @loads_and_barriers(%bar: memref<1xi64, 3>, %parity: i1) {
  // CHECK-NEXT: {{^    }}acopy.wait_gmem_to_smem{{$}}
  acopy.wait_gmem_to_smem
  // CHECK-NEXT: {{^    }}acopy.wait_gmem_to_smem {pending = 2 : i64}{{$}}
  acopy.wait_gmem_to_smem {pending = 2 : i64}
  // CHECK-NEXT: {{^    }}acopy.barrier_init %arg0 : memref<1xi64, 3>{{$}}
  acopy.barrier_init %bar : memref<1xi64, 3>
  // CHECK-NEXT: {{^    }}acopy.barrier_init %arg0 {arrival_count = 128 : i64} : memref<1xi64, 3>{{$}}
  acopy.barrier_init %bar {arrival_count = 128 : i64} : memref<1xi64, 3>
  // CHECK-NEXT: {{^    }}acopy.barrier_wait %arg0, %arg1 : memref<1xi64, 3>{{$}}
  acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
  return
}

// CHECK-LABEL: func.func @stores
func.func @stores(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index, %p: i1) {
  // CHECK-NEXT: {{^    }}acopy.copy_smem_to_gmem %arg0 -> %arg1[%arg2, %arg2] : memref<64x128xf32, 3> -> memref<256x512xf32>{{$}}
  acopy.copy_smem_to_gmem %tile -> %out[%i, %i] : memref<64x128xf32, 3> -> memref<256x512xf32>
  // CHECK-NEXT: {{^    }}acopy.copy_smem_to_gmem %arg0 -> %arg1[%arg2, %arg2] if %arg3 {assume_aligned_start, commit_group = false, reduction_op = "add"} : memref<64x128xf32, 3> -> memref<256x512xf32>{{$}}
  acopy.copy_smem_to_gmem %tile -> %out[%i, %i] if %p {commit_group = false, reduction_op = "add", assume_aligned_start} : memref<64x128xf32, 3> -> memref<256x512xf32>
  // CHECK-NEXT: {{^    }}acopy.wait_smem_to_gmem{{$}}
  acopy.wait_smem_to_gmem
  // CHECK-NEXT: {{^    }}acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}{{$}}
  acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
  return
}

// The attribute dictionary keeps attributes acopy does not know (a frontend's
// tags) next to its own, on every op.
// CHECK-LABEL: func.func @foreign_attributes
func.func @foreign_attributes(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // CHECK-NEXT: {{^    }}acopy.copy_gmem_to_smem %arg0[%arg2, %arg2] -> %arg1 {my.tag = 7 : i32, oob_mode = "zeros"} : memref<256x512xf32> -> memref<64x128xf32, 3>{{$}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {my.tag = 7 : i32, oob_mode = "zeros"} : memref<256x512xf32> -> memref<64x128xf32, 3>
  // CHECK-NEXT: {{^    }}acopy.wait_smem_to_gmem {my.tag}{{$}}
  acopy.wait_smem_to_gmem {my.tag}
  return
}

// acopy.swizzled_index: two index results, printed with their names
// (physical_row, physical_col), the tile's type after the colon; a
// consumer's memref.load takes the pair as written.
// CHECK-LABEL: func.func @swizzled_index
func.func @swizzled_index(%tile: memref<64x64xf16, 3>, %r: index, %c: index) -> f16 {
  // CHECK-NEXT: {{^    }}%physical_row, %physical_col = acopy.swizzled_index %arg0[%arg1, %arg2] : memref<64x64xf16, 3>{{$}}
  %p:2 = acopy.swizzled_index %tile[%r, %c] : memref<64x64xf16, 3>
  // CHECK-NEXT: {{^    }}%0 = memref.load %arg0[%physical_row, %physical_col] : memref<64x64xf16, 3>{{$}}
  %v = memref.load %tile[%p#0, %p#1] : memref<64x64xf16, 3>
  return %v : f16
}
