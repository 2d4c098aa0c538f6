// acopy.issuers (docs/dialect.md; what acopy-pipeline puts on a warp-specialized
// loop's producer region) must be array<i32: first, count> with count >= 1: a
// malformed one is an error at each copy inside it, from acopy-verify and
// acopy-lower alike, never a crash or a copy issued by the wrong threads.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx 2>&1 | FileCheck %s
// CHECK-COUNT-4: error: 'acopy.issuers' must be array<i32: first, count>

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %out: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.if %flag {
      // expected-error @+1 {{'acopy.issuers' must be array<i32: first, count> with first >= 0 and count >= 1, got array<i32: 0>}}
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = array<i32: 0>}
    acopy.barrier_wait %bar, %true : memref<1xi64, 3>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %out: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.if %flag {
      // expected-error @+1 {{'acopy.issuers' must be array<i32: first, count> with first >= 0 and count >= 1, got array<i32: 0, 0>}}
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = array<i32: 0, 0>}
    acopy.barrier_wait %bar, %true : memref<1xi64, 3>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %out: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.if %flag {
      // expected-error @+1 {{'acopy.issuers' must be array<i32: first, count> with first >= 0 and count >= 1, got 5 : i64}}
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = 5 : i64}
    acopy.barrier_wait %bar, %true : memref<1xi64, 3>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %out: memref<64x128xf32>, %flag: i1) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.if %flag {
      // expected-error @+1 {{'acopy.issuers' must be array<i32: first, count> with first >= 0 and count >= 1, got array<i32: -1, 1>}}
      acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    } {acopy.issuers = array<i32: -1, 1>}
    acopy.barrier_wait %bar, %true : memref<1xi64, 3>
    gpu.return
  }
}
