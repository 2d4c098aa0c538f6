// A TMA tile reached through memref.view or memref.memory_space_cast of a
// workgroup attribution: the one walker up a view chain
// (passes/src/plan/alignment.rs, shared with the cp.async path) looks through
// both. memory_space_cast keeps the aligned pointer; memref.view moves it by
// its byte shift, which is proved a multiple of 1024 here, so raising the
// attribution to the 128 bytes TMA needs aligns the tile too. The PTX shows
// it: a 128-aligned buffer, and the tile 1024 bytes into it.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90

// CHECK-LABEL: gpu.func @view_tile
// CHECK-SAME: workgroup(%[[BYTES:.*]] : memref<8192xi8, 3> {llvm.align = 128 : i64},
// CHECK: %[[SHIFT:.*]] = arith.constant 1024 : index
// CHECK: %[[VIEW:.*]] = memref.view %[[BYTES]][%[[SHIFT]]][]
// CHECK: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: %[[T3:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
// CHECK: %[[T7:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[T7]],
// PTX-LABEL: .entry view_tile
// PTX: .shared .align 128 .b8 [[BUF:__wg_view_tile_0]][8192];
// PTX: mov.b64 [[BASE:%rd[0-9]+]], [[BUF]];
// PTX: add.s64 [[TILE:%rd[0-9]+]], [[BASE]], 1024;
// PTX: cvta.shared.u64 [[GENERIC:%rd[0-9]+]], [[TILE]];
// PTX: cvta.to.shared::cluster.u64 [[CLUSTER:%rd[0-9]+]], [[GENERIC]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global{{.*}} {{\[}}[[CLUSTER]]{{\]}},
// CHECK-LABEL: gpu.func @cast_tile
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<8x32xf32, 3> {llvm.align = 128 : i64},
// CHECK: %[[GENERIC:.*]] = memref.memory_space_cast %[[BUF]]
// CHECK: %[[TILE:.*]] = memref.memory_space_cast %[[GENERIC]]
// CHECK: memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// PTX-LABEL: .entry cast_tile
// PTX: .shared .align 128 .b8 __wg_cast_tile_0[1024];
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @view_tile(%src: memref<256x512xf32>) workgroup(%bytes: memref<8192xi8, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %tile = memref.view %bytes[%c1024][] : memref<8192xi8, 3> to memref<8x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
  gpu.func @cast_tile(%src: memref<256x512xf32>) workgroup(%buf: memref<8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %generic = memref.memory_space_cast %buf : memref<8x32xf32, 3> to memref<8x32xf32>
    %tile = memref.memory_space_cast %generic : memref<8x32xf32> to memref<8x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
