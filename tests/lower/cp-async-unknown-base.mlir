// A tile whose allocation the lowering cannot see (a device function's
// argument) has an unknown base alignment: the tile pointer joins the run-time
// check, and 4-byte chunks (provable from f32 elements) are the fallback.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: func.func @load_tile
// CHECK: %[[TILE:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[LOW:.*]] = arith.andi %[[TILE]], %[[C15:.*]] : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : index
// CHECK: scf.if %[[ALIGNED]] {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: } else {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// PTX-LABEL: .func load_tile(
// PTX-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// PTX-DAG: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
// PTX-LABEL: .entry kernel(
// PTX: cp.async.wait_group 0;
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  func.func @load_tile(%src: memref<256x512xf32>, %tile: memref<32x128xf32, 3>, %i: index) {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    return
  }
  gpu.func @kernel(%src: memref<256x512xf32>, %i: index) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    func.call @load_tile(%src, %tile, %i) : (memref<256x512xf32>, memref<32x128xf32, 3>, index) -> ()
    "acopy.wait_gmem_to_smem"() : () -> ()
    gpu.return
  }
}
