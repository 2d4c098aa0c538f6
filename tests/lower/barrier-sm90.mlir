// Barriers on sm_90: the wait spins on mbarrier.try_wait.parity, and a kernel
// with a cluster of more than one CTA fences the initialisation for the cluster
// and waits at a cluster barrier, so no peer signals an uninitialised barrier.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// The wait polls the parity the op is given: the kernel argument, widened to
// i32, reaches try_wait.
// CHECK-LABEL: gpu.func @single_cta
// CHECK-SAME: (%[[ARG:.*]]: i1) workgroup(%[[BAR:.*]] : memref<1xi64, 3>)
// Constants are built once, at the top of the kernel.
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// The init and the wait share one barrier pointer (kernel-level values are built once).
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK-NEXT: %[[PTR:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<3>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: nvvm.mbarrier.init %[[PTR]], %[[ONE]] : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.cluster.arrive
// CHECK-NOT: llvm.inttoptr
// CHECK: %[[PARITY:.*]] = arith.extui %[[ARG]] : i1 to i32
// CHECK-NEXT: scf.while
// CHECK-NEXT: %[[DONE:.*]] = nvvm.mbarrier.try_wait %[[PTR]], %[[PARITY]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[AGAIN:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// CHECK-NEXT: scf.condition(%[[AGAIN]])
// CHECK-NOT: nvvm.mbarrier.test.wait
// PTX-LABEL: .entry single_cta(
// PTX-NOT: fence.mbarrier_init
// PTX: ld.param.b8 %[[RS:rs[0-9]+]], [single_cta_param_0];
// PTX: and.b16 %[[BIT:rs[0-9]+]], %[[RS]], 1;
// PTX: setp.ne.b16 %[[SET:p[0-9]+]], %[[BIT]], 0;
// PTX: mbarrier.init.shared.b64 [__wg_single_cta_0], %r{{[0-9]+}};
// PTX: bar.sync 0;
// PTX: selp.b32 %[[PARITY:r[0-9]+]], 1, 0, %[[SET]];
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NEXT: mbarrier.try_wait.parity.shared.b64 %[[READY:p[0-9]+]], [__wg_single_cta_0], %[[PARITY]];
// PTX-NEXT: not.pred %[[NOT:p[0-9]+]], %[[READY]];
// PTX-NEXT: @%[[NOT]] bra [[LOOP]];

// Parity 1, a constant: the wait polls for phase parity 1, not 0.
// CHECK-LABEL: gpu.func @parity_one
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// MLIR names the result of `arith.constant true` %true (then %true_0, ...).
// CHECK: gpu.barrier
// CHECK-NEXT: %[[PARITY:.*]] = arith.extui %{{true(_[0-9]+)?}} : i1 to i32
// CHECK-NEXT: scf.while
// CHECK-NEXT: nvvm.mbarrier.try_wait %[[PTR]], %[[PARITY]] : !llvm.ptr<3>, i32 -> i1
// PTX-LABEL: .entry parity_one(
// PTX: mbarrier.init.shared.b64 [__wg_parity_one_0], %r{{[0-9]+}};
// PTX: mov.b32 %[[ONE:r[0-9]+]], 1;
// PTX-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__wg_parity_one_0], %[[ONE]];

// CHECK-LABEL: gpu.func @cluster_of_two
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: nvvm.mbarrier.init %{{.*}}, %[[ONE]] : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.cluster.wait
// PTX-LABEL: .entry cluster_of_two(
// PTX: mbarrier.init.shared.b64
// PTX-NEXT: fence.mbarrier_init.release.cluster;
// The arrive is relaxed: the init fence is its release (the PTX ISA's pairing).
// PTX: bar.sync 0;
// PTX-NEXT: barrier.cluster.arrive.relaxed;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mbarrier.try_wait.parity.shared.b64
// A row of inits (a pipelined loop's ring), value computations between: one block
// barrier and one cluster barrier after the last, which stand for every init of the
// row. An op that is more than a value computation (a store) ends the row: the init
// before it keeps its own barriers.
// CHECK-LABEL: gpu.func @ring_of_three
// CHECK: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: nvvm.mbarrier.init
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: memref.store
// CHECK: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: gpu.return
// PTX-LABEL: .entry ring_of_three(
// PTX-COUNT-2: barrier.cluster.arrive.relaxed;
// PTX-NOT: barrier.cluster.arrive
// PTX: ret;
gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  gpu.func @single_cta(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  gpu.func @parity_one() workgroup(%bar : memref<1xi64, 3>) kernel {
    %one = arith.constant true
    "acopy.barrier_init"(%bar) {arrival_count = 2 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %one) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  gpu.func @cluster_of_two(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel
      attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  gpu.func @ring_of_three(%flag: memref<1xi64, 3>) workgroup(%ring : memref<32xi8, 3>) kernel
      attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %b0 = memref.view %ring[%c0][] : memref<32xi8, 3> to memref<1xi64, 3>
    "acopy.barrier_init"(%b0) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    %c8 = arith.constant 8 : index
    %b1 = memref.view %ring[%c8][] : memref<32xi8, 3> to memref<1xi64, 3>
    "acopy.barrier_init"(%b1) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    %c16 = arith.constant 16 : index
    %b2 = memref.view %ring[%c16][] : memref<32xi8, 3> to memref<1xi64, 3>
    "acopy.barrier_init"(%b2) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    %zero = arith.constant 0 : i64
    memref.store %zero, %flag[%c0] : memref<1xi64, 3>
    %c24 = arith.constant 24 : index
    %b3 = memref.view %ring[%c24][] : memref<32xi8, 3> to memref<1xi64, 3>
    "acopy.barrier_init"(%b3) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}
