// The alignment proof follows a memref through view ops to what allocated it
// (docs/lowering-cp-async.md): a memref.subview keeps the aligned pointer of a
// kernel argument (16-byte aligned by the kernel ABI) or of a workgroup
// attribution (whose llvm.align the lowering raises to 16), so with a
// 16-byte aligned static offset every address is proved and no run-time
// check is emitted.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s

// src: a subview of a kernel argument, 16640 bytes in.
// CHECK-LABEL: gpu.func @src_subview
// CHECK-NOT: scf.if
// CHECK: llvm.getelementptr %{{[0-9a-z_]+}}[16640] : (!llvm.ptr<1>)
// CHECK-NOT: scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group

// dst: a subview of a workgroup attribution, 4096 bytes in; the attribution
// had no llvm.align, and gets 16.
// CHECK-LABEL: gpu.func @dst_subview
// CHECK-SAME: workgroup(%{{[^ ]+}} : memref<32x64xf32, 3> {llvm.align = 16 : i64})
// CHECK-NOT: scf.if
// CHECK: llvm.getelementptr %{{[0-9a-z_]+}}[4096] : (!llvm.ptr<3>)
// CHECK-NOT: scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
// dst: a memref.view of gpu.dynamic_shared_memory (16-byte aligned) moves the
// aligned pointer by its byte shift, so the shift bounds what is proved: 1024
// keeps 16 bytes (16-byte chunks), 8 proves 8 (8-byte chunks); either way
// nothing is left to check at run time.
// CHECK-LABEL: gpu.func @view_shift_1024
// CHECK-NOT: scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
// CHECK-LABEL: gpu.func @view_shift_8
// CHECK-NOT: scf.if
// CHECK-NOT: cache =  cg
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
// dst: a shared memref passed in as an argument has no alignment the lowering
// can prove, so it is checked at run time; memref.assume_alignment says what
// the kernel promises instead: 16 proves 16-byte chunks, 8 proves 8-byte
// chunks, with no check.
// CHECK-LABEL: gpu.func @shared_argument
// CHECK: arith.andi %intptr{{.*}}, %c15 : index
// CHECK: scf.if
// CHECK-LABEL: gpu.func @assumed_16
// CHECK-NOT: scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
// CHECK-LABEL: gpu.func @assumed_8
// CHECK-NOT: scf.if
// CHECK-NOT: cache =  cg
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
// dst: a memref.get_global of a shared memref.global; the lowering raises the
// global's alignment to 16, so the base is proved and nothing is checked. The
// global found is the one named, not the module's first: @other is untouched.
// CHECK: memref.global "private" @other : memref<8xf32, 3>{{$}}
// CHECK: memref.global "private" @tile : memref<16x64xf32, 3> {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @global_tile
// CHECK-NOT: scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.commit.group
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @src_subview(%src: memref<256x512xf32>) workgroup(%tile: memref<16x64xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %view = memref.subview %src[8, 64] [16, 64] [1, 1] : memref<256x512xf32> to memref<16x64xf32, strided<[512, 1], offset: 4160>>
    "acopy.copy_gmem_to_smem"(%view, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<16x64xf32, strided<[512, 1], offset: 4160>>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @dst_subview(%src: memref<256x512xf32>) workgroup(%buf: memref<32x64xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %view = memref.subview %buf[16, 0] [16, 64] [1, 1] : memref<32x64xf32, 3> to memref<16x64xf32, strided<[64, 1], offset: 1024>, 3>
    "acopy.copy_gmem_to_smem"(%src, %view, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, strided<[64, 1], offset: 1024>, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @view_shift_1024(%src: memref<256x512xf32>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %shift = arith.constant 1024 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %smem[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, #gpu.address_space<workgroup>>, index, index) -> ()
    gpu.return
  }
  gpu.func @view_shift_8(%src: memref<256x512xf32>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %shift = arith.constant 8 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %smem[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, #gpu.address_space<workgroup>>, index, index) -> ()
    gpu.return
  }
  gpu.func @shared_argument(%src: memref<256x512xf32>, %buf: memref<16x64xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %buf, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @assumed_16(%src: memref<256x512xf32>, %buf: memref<16x64xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tile = memref.assume_alignment %buf, 16 : memref<16x64xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
  gpu.func @assumed_8(%src: memref<256x512xf32>, %buf: memref<16x64xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tile = memref.assume_alignment %buf, 8 : memref<16x64xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
}
gpu.module @g [#nvvm.target<chip = "sm_80">] {
  memref.global "private" @other : memref<8xf32, 3>
  memref.global "private" @tile : memref<16x64xf32, 3>
  gpu.func @global_tile(%src: memref<256x512xf32>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tile = memref.get_global @tile : memref<16x64xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<16x64xf32, 3>, index, index) -> ()
    gpu.return
  }
}
