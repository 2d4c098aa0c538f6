// Rules P14-P16 (docs/verification.md): a marked loop whose consumers read a pipelined
// tile with wgmma through acopy.wgmma_descriptor must wait for them in its body (P14),
// may not carry a descriptor out of its iteration (P15), and needs more stages than the
// wgmma groups it leaves in flight (P16). Each error also stops acopy-pipeline.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-4: error:
// CHECK-NOT: error:

gpu.module @no_wait [#nvvm.target<chip = "sm_90a">] {
  gpu.func @no_wait(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    // RULE: P14
    // expected-error @+1 {{a loop marked acopy.pipeline whose consumers read a pipelined tile with wgmma (through acopy.wgmma_descriptor) must wait for them in its body, with a nvvm.wgmma.wait.group.sync.aligned N at the body's top level after the last wgmma: a wgmma reads its slot until that wait, and the pass refills the slot after it}}
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %da0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %db0 = acopy.wgmma_descriptor %tb[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %da0, %db0, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da1 = acopy.wgmma_descriptor %ta[%c16] : memref<64x64xf16, 3>
      %db1 = acopy.wgmma_descriptor %tb[%c16] : memref<64x64xf16, 3>
      %a2 = nvvm.wgmma.mma_async %da1, %db1, %a1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da2 = acopy.wgmma_descriptor %ta[%c32] : memref<64x64xf16, 3>
      %db2 = acopy.wgmma_descriptor %tb[%c32] : memref<64x64xf16, 3>
      %a3 = nvvm.wgmma.mma_async %da2, %db2, %a2, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da3 = acopy.wgmma_descriptor %ta[%c48] : memref<64x64xf16, 3>
      %db3 = acopy.wgmma_descriptor %tb[%c48] : memref<64x64xf16, 3>
      %a4 = nvvm.wgmma.mma_async %da3, %db3, %a3, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 3 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @escapes [#nvvm.target<chip = "sm_90a">] {
  gpu.func @escapes(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %c0_i64 = arith.constant 0 : i64
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %acc:2 = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero, %d = %c0_i64) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, i64) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
    // RULE: P15
    // expected-error @+1 {{a wgmma descriptor of a pipelined tile is yielded to the next iteration: the pass moves the tile to a different slot every iteration, so a descriptor is good only in the iteration that made it}}
      %da0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %db0 = acopy.wgmma_descriptor %tb[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %da0, %db0, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da1 = acopy.wgmma_descriptor %ta[%c16] : memref<64x64xf16, 3>
      %db1 = acopy.wgmma_descriptor %tb[%c16] : memref<64x64xf16, 3>
      %a2 = nvvm.wgmma.mma_async %da1, %db1, %a1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da2 = acopy.wgmma_descriptor %ta[%c32] : memref<64x64xf16, 3>
      %db2 = acopy.wgmma_descriptor %tb[%c32] : memref<64x64xf16, 3>
      %a3 = nvvm.wgmma.mma_async %da2, %db2, %a2, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da3 = acopy.wgmma_descriptor %ta[%c48] : memref<64x64xf16, 3>
      %db3 = acopy.wgmma_descriptor %tb[%c48] : memref<64x64xf16, 3>
      %a4 = nvvm.wgmma.mma_async %da3, %db3, %a3, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %a4, %da0 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, i64
    } {acopy.pipeline = {stages = 3 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc#0[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @too_few [#nvvm.target<chip = "sm_90a">] {
  gpu.func @too_few(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    // RULE: P16
    // expected-error @+1 {{the loop's body leaves 1 wgmma group(s) in flight with nvvm.wgmma.wait.group.sync.aligned 1, and each holds the slot it reads until it completes, so stages = 1 leaves no slot to refill: use stages >= 2}}
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %da0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %db0 = acopy.wgmma_descriptor %tb[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %da0, %db0, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da1 = acopy.wgmma_descriptor %ta[%c16] : memref<64x64xf16, 3>
      %db1 = acopy.wgmma_descriptor %tb[%c16] : memref<64x64xf16, 3>
      %a2 = nvvm.wgmma.mma_async %da1, %db1, %a1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da2 = acopy.wgmma_descriptor %ta[%c32] : memref<64x64xf16, 3>
      %db2 = acopy.wgmma_descriptor %tb[%c32] : memref<64x64xf16, 3>
      %a3 = nvvm.wgmma.mma_async %da2, %db2, %a2, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da3 = acopy.wgmma_descriptor %ta[%c48] : memref<64x64xf16, 3>
      %db3 = acopy.wgmma_descriptor %tb[%c48] : memref<64x64xf16, 3>
      %a4 = nvvm.wgmma.mma_async %da3, %db3, %a3, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 1 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @two_in_flight [#nvvm.target<chip = "sm_90a">] {
  gpu.func @two_in_flight(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    // RULE: P16
    // expected-error @+1 {{the loop's body leaves 2 wgmma group(s) in flight with nvvm.wgmma.wait.group.sync.aligned 2, and each holds the slot it reads until it completes, so stages = 2 leaves no slot to refill: use stages >= 3}}
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %da0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %db0 = acopy.wgmma_descriptor %tb[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %da0, %db0, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da1 = acopy.wgmma_descriptor %ta[%c16] : memref<64x64xf16, 3>
      %db1 = acopy.wgmma_descriptor %tb[%c16] : memref<64x64xf16, 3>
      %a2 = nvvm.wgmma.mma_async %da1, %db1, %a1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da2 = acopy.wgmma_descriptor %ta[%c32] : memref<64x64xf16, 3>
      %db2 = acopy.wgmma_descriptor %tb[%c32] : memref<64x64xf16, 3>
      %a3 = nvvm.wgmma.mma_async %da2, %db2, %a2, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %da3 = acopy.wgmma_descriptor %ta[%c48] : memref<64x64xf16, 3>
      %db3 = acopy.wgmma_descriptor %tb[%c48] : memref<64x64xf16, 3>
      %a4 = nvvm.wgmma.mma_async %da3, %db3, %a3, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 2
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 2 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
