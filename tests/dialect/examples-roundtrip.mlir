// The examples (examples/*.mlir, written in the custom form) print in the
// custom form, and that print parses back to the same bytes.
// RUN: acopy-opt %S/../../examples/tile_copy_sm80.mlir > %t.sm80.first
// RUN: acopy-opt %t.sm80.first > %t.sm80.second
// RUN: diff %t.sm80.first %t.sm80.second
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.first
// RUN: acopy-opt %S/../../examples/tile_copy_sm90.mlir > %t.sm90.first
// RUN: acopy-opt %t.sm90.first > %t.sm90.second
// RUN: diff %t.sm90.first %t.sm90.second
// RUN: FileCheck %s --check-prefix=SM90 < %t.sm90.first

// SM80: acopy.copy_gmem_to_smem %{{.+}}[%{{.+}}, %{{.+}}] -> %{{.+}} {oob_mode = "promise_in_bounds"} : memref<4096x4096xf32> -> memref<64x128xf32, 3>
// SM80-NEXT: acopy.wait_gmem_to_smem {pending = 0 : i64}
// SM80-NOT: "acopy.

// SM90: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64} : memref<1xi64, 3>
// SM90: acopy.copy_gmem_to_smem %{{.+}}[%{{.+}}, %{{.+}}] -> %{{.+}} barrier(%{{.+}} : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x4096xf32> -> memref<64x128xf32, 3>
// SM90-NEXT: acopy.barrier_wait %{{.+}}, %{{.+}} : memref<1xi64, 3>
// SM90: acopy.copy_smem_to_gmem %{{.+}} -> %{{.+}}[%{{.+}}, %{{.+}}] : memref<64x128xf32, 3> -> memref<4096x4096xf32>
// SM90-NEXT: acopy.wait_smem_to_gmem {pending = 0 : i64}
// SM90-NOT: "acopy.
