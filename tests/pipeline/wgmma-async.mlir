// Asynchronous consumers (docs/pipelining.md, "Asynchronous consumers"): wgmma
// read a pipelined tile through acopy.wgmma_descriptor and the body leaves N
// groups in flight with its own nvvm.wgmma.wait.group.sync.aligned N. A slot is
// refilled only after the wgmma that read it completed: the refill moves after
// that wait (a fence.proxy.async and a barrier first), into the slot of tile
// k - N, with D = S - N tiles ahead (the prologue issues D). The descriptors
// read slot views the pass proves 1024-byte aligned.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-pipeline | acopy-opt --split-input-file --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a sm_90a sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// S = 3, N = 1: D = 2 tiles ahead, the refill guard k < T - 2 = 6.
// CHECK-LABEL: gpu.func @one_in_flight
// CHECK-COUNT-4: acopy.copy_gmem_to_smem
// CHECK-NOT: acopy.copy_gmem_to_smem
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %[[K:.+]] = %{{.+}}, %[[SLOT:.+]] = %{{.+}}, %[[BIT:.+]] = %{{.+}})
// CHECK: acopy.barrier_wait %{{.+}}, %[[BIT]]
// CHECK-NOT: acopy.copy_gmem_to_smem
// CHECK: %[[VIEW:.+]] = memref.view
// CHECK-NEXT: memref.assume_alignment %[[VIEW]], 1024
// CHECK: acopy.wgmma_descriptor
// CHECK-NOT: acopy.copy_gmem_to_smem
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: %[[MORE:.+]] = arith.cmpi slt, %[[K]], %c6
// CHECK-NEXT: scf.if %[[MORE]]
// CHECK: arith.addi %[[SLOT]], %c2
// CHECK-COUNT-2: acopy.copy_gmem_to_smem
// CHECK: scf.yield
// CHECK: {acopy.pipelined = {stages = 3 : i64}}

// S = 2, N = 0: the wgmma complete in their iteration, D = S = 2 tiles ahead.
// CHECK-LABEL: gpu.func @none_in_flight
// CHECK-COUNT-4: acopy.copy_gmem_to_smem
// CHECK: scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi slt, %{{.+}}, %c6
// CHECK: {acopy.pipelined = {stages = 2 : i64}}

// stages = "auto" with N = 1: the 16 KiB per iteration want 1 + 3 stages for
// sm_90's 48 KiB in flight, and one more for the busy slot.
// CHECK-LABEL: gpu.func @auto_in_flight
// CHECK: {acopy.pipelined = {stages = 5 : i64}}

// PTX: .entry one_in_flight(
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync 0;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global

gpu.module @one_in_flight [#nvvm.target<chip = "sm_90a">] {
  gpu.func @one_in_flight(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
    // expected-remark@+1 {{acopy.pipeline: 3 stages, TMA on sm_90a; 3 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>, 3 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>; refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 2 tiles ahead; 3 mbarriers of 2 arrivals, parity (n / 3) & 1 for the n-th tile; 49184 bytes of shared memory}}
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
    } {acopy.pipeline = {stages = 3 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @none_in_flight [#nvvm.target<chip = "sm_90a">] {
  gpu.func @none_in_flight(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
    // expected-remark@+1 {{acopy.pipeline: 2 stages, TMA on sm_90a; 2 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>, 2 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>; refills after the body's wgmma.wait_group 0 (0 wgmma groups in flight), 2 tiles ahead; 2 mbarriers of 2 arrivals, parity (n / 2) & 1 for the n-th tile; 32792 bytes of shared memory}}
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
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield %a4 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = {stages = 2 : i64}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @auto_in_flight [#nvvm.target<chip = "sm_90a">] {
  gpu.func @auto_in_flight(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
    // expected-remark@+1 {{acopy.pipeline: 5 stages (auto: enough; 49152 bytes in flight for the 49152 bytes sm_90a wants), TMA on sm_90a; 5 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>, 5 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>; refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 4 tiles ahead; 5 mbarriers of 2 arrivals, parity (n / 5) & 1 for the n-th tile; 81968 bytes of shared memory}}
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
    } {acopy.pipeline = {stages = "auto"}}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
