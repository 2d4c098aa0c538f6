// A TMA tile whose alignment the kernel promises with memref.assume_alignment
// (here dynamic shared memory, which the kernel would align itself) lowers:
// the promise of at least 128 bytes is what TMA needs, so there is nothing to
// raise (docs/lowering-tma.md). The copy reads the tile's address from the
// assumed memref.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s

// CHECK-LABEL: gpu.func @assumed
// CHECK: %[[TILE:.*]] = memref.assume_alignment %{{.*}}, 128
// CHECK: %[[T:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK: %[[T64:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: %[[T3:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
// CHECK: %[[T7:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[T7]], %{{.*}}, %{{.*}}, box[
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @assumed(%src: memref<256x512xf32>) workgroup(%bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x32xf32, #gpu.address_space<workgroup>>
    %tile = memref.assume_alignment %view, 128 : memref<64x32xf32, #gpu.address_space<workgroup>>
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
