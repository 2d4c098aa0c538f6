// A wgmma K loop nested in a marked loop's body (docs/pipelining.md, "Asynchronous
// consumers"): its descriptors sit in an inner scf.for, which P4 allows (a
// descriptor only computes from its slot), and they are asynchronous consumers all
// the same: the block schedule refills after the body's wgmma.wait_group 1, and the
// producer-warp schedule releases each slot one tile late. Without the nested
// descriptors counted, the slot of a wgmma still in flight would be refilled.
// RUN: acopy-opt %s --split-input-file --acopy-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a sm_90a

// CHECK: remark: acopy.pipeline: 3 stages, TMA on sm_90a; {{.*}}; refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 2 tiles ahead;
// CHECK: remark: acopy.pipeline: 3 stages, TMA on sm_90a; {{.*}}; the consumers release each slot after the body's wgmma.wait_group 1 (1 wgmma group in flight); a producer warp issues the copies

gpu.module @nd [#nvvm.target<chip = "sm_90a">] {
  gpu.func @nd(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %a4 = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %a0) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
        %off = arith.muli %k, %c16 : index
        %da = acopy.wgmma_descriptor %ta[%off] : memref<64x64xf16, 3>
        %db = acopy.wgmma_descriptor %tb[%off] : memref<64x64xf16, 3>
        %an = nvvm.wgmma.mma_async %da, %db, %a, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
        scf.yield %an : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      }
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 3 : i64, producer = "block"}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @nd [#nvvm.target<chip = "sm_90a">] {
  gpu.func @nd(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %a4 = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %a0) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
        %off = arith.muli %k, %c16 : index
        %da = acopy.wgmma_descriptor %ta[%off] : memref<64x64xf16, 3>
        %db = acopy.wgmma_descriptor %tb[%off] : memref<64x64xf16, 3>
        %an = nvvm.wgmma.mma_async %da, %db, %a, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
        scf.yield %an : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      }
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
