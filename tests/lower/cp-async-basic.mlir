// A whole-tile f32 copy at a constant start: 16-byte cg chunks with no run-time
// check, one commit group per copy, and the wait with its block barrier.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// The module now names its chip and the PTX ISA the NVPTX backend needs for it.
// CHECK: gpu.module @kernels [#nvvm.target<chip = "sm_80", features = "+ptx71">]
// CHECK-LABEL: gpu.func @whole_tile
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<32x128xf32, 3> {llvm.align = 16 : i64})
// CHECK-DAG: %[[SRC:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG: %[[DST:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK-NOT: memref.extract_strided_metadata
// CHECK-NOT: scf.if
// A src with no memory space is a generic pointer, cast to the global space.
// CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.cp.async.wait.group 3
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: acopy.

// A src in the global memory space (1) is already a global pointer: no cast.
// CHECK-LABEL: gpu.func @global_space
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NOT: llvm.addrspacecast
// CHECK: nvvm.cp.async.shared.global

// PTX: .version 7.1
// PTX: .target sm_80
// PTX: .shared .align 16 .b8 [[WG:.*]][16384];
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+(\+[0-9]+)?}}], [%rd{{[0-9]+(\+[0-9]+)?}}], 16;
// PTX: cp.async.commit_group;
// PTX-NEXT: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX-NEXT: cp.async.wait_group 3;
// PTX-LABEL: .entry global_space(
// PTX-NOT: cvta.to.global
// PTX: cp.async.cg.shared.global
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @whole_tile(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c32, %c256) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    "acopy.wait_gmem_to_smem"() {pending = 3 : i64} : () -> ()
    gpu.return
  }
  gpu.func @global_space(%src: memref<256x512xf32, 1>, %i: index) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32, 1>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
