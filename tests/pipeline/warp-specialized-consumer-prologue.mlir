// Code only the consumers run, before a warp-specialized loop (docs/pipelining.md,
// "Code only the consumers run"): the producer needs only the values its copies and
// the loop's bounds read, so an op before the loop that does more than compute a value
// (a barrier, a TMA load of a tile only the consumers read, its wait, a wgmma that
// starts the loop's accumulator, as FlashAttention-3's S(0)) runs on the consumers
// alone. In a persistent loop (@persistent) the producer's copy of its body leaves
// them out; at the kernel's top level (@top) the pass moves them into the consumers'
// region, after the consumers' setmaxnreg. Before the split, and in the producer's
// copy, only value computations stay. gpu.barrier there becomes the consumers' named
// barrier. Both kernels go through ptxas.
// RUN: acopy-opt %s --split-input-file --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-pipeline 2>/dev/null | acopy-opt --split-input-file --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a sm_90a

// CHECK-LABEL: gpu.func @persistent
// The producer's copy of the persistent loop: value computations and its copies only.
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: nvvm.barrier id
// CHECK-NOT: acopy.copy_gmem_to_smem %arg1
// CHECK: arith.index_cast %{{.+}} : index to i32
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: acopy.copy_gmem_to_smem %arg1
// CHECK: acopy.copy_gmem_to_smem %arg0
// CHECK-NOT: nvvm.wgmma
// CHECK: } {acopy.issuers = array<i32: 128, 1>}
// The consumers run the whole persistent body: the prologue, then the loop, whose
// accumulator starts at the prologue's wgmma.
// CHECK: scf.if %{{.+}} {
// CHECK: scf.for
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK-NEXT: acopy.copy_gmem_to_smem %arg1[%{{.+}}, %{{.+}}] -> %arg4 barrier(%arg5 : memref<1xi64, 3>)
// CHECK-NEXT: acopy.barrier_wait %arg5, %{{.+}} : memref<1xi64, 3>
// CHECK: %[[S0:.+]] = nvvm.wgmma.mma_async
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %[[S0]],
// CHECK: } {acopy.consumers = array<i32: 0, 128>}

// CHECK-LABEL: gpu.func @top
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: acopy.copy_gmem_to_smem %arg1
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: acopy.copy_gmem_to_smem %arg1
// CHECK: } {acopy.issuers = array<i32: 256, 1>}
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NOT: scf.for
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK-NEXT: acopy.copy_gmem_to_smem %arg1[%{{.+}}, %{{.+}}] -> %arg4 barrier(%arg5 : memref<1xi64, 3>)
// CHECK-NEXT: acopy.barrier_wait %arg5, %{{.+}} : memref<1xi64, 3>
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: %[[S0:.+]] = nvvm.wgmma.mma_async
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %[[S0]],
// CHECK: } {acopy.consumers = array<i32: 0, 256>}

gpu.module @persistent [#nvvm.target<chip = "sm_90a">] {
  gpu.func @persistent(%src: memref<64x512xf16>, %q: memref<64x64xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tq: memref<64x64xf16, 3>, %qbar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    acopy.barrier_init %qbar {arrival_count = 1 : i64} : memref<1xi64, 3>
    scf.for %tt = %c0 to %c2 step %c1 {
      %tti = arith.index_cast %tt : index to i32
      %par = arith.trunci %tti : i32 to i1
      gpu.barrier
      acopy.copy_gmem_to_smem %q[%c0, %c0] -> %tq barrier(%qbar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<64x64xf16> -> memref<64x64xf16, 3>
      acopy.barrier_wait %qbar, %par : memref<1xi64, 3>
      nvvm.wgmma.fence.aligned
      %dq = acopy.wgmma_descriptor %tq[%c0] : memref<64x64xf16, 3>
      %s0 = nvvm.wgmma.mma_async %dq, %dq, %zero, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %s0) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
        %col = arith.muli %kt, %c64 : index
        acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<64x512xf16> -> memref<64x64xf16, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        nvvm.wgmma.fence.aligned
        %da = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
        %a1 = nvvm.wgmma.mma_async %dq, %da, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        scf.yield %a1 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      } {acopy.pipeline = {stages = 3 : i64, producer = "warpgroup"}}
      %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      memref.store %v0, %out[%tt, %c0] : memref<64x64xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @top [#nvvm.target<chip = "sm_90a">] {
  gpu.func @top(%src: memref<64x512xf16>, %q: memref<64x64xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tq: memref<64x64xf16, 3>, %qbar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %par = arith.constant false
    acopy.barrier_init %qbar {arrival_count = 1 : i64} : memref<1xi64, 3>
    gpu.barrier
    acopy.copy_gmem_to_smem %q[%c0, %c0] -> %tq barrier(%qbar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<64x64xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %qbar, %par : memref<1xi64, 3>
    nvvm.wgmma.fence.aligned
    %dq = acopy.wgmma_descriptor %tq[%c0] : memref<64x64xf16, 3>
    %s0 = nvvm.wgmma.mma_async %dq, %dq, %zero, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %s0) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<64x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %da = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %dq, %da, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield %a1 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warpgroup"}}
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
