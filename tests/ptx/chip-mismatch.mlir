// IR lowered for sm_90 (try_wait, cluster fence) and then compiled for sm_80
// gets errors at the ops instead of an NVPTX "Cannot select" abort.
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: not acopy-opt %t.mlir --emit=ptx --chip=sm_80 2>&1 | FileCheck %s
// CHECK-DAG: error: 'nvvm.fence.mbarrier.init' cannot be compiled for sm_80: it needs Clusters, which sm_80 does not have
// CHECK-DAG: error: 'nvvm.mbarrier.try_wait' cannot be compiled for sm_80: it needs MbarrierTryWait, which sm_80 does not have
// CHECK-NOT: LLVM ERROR
// For sm_90 it compiles.
// RUN: acopy-opt %t.mlir --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90
// SM90: .target sm_90
// SM90: mbarrier.try_wait.parity.shared.b64
gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  gpu.func @wait(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel
      attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
