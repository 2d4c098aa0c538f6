// A TMA tile through memref.view is as aligned as the view's byte shift
// allows (passes/src/plan/alignment.rs): a shift of 64 bytes leaves a tile
// that no raising of the attribution can make 128-byte aligned (A25), and
// dynamic shared memory, 16-byte aligned, needs a memref.assume_alignment.
// tests/lower/tma-view-tile.mlir has the shifts that work.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @shifted(%src: memref<256x512xf32>) workgroup(%bytes: memref<8192xi8, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %tile = memref.view %bytes[%c64][] : memref<8192xi8, 3> to memref<8x32xf32, 3>
    // RULE: A25
    // expected-error @+1 {{the dst tile memref<8x32xf32, 3> of a TMA copy must be 128-byte aligned in shared memory, but it cannot be guaranteed to be: it must be a workgroup attribution of the kernel gpu.func, a memref.global in shared memory, the result of a memref.assume_alignment of at least 128, or a view with a static offset of one of those}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @dynamic_shared(%src: memref<256x512xf32>) workgroup(%bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // RULE: A25
    // expected-error @+1 {{the dst tile memref<8x32xf32, #gpu.address_space<workgroup>> of a TMA copy must be 128-byte aligned in shared memory, but it cannot be guaranteed to be}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
