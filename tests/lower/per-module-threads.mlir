// acopy-lower lowers the gpu.modules that hold acopy ops on MLIR's thread pool,
// each in a copy of its own, and leaves the others alone: here two of three.
// The output is the one a single thread makes. A shard-4 mutation survivor
// (2026-12-03: every gpu.module counted as holding acopy ops) copied and lowered
// the plain one too; only the driver's trace tells them apart.
// RUN: acopy-opt %s --acopy-lower --debug 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// DEBUG: lowering per gpu.module on MLIR's thread pool modules=2
// DEBUG-NOT: the per-module run is void
// RUN: acopy-opt %s --acopy-lower -o %t.threads.mlir
// RUN: acopy-opt %s --acopy-lower --mlir-disable-threading -o %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir
// CHECK-LABEL: gpu.module @a
// CHECK: nvvm.cp.async.shared.global
// CHECK-LABEL: gpu.module @plain
// CHECK-NEXT: gpu.func @k() kernel {
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.module @b
// CHECK: nvvm.cp.async.shared.global
gpu.module @a [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<64x128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
gpu.module @plain [#nvvm.target<chip = "sm_80">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
gpu.module @b [#nvvm.target<chip = "sm_86">] {
  gpu.func @k(%src: memref<64x128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<64x128xf32> -> memref<8x128xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
