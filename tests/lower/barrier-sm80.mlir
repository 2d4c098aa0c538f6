// Barriers on sm_80: thread 0 initialises, the block syncs, and the wait spins
// on mbarrier.test_wait.parity (sm_80 has no try_wait).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @barriers
// CHECK-SAME: (%[[ARG:.*]]: i1) workgroup(%[[BAR:.*]] : memref<1xi64, 3>)
// Constants and thread-index reads are built once, at the top of the kernel.
// CHECK-DAG: %[[COUNT:.*]] = arith.constant 128 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK: %[[I64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<3>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.mbarrier.init %[[PTR]], %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.fence.mbarrier.init
// The wait reuses the init's barrier pointer (kernel-level values are built once).
// CHECK-NOT: llvm.inttoptr
// CHECK: %[[PARITY:.*]] = arith.extui %[[ARG]] : i1 to i32
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:.*]] = nvvm.mbarrier.test.wait %[[PTR]], %[[PARITY]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[AGAIN:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// CHECK-NEXT: scf.condition(%[[AGAIN]])
// CHECK-NEXT: } do {
// CHECK-NOT: nvvm.mbarrier.try_wait

// Parity 1, a constant: the wait polls for phase parity 1, not 0. (MLIR names
// the result of `arith.constant true` %true, then %true_0, ...; the kernel's
// own constant comes after the lowering's.)
// CHECK-LABEL: gpu.func @parity_one
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NEXT: %[[PARITY:.*]] = arith.extui %{{true(_[0-9]+)?}} : i1 to i32
// CHECK-NEXT: scf.while
// CHECK-NEXT: nvvm.mbarrier.test.wait %[[PTR]], %[[PARITY]] : !llvm.ptr<3>, i32 -> i1

// PTX: .version 7.1
// PTX: .target sm_80
// PTX-LABEL: .entry barriers(
// PTX: ld.param.b8 %[[RS:rs[0-9]+]], [barriers_param_0];
// PTX: and.b16 %[[BIT:rs[0-9]+]], %[[RS]], 1;
// PTX: setp.ne.b16 %[[SET:p[0-9]+]], %[[BIT]], 0;
// PTX: mov.b32 %[[COUNT:r[0-9]+]], 128;
// PTX-NEXT: mbarrier.init.shared.b64 [{{.*}}], %[[COUNT]];
// PTX: bar.sync 0;
// PTX: selp.b32 %[[PARITY:r[0-9]+]], 1, 0, %[[SET]];
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NEXT: mbarrier.test_wait.parity.shared.b64 %[[READY:p[0-9]+]], [{{.*}}], %[[PARITY]];
// PTX-NEXT: not.pred %[[NOT:p[0-9]+]], %[[READY]];
// PTX-NEXT: @%[[NOT]] bra [[LOOP]];
// PTX-LABEL: .entry parity_one(
// PTX: mov.b32 %[[ONE:r[0-9]+]], 1;
// PTX-NEXT: mbarrier.test_wait.parity.shared.b64 %p{{[0-9]+}}, [{{.*}}], %[[ONE]];
// PTX-NOT: fence.mbarrier_init
// PTX-NOT: try_wait
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @barriers(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) {arrival_count = 128 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
  gpu.func @parity_one() workgroup(%bar : memref<1xi64, 3>) kernel {
    %one = arith.constant true
    "acopy.barrier_init"(%bar) {arrival_count = 2 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %one) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
