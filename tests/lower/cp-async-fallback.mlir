// Fallback mode on sm_80: a predicate guards the issue, "zeros" uses the
// cp.async source size, a barrier tracks the copy through
// cp.async.mbarrier.arrive, and single-CTA collective attributes are ignored.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80
// Without fallback mode the same ops are errors (tests/verify has them all).
// RUN: not acopy-opt %s --acopy-lower 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: error: The cp.async implementation does not support user-defined predicates

// CHECK-LABEL: gpu.func @predicate
// CHECK: scf.if %arg1 {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg :
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// PTX-LABEL: .entry predicate(
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// PTX: cp.async.commit_group;

// Zero-fill: a chunk copies the bytes of its row that lie inside src, 0 for a
// row outside src (unsigned compares also catch negative indices).
// CHECK-LABEL: gpu.func @zeros
// CHECK: %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK: scf.for %[[C:.*]] =
// CHECK: %[[Y:.*]] = arith.addi %arg1, %{{.*}} : index
// CHECK: %[[ROW_IN:.*]] = arith.cmpi ult, %[[Y]], %[[SIZES]]#0 : index
// CHECK: %[[X:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[COL_IN:.*]] = arith.cmpi ult, %[[X]], %[[SIZES]]#1 : index
// CHECK: %[[IN:.*]] = arith.andi %[[ROW_IN]], %[[COL_IN]] : i1
// CHECK: %[[LEFT:.*]] = arith.subi %[[SIZES]]#1, %[[X]] : index
// A 16-byte chunk holds 4 f32: it copies min(left, 4) * 4 bytes. Constants
// are built once, at the top of the kernel; MLIR names an index constant by
// its value (%c4, %c4_3, ...).
// CHECK-NEXT: %[[COUNT:.*]] = arith.minui %[[LEFT]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[COUNT]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[VALID:.*]] = arith.select %[[IN]], %[[BYTES]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[VALID]] : index to i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[N]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// When the run-time alignment check fails, 4-byte chunks of one f32 each.
// CHECK: } else {
// CHECK: %[[LEFT4:.*]] = arith.subi %[[SIZES]]#1, %{{.*}} : index
// CHECK-NEXT: %[[COUNT4:.*]] = arith.minui %[[LEFT4]], %c1{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[BYTES4:.*]] = arith.muli %[[COUNT4]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[VALID4:.*]] = arith.select %{{.*}}, %[[BYTES4]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[N4:.*]] = arith.index_cast %[[VALID4]] : index to i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca, %[[N4]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry zeros(
// PTX-DAG: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4, %r{{[0-9]+}};
// PTX-DAG: min.u64 %[[COUNT:rd[0-9]+]], %rd{{[0-9]+}}, 4;
// PTX-DAG: cvt.u32.u64 %[[COUNT32:r[0-9]+]], %[[COUNT]];
// PTX-DAG: shl.b32 %[[BYTES:r[0-9]+]], %[[COUNT32]], 2;
// PTX-DAG: selp.b32 %[[SEL:r[0-9]+]], %[[BYTES]], 0, %p{{[0-9]+}};
// PTX-DAG: selp.b32 %[[SIZE:r[0-9]+]], %[[SEL]], 0, %p{{[0-9]+}};
// PTX-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %[[SIZE]];

// f16: a 16-byte chunk holds 8 elements of 2 bytes; without 16-byte alignment
// the copy goes element by element, storing 0 outside src.
// CHECK-LABEL: gpu.func @zeros_f16
// CHECK: %[[Z16:.*]] = arith.constant 0 : i16
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}#1, %{{.*}} : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.minui %[[LEFT]], %c8{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[COUNT]], %c2{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[VALID:.*]] = arith.select %{{.*}}, %[[BYTES]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[VALID]] : index to i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[N]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: } else {
// CHECK: %[[COUNT1:.*]] = arith.minui %{{.*}}, %c1{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[BYTES1:.*]] = arith.muli %[[COUNT1]], %c2{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[VALID1:.*]] = arith.select %{{.*}}, %[[BYTES1]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi ne, %[[VALID1]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK-NEXT: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i16
// CHECK-NEXT: llvm.store %[[V]], %{{.*}} : i16, !llvm.ptr<3>
// CHECK-NEXT: } else {
// CHECK-NEXT: llvm.store %[[Z16]], %{{.*}} : i16, !llvm.ptr<3>
// PTX-LABEL: .entry zeros_f16(
// PTX-DAG: st.shared.b16
// PTX-DAG: ld.global.b16
// PTX-DAG: min.u64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 8;
// PTX-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;

// A barrier: no commit group; every thread's cp.asyncs are tracked, then
// thread 0 arrives once for the copy.
// CHECK-LABEL: gpu.func @barrier
// CHECK: nvvm.cp.async.shared.global
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.mbarrier.arrive %[[BAR:.*]] : !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3> -> i64
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: gpu.return
// PTX-LABEL: .entry barrier(
// PTX: cp.async.mbarrier.arrive.shared.b64
// PTX: bar.sync 0;
// PTX: mbarrier.arrive.shared.b64
// PTX-NOT: cp.async.commit_group

// CHECK-LABEL: gpu.func @single_cta_collective
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// PTX-LABEL: .entry single_cta_collective(
// A one-element column: each chunk is one f32 (4 bytes, ca), whose source
// size is the whole element inside src and 0 outside (no per-row count).
// CHECK-LABEL: gpu.func @zeros_column
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %{{.*}}, %{{.*}}, %[[CSIZES:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[COL_IN:.*]] = arith.cmpi ult, %arg2, %[[CSIZES]]#1 : index
// CHECK: scf.for
// CHECK: %[[CROW_IN:.*]] = arith.cmpi ult, %{{.*}}, %[[CSIZES]]#0 : index
// CHECK-NEXT: %[[CIN:.*]] = arith.andi %[[COL_IN]], %[[CROW_IN]] : i1
// CHECK-NEXT: %[[CBYTES:.*]] = arith.select %[[CIN]], %[[FOUR]], %[[ZERO]] : index
// CHECK-NEXT: %[[CN:.*]] = arith.index_cast %[[CBYTES]] : index to i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca, %[[CN]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// PTX-LABEL: .entry zeros_column(
// PTX: selp.b32 %[[CSEL:r[0-9]+]], 4, 0, %p{{[0-9]+}};
// PTX-NEXT: selp.b32 %[[CSIZE:r[0-9]+]], %[[CSEL]], 0, %p{{[0-9]+}};
// PTX-NEXT: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4, %[[CSIZE]];

gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @predicate(%src: memref<256x512xf32>, %p: i1) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index, i1) -> ()
    gpu.return
  }
  gpu.func @zeros(%src: memref<?x?xf32>, %i: index, %j: index) workgroup(%tile : memref<8x16xf32, 3>) kernel {
    %c16 = arith.constant 16 : index
    %col = arith.muli %j, %c16 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "zeros"}
        : (memref<?x?xf32>, memref<8x16xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @zeros_f16(%src: memref<?x?xf16>, %i: index, %j: index) workgroup(%tile : memref<8x16xf16, 3>) kernel {
    %c16 = arith.constant 16 : index
    %col = arith.muli %j, %c16 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "zeros"}
        : (memref<?x?xf16>, memref<8x16xf16, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @barrier(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>, %bar : memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @single_cta_collective(%src: memref<256x512xf32>) workgroup(%tile : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds",
        collective_axes = ["x"], leader_tracked = "replicated"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @zeros_column(%src: memref<?x?xf32>, %i: index, %j: index) workgroup(%tile : memref<8x1xf32, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<?x?xf32>, memref<8x1xf32, 3>, index, index) -> ()
    gpu.return
  }
}
