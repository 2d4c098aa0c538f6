// A warp-specialized wgmma loop (one group left in flight) inside a persistent loop:
// the last tile of each entry is released after the loop, once every wgmma group
// has completed (a wait_group 0 the pass inserts), so the next entry's producer,
// whose phases continue, never waits for a release that does not come.
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=PRODUCER
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=CARRIED
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a sm_90a

// CHECK: %[[LOOP:[0-9]+]]:4 = scf.for
// CHECK: } {acopy.pipelined = {stages = 3 : i64}}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[ISSUED:.*]] = arith.cmpi sge, %[[LOOP]]#1, %{{.*}} : index
// CHECK-NEXT: scf.if %[[ISSUED]] {
// The tile one back from the loop's next slot: slot + (S - 1) mod S = slot + 2.
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2 : index
// CHECK-NEXT: arith.addi %[[LOOP]]#2, %[[TWO]] : index
// CHECK: nvvm.mbarrier.arrive
// CHECK: }
// CHECK: scf.yield %[[LOOP]]#2, %[[LOOP]]#3 : index, i1
// The producer's loops: the persistent loop's clone, then the marked loop's bounds
// (constants of the kernel, not values of the persistent loop).
// PRODUCER: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[K:.+]] = %{{.+}}, %[[PH:.+]] = %false) -> (index, i1) {
// PRODUCER-NEXT: %[[LO:.+]] = arith.constant 0 : index
// PRODUCER-NEXT: %[[HI:.+]] = arith.constant 8 : index
// PRODUCER-NEXT: %[[ST:.+]] = arith.constant 1 : index
// PRODUCER-NEXT: scf.for %{{.+}} = %[[LO]] to %[[HI]] step %[[ST]] iter_args(%{{.+}} = %[[K]], %{{.+}} = %[[PH]]) -> (index, i1) {
// With two carried values the counters come after both: the trip count is result 2
// and the next slot result 3.
// CARRIED: @ws_two_carried
// CARRIED: %[[LOOP:[0-9]+]]:5 = scf.for
// CARRIED: } {acopy.pipelined = {stages = 3 : i64}}
// CARRIED-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CARRIED: arith.cmpi sge, %[[LOOP]]#2, %{{.*}} : index
// CARRIED: %[[TWO:.+]] = arith.constant 2 : index
// CARRIED-NEXT: arith.addi %[[LOOP]]#3, %[[TWO]] : index
// CARRIED: nvvm.mbarrier.arrive

gpu.module @ws_one_in_flight [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ws_one_in_flight(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
    scf.for %tt = %c0 to %c2 step %c1 {
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
      } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
      nvvm.wgmma.wait.group.sync.aligned 0
      %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    }
    gpu.return
  }
}

gpu.module @ws_two_carried [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ws_two_carried(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
    scf.for %tt = %c0 to %c2 step %c1 {
      %acc:2 = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero, %n0 = %c0) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, index) {
        %n1 = arith.addi %n0, %c1 : index
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
        scf.yield %a4, %n1 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, index
      } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
      nvvm.wgmma.wait.group.sync.aligned 0
      %v0 = llvm.extractvalue %acc#0[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    }
    gpu.return
  }
}
