// A TMA load whose global memref has a dynamic innermost stride (`strided<[N, ?]>`) at a
// dynamic start: the host encodes its tensor map only for an innermost stride of 1
// (docs/lowering-tma.md, the host's InnerStride check), so the run-time check's non-TMA
// branch copies contiguous rows with cp.async like a unit-stride source, in strict and
// in fallback mode. It once stopped the lowering with "internal error: acopy-verify
// accepted a copy that has no plan: a contiguous row of 2 bytes is not a multiple of 4"
// (found by the robustness test, tools/acopy-opt/tests/robustness.rs).
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90
// CHECK-LABEL: gpu.func @dynamic_inner_stride
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// CHECK-LABEL: gpu.func @unit_inner_stride
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @dynamic_inner_stride(%src: memref<96x320xf16, strided<[1048576, ?], offset: 1048576>>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<96x320xf16, strided<[1048576, ?], offset: 1048576>> -> memref<64x64xf16, 3>
    gpu.return
  }
  gpu.func @unit_inner_stride(%src: memref<96x320xf16, strided<[1048576, 1], offset: 1048576>>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    acopy.copy_gmem_to_smem %src[%s0, %s1] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<96x320xf16, strided<[1048576, 1], offset: 1048576>> -> memref<64x64xf16, 3>
    gpu.return
  }
}
