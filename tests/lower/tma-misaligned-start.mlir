// TMA needs a copy's innermost window start x element size to be a multiple of
// 16 bytes (a misaligned one traps on the GPU). acopy-lower emits TMA only
// where that is proved (constants, the alignment proof of dynamic values) or
// promised (`assume_aligned_start`); a dynamic start gets a run-time check
// whose other branch is a correct non-TMA path (cp.async for loads,
// element-wise stores or atomics for stores); a misaligned constant, which
// only fallback mode admits, gets the non-TMA path alone and no tensor map.
// docs/lowering-tma.md, "Misaligned starts".
// RUN: acopy-opt %s --acopy-lower --acopy-fallback | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-DAG: cp.async.mbarrier.arrive.shared.b64
// PTX-DAG: xor.b64
// PTX-DAG: atom.global.max.s32
// PTX-DAG: atom.global.add.noftz.bf16

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  // %bx * 64 is a multiple of 4 f32: TMA alone, no check.
  // CHECK-LABEL: gpu.func @proved
  // CHECK-NOT: } else {
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK-NOT: nvvm.cp.async.shared.global
  gpu.func @proved(%src: memref<256x512xf32>, %i: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %bx = gpu.block_id x
    %c64 = arith.constant 64 : index
    %col = arith.muli %bx, %c64 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %col, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // Exactly 16 bytes: the constant column 4 and %bx * 4 of f32 are aligned (4 elements,
  // not 4 x 16): TMA alone, no check, no non-TMA path.
  // CHECK-LABEL: gpu.func @sixteen_bytes
  // CHECK-NOT: } else {
  // CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: gpu.return
  gpu.func @sixteen_bytes(%src: memref<256x512xf32>, %i: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c4 = arith.constant 4 : index
    %bx = gpu.block_id x
    %col = arith.muli %bx, %c4 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %c4, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %col, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // CHECK-LABEL: gpu.func @promised
  // CHECK-NOT: } else {
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
  // CHECK-NOT: nvvm.cp.async.shared.global
  gpu.func @promised(%src: memref<256x512xf32>, %i: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // bf16: the innermost start (the third index) must be a multiple of 8.
  // CHECK-LABEL: gpu.func @bf16_3d
  // CHECK-SAME: %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[K:[^:]*]]: index
  // The constants are built once, at the top of the kernel; the check is
  // built next to the copy.
  // CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[BYTES:.*]] = arith.constant 4096 : i32
  // CHECK: %[[LOW:.*]] = arith.andi %[[K]], %[[C7]] : index
  // CHECK-NEXT: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %[[C0]] : index
  // CHECK-NEXT: scf.if %[[OK]] {
  // CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %[[BYTES]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}]
  // CHECK: } else {
  // The cp.async path completes the same barrier: each thread's cp.asyncs
  // hold the phase open, and thread 0 arrives once, as the TMA copy does.
  // CHECK: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.mbarrier.arrive %[[BAR]] : !llvm.ptr<3>
  // CHECK-NEXT: gpu.barrier
  // CHECK: nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3> -> i64
  // CHECK-NOT: nvvm.cp.async.commit.group
  gpu.func @bf16_3d(%src: memref<4x64x256xbf16>, %i: index, %j: index, %k: index)
      workgroup(%tile: memref<2x16x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %k, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<4x64x256xbf16>, memref<2x16x64xbf16, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // (37, 133) f32: byte 532 of its row, not a multiple of 16. No TMA, and no
  // tensor-map parameter; the window starts (37 * 512 + 133) * 4 bytes in.
  // CHECK-LABEL: gpu.func @constant
  // CHECK-SAME: ) kernel {{[{]$}}
  // CHECK-NOT: nvvm.cp.async.bulk
  // CHECK: llvm.getelementptr %{{.*}}[76308] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
  // CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache =  ca
  // CHECK: nvvm.cp.async.mbarrier.arrive
  // CHECK-NOT: nvvm.cp.async.bulk
  gpu.func @constant(%src: memref<256x512xf32>)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c37 = arith.constant 37 : index
    %c133 = arith.constant 133 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c37, %c133, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // The cp.async path lays the tile out with TMA's 128-byte swizzle: address
  // bits 4-6 XOR bits 7-9, on a tile aligned to 1024 bytes.
  // CHECK-LABEL: gpu.func @swizzled
  // CHECK-SAME: {llvm.align = 1024 : i64}
  // The shift and mask constants are built once, at the top of the kernel.
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 112 : i64
  // CHECK: } else {
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK: nvvm.cp.async.shared.global %[[DST]]
  gpu.func @swizzled(%src: memref<256x512xbf16>, %i: index, %j: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // Misaligned, each CTA of the group loads the whole window into its own
  // tile (no mask): 64 x 128 f32 in 4-byte chunks is 8192 chunks.
  // CHECK-LABEL: gpu.func @multicast
  // CHECK-SAME: %[[I:[^:]*]]: index, %[[J:[^:]*]]: index
  // CHECK: arith.andi %[[J]], %{{.*}} : index
  // CHECK: multicast_mask
  // CHECK: } else {
  // CHECK-NOT: multicast_mask
  // CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache =  ca
  // CHECK-NOT: multicast_mask
  gpu.func @multicast(%src: memref<256x512xf32>, %i: index, %j: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "y"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  // CHECK-LABEL: gpu.func @reduce_float
  // CHECK: } else {
  // CHECK: llvm.atomicrmw fmin %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, f16
  // CHECK: } else {
  // CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, bf16
  // CHECK: } else {
  // CHECK: llvm.atomicrmw fmax %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, f16
  gpu.func @reduce_float(%h: memref<64x256xf16>, %b: memref<64x256xbf16>, %i: index, %j: index) workgroup(%th: memref<8x64xf16, 3>, %tb: memref<8x64xbf16, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%th, %h, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "min"} : (memref<8x64xf16, 3>, memref<64x256xf16>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%tb, %b, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<8x64xbf16, 3>, memref<64x256xbf16>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%th, %h, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "max"} : (memref<8x64xf16, 3>, memref<64x256xf16>, index, index) -> ()
    gpu.return
  }
  // Every integer reduction that i32 allows maps to its own atomic on the
  // element-wise path (dynamic starts: the TMA branch first, then the atomics).
  // CHECK-LABEL: gpu.func @reduce_int
  // CHECK: } else {
  // CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  // CHECK: } else {
  // CHECK: llvm.atomicrmw _and %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  // CHECK: } else {
  // CHECK: llvm.atomicrmw _or %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  // CHECK: } else {
  // CHECK: llvm.atomicrmw _xor %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  // CHECK: } else {
  // CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  gpu.func @reduce_int(%d: memref<64x256xi32>, %i: index, %j: index) workgroup(%t: memref<8x32xi32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<8x32xi32, 3>, memref<64x256xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "and"} : (memref<8x32xi32, 3>, memref<64x256xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "or"} : (memref<8x32xi32, 3>, memref<64x256xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "xor"} : (memref<8x32xi32, 3>, memref<64x256xi32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %d, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "smin"} : (memref<8x32xi32, 3>, memref<64x256xi32>, index, index) -> ()
    gpu.return
  }
  // A constant misaligned reduction: atomics on every thread, elements
  // outside dst skipped, and the (empty) bulk group still committed.
  // CHECK-LABEL: gpu.func @reduce_const
  // CHECK-SAME: ) kernel {{[{]$}}
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK: scf.for
  // CHECK: arith.cmpi ult, %{{.*}}, %c256{{.*}} : index
  // CHECK: arith.cmpi ult, %{{.*}}, %c512{{.*}} : index
  // CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
  // CHECK: nvvm.cp.async.bulk.commit.group
  gpu.func @reduce_const(%dst: memref<256x512xi32>) workgroup(%tile: memref<8x32xi32, 3>) kernel {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %c3, %c5) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "smax"} : (memref<8x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    gpu.return
  }
  // A TMA store traps at a negative coordinate too, aligned or not: a
  // constant one takes the element-wise path (no tensor map); a promised
  // store has no check at all.
  // CHECK-LABEL: gpu.func @store_negative_row
  // CHECK-SAME: ) kernel {{[{]$}}
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK-LABEL: gpu.func @store_promised
  // CHECK-NOT: arith.cmpi sge
  // CHECK-NOT: } else {
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK-NOT: llvm.store
  gpu.func @store_negative_row(%dst: memref<256x512xf32>) workgroup(%tile: memref<16x32xf32, 3>) kernel {
    %cm10 = arith.constant -10 : index
    %c128 = arith.constant 128 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %cm10, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<16x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
  gpu.func @store_promised(%dst: memref<256x512xf32>, %i: index, %j: index) workgroup(%tile: memref<16x32xf32, 3>) kernel {
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start} : (memref<16x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
  // The negative row alone decides (the column, 0, is aligned and not
  // negative), and positive constant coordinates that are aligned take TMA
  // alone: no check, no element-wise stores.
  // CHECK-LABEL: gpu.func @store_negative_row_column_zero
  // CHECK-SAME: ) kernel {{[{]$}}
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
  // CHECK-NOT: nvvm.cp.async.bulk.tensor
  // CHECK-LABEL: gpu.func @store_positive_constants
  // CHECK-NOT: } else {
  // CHECK-NOT: llvm.store
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
  // CHECK-NOT: } else {
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_negative_row_column_zero(%dst: memref<256x512xf32>) workgroup(%tile: memref<16x32xf32, 3>) kernel {
    %cm10 = arith.constant -10 : index
    %c0 = arith.constant 0 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %cm10, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<16x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
  gpu.func @store_positive_constants(%dst: memref<256x512xf32>) workgroup(%tile: memref<16x32xf32, 3>) kernel {
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    "acopy.copy_smem_to_gmem"(%tile, %dst, %c16, %c128) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<16x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}
