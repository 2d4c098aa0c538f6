// Barriers on sm_90: the wait spins on mbarrier.try_wait.parity, and a kernel
// with a cluster of more than one CTA fences the initialisation for the cluster
// and waits at a cluster barrier, so no peer signals an uninitialised barrier.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @single_cta
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.mbarrier.init %{{.*}}, %[[ONE]] : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: scf.while
// CHECK-NEXT: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK-NOT: nvvm.mbarrier.test.wait
// PTX-LABEL: .entry single_cta(
// PTX-NOT: fence.mbarrier_init
// PTX: mbarrier.init.shared.b64
// PTX: bar.sync 0;
// PTX: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [{{.*}}], %r{{[0-9]+}};

// CHECK-LABEL: gpu.func @cluster_of_two
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.mbarrier.init %{{.*}}, %[[ONE]] : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// PTX-LABEL: .entry cluster_of_two(
// PTX: mbarrier.init.shared.b64
// PTX-NEXT: fence.mbarrier_init.release.cluster;
// PTX: bar.sync 0;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mbarrier.try_wait.parity.shared.b64
gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  gpu.func @single_cta(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  gpu.func @cluster_of_two(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel
      attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
