// Multicast copies in a marked loop (docs/pipelining.md, "Multicast slots"):
// a copy with collective_axes over N > 1 CTAs of the kernel's cluster fills
// each CTA's slot from all N CTAs of its group (each issues its slice with a
// multicast mask), on the barrier at the same offset in every CTA. What makes
// these loops different from tests/pipeline/tma.mlir:
// - each slot's barrier expects the bytes that land in this CTA, from every
//   peer: the whole tile (expect_tx 8192 for a 16x128 f32 tile, multicast in
//   2 or 4 slices), proved by the analysis before the rewrite; a copy of the
//   CTA's own in the same loop adds its own bytes (2048) on the same barrier;
// - a refill waits until every CTA of the cluster has left the slot: a
//   fence.proxy.async, then a cluster barrier (barrier.cluster.arrive, wait)
//   where the block schedule has gpu.barrier;
// - the barriers are initialised at the kernel's entry with
//   fence.mbarrier_init.release.cluster and a cluster barrier each, before any
//   peer can multicast into them;
// - a cluster barrier after the loop (after a wgmma.wait_group 0 when wgmma
//   consumers stay in flight), so that no CTA leaves, or enters the loop again,
//   while a peer's copies still land in its slots or its consumers still read.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-pipeline | acopy-opt --split-input-file --acopy-verify
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a sm_90a sm_90a sm_90a sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// A 2x1x1 cluster, collective_axes = ["x"], S = 3: 3 barriers of 1 arrival;
// the prologue's copies multicast too; in the loop the refill follows a
// cluster barrier and no block barrier; after the loop, a cluster barrier
// before the tile count is stored.
// CHECK-LABEL: gpu.func @mc_x
// CHECK-COUNT-3: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64}
// CHECK: gpu.barrier
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {collective_axes = ["x"], oob_mode = "promise_in_bounds"}
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {collective_axes = ["x"], oob_mode = "promise_in_bounds"}
// CHECK: scf.for %{{.+}} iter_args(%[[K:.+]] = %{{.+}}, %{{.+}} = %{{.+}}, %[[BIT:.+]] = %{{.+}}) -> (index, index, i1)
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: %[[MORE:.+]] = arith.cmpi slt, %[[K]], %{{.+}}
// CHECK-NEXT: scf.if %[[MORE]]
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {collective_axes = ["x"], oob_mode = "promise_in_bounds"}
// CHECK-NOT: gpu.barrier
// CHECK: acopy.barrier_wait %{{.+}}, %[[BIT]]
// CHECK-NOT: gpu.barrier
// CHECK: } {acopy.pipelined = {stages = 3 : i64}}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: memref.store %{{.+}} : memref<1xi64, 3>
// CHECK-NEXT: gpu.return

// (ptxas wants sm_90a for .multicast::cluster: on sm_90 it warns that the
// feature may be slow on future chips.)
// PTX: .entry mc_x(
// PTX: .reqnctapercluster 2, 1, 1
// PTX-COUNT-3: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.relaxed;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mov.b32 %r{{[0-9]+}}, 8192;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%[[BAR:rd[0-9]+]]], %r{{[0-9]+}};
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%[[BAR]]], %rs{{[0-9]+}};
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: ret;

gpu.module @mc_x [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_x(%src: memref<4096x128xf32>, %out: memref<2x4096x128xf32>, %n: index) workgroup(%tile: memref<16x128xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    // expected-remark@+1 {{acopy.pipeline: 3 stages, TMA on sm_90a; 3 slots of 8192 bytes (128-byte aligned) for memref<16x128xf32, 3>; multicast in a 2x1x1 cluster: 2 CTAs fill each slot of memref<16x128xf32, 3> (2 slices of 4096 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 3 mbarriers of 1 arrival, parity (n / 3) & 1 for the n-th tile; 24608 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", collective_axes = ["x"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%rank, %row, %tid] : memref<2x4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// A 2x2x1 cluster: tile a multicast over all 4 CTAs (mask 0b1111), tile b a
// copy of each CTA's own, S = 2. Both copies arrive on the slot's barrier
// (2 arrivals), which expects 8192 bytes from a (4 slices of 2048, one from
// each CTA) and 2048 from b.
// CHECK-LABEL: gpu.func @mc_xy
// CHECK-COUNT-2: acopy.barrier_init %{{.+}} {arrival_count = 2 : i64}
// CHECK: scf.for
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {collective_axes = ["x", "y"], oob_mode = "promise_in_bounds"}
// CHECK: acopy.copy_gmem_to_smem %arg1[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {oob_mode = "promise_in_bounds"}
// CHECK: } {acopy.pipelined = {stages = 2 : i64}}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait

// PTX: .entry mc_xy(
// PTX: .reqnctapercluster 2, 2, 1
// PTX: mov.b32 %r{{[0-9]+}}, 8192;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%[[BAR:rd[0-9]+]]], %r{{[0-9]+}};
// PTX: complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%[[BAR]]], %rs{{[0-9]+}};
// PTX: mov.b32 %r{{[0-9]+}}, 2048;
// PTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%[[BAR]]], %r{{[0-9]+}};
// PTX-NOT: multicast
// PTX: complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%[[BAR]]];

gpu.module @mc_xy [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_xy(%a: memref<4096x128xf32>, %b: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%ta: memref<16x128xf32, 3>, %tb: memref<4x128xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    // expected-remark@+1 {{acopy.pipeline: 2 stages, TMA on sm_90a; 2 slots of 8192 bytes (128-byte aligned) for memref<16x128xf32, 3>, 2 slots of 2048 bytes (128-byte aligned) for memref<4x128xf32, 3>; multicast in a 2x2x1 cluster: 4 CTAs fill each slot of memref<16x128xf32, 3> (4 slices of 2048 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 2 mbarriers of 2 arrivals, parity (n / 2) & 1 for the n-th tile; 20504 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      %rowb = arith.muli %i, %c4 : index
      acopy.copy_gmem_to_smem %a[%row, %c0] -> %ta {oob_mode = "promise_in_bounds", collective_axes = ["x", "y"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
      acopy.copy_gmem_to_smem %b[%rowb, %c0] -> %tb {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<4x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %u = memref.load %ta[%c0, %tid] : memref<16x128xf32, 3>
      %v = memref.load %tb[%c0, %tid] : memref<4x128xf32, 3>
      %s = arith.addf %u, %v : f32
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}

// -----

// Entered again from an outer loop (a persistent kernel), with
// groups along y of a 2x2x1 cluster: the cluster barrier after each entry
// orders every CTA's consumers of that entry before any peer's prologue
// refills of the next one.
// CHECK-LABEL: gpu.func @mc_outer
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: } {acopy.pipelined = {stages = 2 : i64}}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: memref.store %{{.+}} : memref<1xi64, 3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// PTX: .entry mc_outer(
// PTX: .reqnctapercluster 2, 2, 1

gpu.module @mc_outer [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_outer(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %tiles: index, %n: index) workgroup(%tile: memref<16x128xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    scf.for %t = %c0 to %tiles step %c1 {
      %first = arith.muli %t, %n : index
      // expected-remark@+1 {{acopy.pipeline: 2 stages, TMA on sm_90a; 2 slots of 8192 bytes (128-byte aligned) for memref<16x128xf32, 3>; multicast in a 2x2x1 cluster: 2 CTAs fill each slot of memref<16x128xf32, 3> (2 slices of 4096 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 2 mbarriers of 1 arrival, parity (n / 2) & 1 for the n-th tile; 16408 bytes of shared memory}}
      scf.for %i = %c0 to %n step %c1 {
        %j = arith.addi %first, %i : index
        %row = arith.muli %j, %c16 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", collective_axes = ["y"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<16x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 2 : i64}}
    }
    gpu.return
  }
}

// -----

// wgmma consumers that stay in flight (docs/pipelining.md, "Asynchronous
// consumers") with B multicast over a 2x1x1 cluster: the refill after the
// body's wgmma.wait_group 1 passes a cluster barrier, and after the loop every
// wgmma group is waited for before the cluster barrier (a peer's next refill
// must not overwrite a slot a wgmma of this CTA still reads). The slots pass
// 48 KiB and move to dynamic shared memory, at the same offsets in every CTA.
// CHECK-LABEL: gpu.func @mc_wgmma
// CHECK-SAME: acopy.dynamic_shared_memory
// CHECK: scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: acopy.copy_gmem_to_smem %{{.+}} {oob_mode = "promise_in_bounds", swizzle = 128 : i64}
// CHECK: acopy.copy_gmem_to_smem %{{.+}} {collective_axes = ["x"], oob_mode = "promise_in_bounds", swizzle = 128 : i64}
// CHECK: } {acopy.pipelined = {stages = 3 : i64}}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait

// PTX: .entry mc_wgmma(
// PTX: .reqnctapercluster 2, 1, 1
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;

gpu.module @mc_wgmma [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_wgmma(%src: memref<128x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
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
    // expected-remark@+1 {{acopy.pipeline: 3 stages, TMA on sm_90a; 3 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>, 3 slots of 8192 bytes (1024-byte aligned) for memref<64x64xf16, 3>; refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 2 tiles ahead; multicast in a 2x1x1 cluster: 2 CTAs fill each slot of memref<64x64xf16, 3> (2 slices of 4096 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 3 mbarriers of 2 arrivals, parity (n / 3) & 1 for the n-th tile; 49184 bytes of shared memory}}
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x512xf16> -> memref<64x64xf16, 3>
      acopy.copy_gmem_to_smem %src[%c64, %col] -> %tb {oob_mode = "promise_in_bounds", swizzle = 128 : i64, collective_axes = ["x"]} : memref<128x512xf16> -> memref<64x64xf16, 3>
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

// The native TMA form with a multicast copy: the pass replaces the user's
// barrier (and its init, whose cluster barrier the kernel's entry has for the
// pass's own) as for any native loop, and orders the refills as above.
// CHECK-LABEL: gpu.func @mc_native
// CHECK-COUNT-2: acopy.barrier_init %{{.+}} {arrival_count = 1 : i64}
// CHECK-NOT: acopy.barrier_init
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: acopy.copy_gmem_to_smem %arg0[%{{.+}}] -> %{{.+}} barrier(%{{.+}}) {collective_axes = ["x"], oob_mode = "promise_in_bounds"}

// PTX: .entry mc_native(

gpu.module @mc_native [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_native(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<16x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    // expected-remark@+1 {{acopy.pipeline: 2 stages, TMA on sm_90a; 2 slots of 8192 bytes (128-byte aligned) for memref<16x128xf32, 3>; multicast in a 2x1x1 cluster: 2 CTAs fill each slot of memref<16x128xf32, 3> (2 slices of 4096 bytes; its barrier expects 8192 bytes), a cluster barrier before each refill and after the loop; 2 mbarriers of 1 arrival, parity (n / 2) & 1 for the n-th tile, replacing the loop's own barrier; 16408 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", collective_axes = ["x"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
      %phase = arith.remui %i, %c2 : index
      %parity = arith.index_cast %phase : index to i1
      acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
      %v = memref.load %tile[%c0, %tid] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
