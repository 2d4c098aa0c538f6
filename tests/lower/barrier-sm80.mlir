// Barriers on sm_80: thread 0 initialises, the block syncs, and the wait spins
// on mbarrier.test_wait.parity (sm_80 has no try_wait).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @barriers
// CHECK-SAME: workgroup(%[[BAR:.*]] : memref<1xi64, 3>)
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK: %[[I64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<3>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[COUNT:.*]] = arith.constant 128 : i32
// CHECK-NEXT: nvvm.mbarrier.init %[[PTR]], %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.fence.mbarrier.init
// CHECK: %[[WAIT_PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[PARITY:.*]] = arith.extui %arg0 : i1 to i32
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:.*]] = nvvm.mbarrier.test.wait %[[WAIT_PTR]], %[[PARITY]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[AGAIN:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// CHECK-NEXT: scf.condition(%[[AGAIN]])
// CHECK-NEXT: } do {
// CHECK-NOT: nvvm.mbarrier.try_wait

// PTX: .version 7.1
// PTX: .target sm_80
// PTX: mbarrier.init.shared.b64 [{{.*}}], %r{{[0-9]+}};
// PTX: bar.sync 0;
// PTX: mbarrier.test_wait.parity.shared.b64 %p{{[0-9]+}}, [{{.*}}], %r{{[0-9]+}};
// PTX-NOT: fence.mbarrier_init
// PTX-NOT: try_wait
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
