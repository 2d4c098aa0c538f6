// A constant window start at an odd f16 column is 2 bytes off every cp.async
// size. Like the same start passed at run time (cp-async-dynamic.mlir), it is
// copied element by element with ordinary loads and stores, then committed as
// a group like any copy; no cp.async is issued for it.
// RUN: acopy-opt %s --split-input-file --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX --implicit-check-not=cp.async.ca --implicit-check-not=cp.async.cg

// CHECK-LABEL: gpu.func @odd_start
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i16
// CHECK: llvm.store %{{.*}}, %{{.*}} : i16, !llvm.ptr<3>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// PTX-DAG: ld.global.b16
// PTX-DAG: st.shared.b16
// PTX-DAG: cp.async.commit_group
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @odd_start(%src: memref<64x64xf16>) workgroup(%tile : memref<4x8xf16, 3>) kernel {
    %c7 = arith.constant 7 : index
    %c17 = arith.constant 17 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c7, %c17) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x8xf16, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

// -----

// An odd row stride in the tile (9 f16 = 18 bytes) too.
// CHECK-LABEL: gpu.func @odd_tile_stride
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i16
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @odd_tile_stride(%src: memref<64x64xf16>, %tile: memref<4x8xf16, strided<[9, 1]>, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<64x64xf16>, memref<4x8xf16, strided<[9, 1]>, 3>, index, index) -> ()
    gpu.return
  }
}
