// Multicast copies in a warp-specialized loop (docs/pipelining.md, "Multicast
// slots with a producer warp"): each CTA's producer warp issues its slice of
// the window, multicast to its group, on the full barrier at the same offset in
// every member; a refill writes the slot in every CTA of the group, so each
// empty barrier counts the releases of the consumers of all N CTAs (N x B
// arrivals). What makes these loops different from tests/pipeline/multicast.mlir
// (the block schedule, a cluster barrier per refill) and from
// tests/pipeline/warp-specialized.mlir (a release of the CTA's own):
// - empty[s] is initialised for N x 128 arrivals (256 for a 2x1x1 group, 512
//   for 2x2x1);
// - a consumer thread arrives on its own empty[s]; then its warp meets
//   (bar.warp.sync) and lane 0 arrives with a count of 32 on the empty[s] of
//   every other member (mapa, mbarrier.arrive.shared::cluster, the default
//   .release.cta: no cluster-wide fence; one instruction predicated on lane 0
//   and on the member being a peer, no branch),
//   so no producer of the group refills the slot before every CTA has left it;
// - no cluster barrier in the loop; one before the kernel returns, after both
//   roles' regions, so that no CTA leaves while a peer still writes into its
//   slots or arrives on its barriers;
// - the block grows by the producer warp, and the PTX bounds it (.maxntid).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-pipeline | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK-LABEL: gpu.func @mc_ws
// CHECK-SAME: known_block_size = array<i32: 160, 1, 1>
// CHECK-COUNT-3: acopy.barrier_init %{{.+}} {arrival_count = 256 : i64}
// CHECK: acopy.copy_gmem_to_smem {{.*}}collective_axes = ["x"]
// CHECK: nvvm.mbarrier.arrive %[[EMPTY:[0-9]+]] : !llvm.ptr<3> -> i64
// CHECK-NEXT: %[[MASK:.+]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[MASK]] : i32
// CHECK: %[[LANE:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %{{.+}} = arith.constant 0 : index
// CHECK-NEXT: %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %{{.+}} : index
// CHECK: %[[RANK:.+]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: nvvm.read.ptx.sreg.cluster.ctaid.x : i32
// Each member's arrive is predicated on lane 0 (lane = thread mod 32 == 0) and
// on the member being a peer (the CTA's index in the group != the member's): no
// branch. Member 0, then member 1.
// CHECK: %[[INDEX:.+]] = arith.addi %c0_i32, %{{.+}} : i32
// CHECK: %[[M0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NOT0:.+]] = arith.cmpi ne, %[[INDEX]], %[[M0]] : i32
// CHECK-NEXT: %[[PEER:.+]] = arith.andi %[[FIRST]], %[[NOT0]] : i1
// CHECK: %[[REMOTE:.+]] = nvvm.mapa %[[EMPTY]], %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.inline_ptx "mbarrier.arrive.shared::cluster.b64 _, [$0], 32;" ro(%[[REMOTE]] : !llvm.ptr<7>), predicate = %[[PEER]]
// CHECK: %[[M1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NOT1:.+]] = arith.cmpi ne, %[[INDEX]], %[[M1]] : i32
// CHECK-NEXT: %[[PEER1:.+]] = arith.andi %[[FIRST]], %[[NOT1]] : i1
// CHECK: nvvm.mapa
// CHECK-NEXT: nvvm.inline_ptx "mbarrier.arrive.shared::cluster.b64 _, [$0], 32;" ro(%{{.+}} : !llvm.ptr<7>), predicate = %[[PEER1]]
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: acopy.pipelined
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return

// PTX-LABEL: .entry mc_ws(
// PTX: .maxntid 160, 1, 1
// PTX: .reqnctapercluster 2, 1, 1
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mbarrier.arrive.shared.b64
// PTX-NEXT: bar.warp.sync -1;
// PTX-NEXT: mapa.shared::cluster.u64
// PTX: @%p{{[0-9]+}} mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], 32;
// PTX: mapa.shared::cluster.u64
// PTX: @%p{{[0-9]+}} mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], 32;
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX-NEXT: ret;

gpu.module @mc_ws [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_ws(%src: memref<4096x128xf32>, %out: memref<2x4096x128xf32>, %n: index) workgroup(%tile: memref<16x128xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>, gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    // expected-remark@+1 {{acopy.pipeline: 3 stages, TMA on sm_90a; 3 slots of 8192 bytes (128-byte aligned) for memref<16x128xf32, 3>; a producer warp issues the copies (threads 128..160), the other threads release each slot on an empty barrier; multicast in a 2x1x1 cluster: 2 CTAs fill each slot of memref<16x128xf32, 3> (2 slices of 4096 bytes; its barrier expects 8192 bytes), each CTA's consumers release each slot on the empty barriers of all 2 CTAs of the group, a cluster barrier before the kernel returns; 3 mbarriers of 1 arrival, parity (n / 3) & 1 for the n-th tile; 24624 bytes of shared memory}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {collective_axes = ["x"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %r = arith.divui %tid, %c16 : index
      %cidx = arith.remui %tid, %c16 : index
      %col = arith.muli %cidx, %c16 : index
      %v = memref.load %tile[%r, %col] : memref<16x128xf32, 3>
      %orow = arith.addi %row, %r : index
      memref.store %v, %out[%rank, %orow, %col] : memref<2x4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

// A 2x2x1 cluster, collective_axes = ["x", "y"]: a group of 4, ranks
// first + 0, 1, 2, 3; each lane 0 arrives on the 3 members other than its CTA.
// CHECK-LABEL: gpu.func @mc_ws4
// CHECK-COUNT-3: acopy.barrier_init %{{.+}} {arrival_count = 512 : i64}
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-4: nvvm.mapa
// CHECK-NOT: nvvm.mapa
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return

// PTX-LABEL: .entry mc_ws4(
// PTX: .reqnctapercluster 2, 2, 1
// PTX: mbarrier.arrive.shared::cluster.b64
// PTX: barrier.cluster.arrive;

gpu.module @mc_ws4 [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mc_ws4(%src: memref<4096x128xf32>, %out: memref<2x4096x128xf32>, %n: index) workgroup(%tile: memref<16x128xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>, gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tid = gpu.thread_id x
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    // expected-remark@+1 {{4 CTAs fill each slot of memref<16x128xf32, 3> (4 slices of 2048 bytes; its barrier expects 8192 bytes), each CTA's consumers release each slot on the empty barriers of all 4 CTAs of the group}}
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {collective_axes = ["x", "y"]} : memref<4096x128xf32> -> memref<16x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %r = arith.divui %tid, %c16 : index
      %cidx = arith.remui %tid, %c16 : index
      %col = arith.muli %cidx, %c16 : index
      %v = memref.load %tile[%r, %col] : memref<16x128xf32, 3>
      %orow = arith.addi %row, %r : index
      memref.store %v, %out[%rank, %orow, %col] : memref<2x4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}
