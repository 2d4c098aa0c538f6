// TMA stores: every thread fences its shared-memory writes to the async
// proxy, the block synchronises, thread (0,0,0) issues the bulk tensor store
// (or reduction) and commits the bulk group; the wait is a bulk wait_group on
// every thread and a block barrier.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .entry
// PTX: cp.{{(reduce.)?}}async.bulk.tensor.{{[1-5]}}d

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // CHECK-LABEL: gpu.func @store
  // CHECK-SAME: %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64}
  // CHECK-SAME: workgroup(%{{.*}} : memref<64x32xf32, 3> {llvm.align = 128 : i64})
  // CHECK: %[[SRC:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  // CHECK-NEXT: gpu.barrier
  // CHECK: scf.if
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[SRC]], box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: }
  // CHECK: nvvm.cp.async.bulk.wait_group 0
  // CHECK-NOT: {read}
  // CHECK-NEXT: gpu.barrier
  gpu.func @store(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }

  // The predicate guards the store, not the commit, so `pending` counts the
  // same groups whatever the predicate; commit_group = false leaves the group open.
  // CHECK-LABEL: gpu.func @predicated
  // CHECK-SAME: %[[P:[^:]*]]: i1
  // CHECK: scf.if
  // CHECK-NEXT: scf.if %[[P]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK-NEXT: }
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK: scf.if
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK-NEXT: }
  // CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
  gpu.func @predicated(%dst: memref<256x512xf32>, %i: index, %p: i1) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index, i1) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, commit_group = false} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 1 : i64, read_only = true} : () -> ()
    gpu.return
  }

  // Reductions: smin/smax are min/max on the signed tensor map.
  // CHECK-LABEL: gpu.func @reductions
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<add>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<min>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<max>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<and>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<or>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<xor>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<min>}
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}} {redKind = #nvvm.tma_redux_kind<max>}
  gpu.func @reductions(%dst: memref<256x512xi32>, %h: memref<256x512xf16>, %i: index)
      workgroup(%tile: memref<64x32xi32, 3>, %htile: memref<64x64xf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "add"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smin"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "smax"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "and"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "or"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "xor"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%htile, %h, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "min"} : (memref<64x64xf16, 3>, memref<256x512xf16>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%htile, %h, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start, reduction_op = "max"} : (memref<64x64xf16, 3>, memref<256x512xf16>, index, index) -> ()
    gpu.return
  }
}
