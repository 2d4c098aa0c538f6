// A zero-filling cp.async copy (fallback mode) needs the source's sizes to clip
// its chunks: from the memref's type when they are static (no
// memref.extract_strided_metadata), from the descriptor only when one is dynamic.
// RUN: acopy-opt %s --acopy-fallback --acopy-lower --split-input-file 2>/dev/null | FileCheck %s

// CHECK-LABEL: gpu.func @static_sizes
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: nvvm.cp.async.shared.global
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: gpu.return
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @static_sizes(%src: memref<100x64xf32>, %i: index) workgroup(%tile: memref<8x64xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "zeros"} : memref<100x64xf32> -> memref<8x64xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @dynamic_sizes
// CHECK: memref.extract_strided_metadata
// CHECK: nvvm.cp.async.shared.global
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @dynamic_sizes(%src: memref<?x64xf32>, %i: index) workgroup(%tile: memref<8x64xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "zeros"} : memref<?x64xf32> -> memref<8x64xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
