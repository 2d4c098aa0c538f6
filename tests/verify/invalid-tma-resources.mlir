// What a TMA copy needs beyond the documented shape rules: an element type
// the tensor-map manifest can name (A23), multicast slices and shared tiles
// TMA can address (A24, A25), a kernel that host code launches with the
// manifest (A26), at most 16 tensor maps per kernel (A27), and wait counts
// that fit the instructions (A30). Fallback mode changes none of this.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-verify 2>&1 | FileCheck %s --check-prefix=NOHINT
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf8E4M3FNUZ>, %i: index) workgroup(%tile: memref<64x128xf8E4M3FNUZ, 3>, %bar: memref<1xi64, 3>) kernel {
    // RULE: A23
    // expected-error @+1 {{TMA copies of element type f8E4M3FNUZ are not supported: the tensor-map manifest can only describe f16, bf16, f32, f64, i8, i16, i32, i64, f8E4M3FN, f8E5M2}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf8E4M3FNUZ>, memref<64x128xf8E4M3FNUZ, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xsi32>, %i: index) workgroup(%tile: memref<64x32xsi32, 3>, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{TMA copies of element type si32 are not supported}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xsi32>, memref<64x32xsi32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%tile: memref<8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    // RULE: A24
    // expected-error @+1 {{each CTA of this collective copy writes a slice of 512 bytes of the dst tile, but every slice must start 1024-byte aligned for TMA; use a tile whose split dimension gives slices of a multiple of 1024 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], swizzle = 128 : i64} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<2x16xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{each CTA of this collective copy writes a slice of 64 bytes of the dst tile, but every slice must start 128-byte aligned}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<2x16xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%buf: memref<128x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %buf[%i, 0] [64, 32] [1, 1] : memref<128x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: ?>, 3>
    // RULE: A25
    // expected-error @+1 {{the dst tile memref<64x32xf32, strided<[32, 1], offset: ?>, 3> of a TMA copy must be 128-byte aligned in shared memory, but it has a dynamic offset, so its alignment cannot be guaranteed}}
    "acopy.copy_gmem_to_smem"(%src, %view, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: ?>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%buf: memref<128x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %view = memref.subview %buf[1, 0] [64, 32] [1, 1] : memref<128x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: 32>, 3>
    // expected-error @+1 {{the dst tile memref<64x32xf32, strided<[32, 1], offset: 32>, 3> of a TMA copy must be 1024-byte aligned in shared memory, but it starts 128 bytes into its buffer (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    "acopy.copy_gmem_to_smem"(%src, %view, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: 32>, 3>, index, index, memref<1xi64, 3>) -> ()
    // The same view is 128-byte aligned, enough without a swizzle: no error.
    "acopy.copy_gmem_to_smem"(%src, %view, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: 32>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Without a swizzle the tile needs 128 bytes, and the message has no swizzle
// hint (--verify-diagnostics matches a substring, so FileCheck pins the end).
// NOHINT: error: the dst tile memref<256xf32, strided<[1], offset: 16>, 3> of a TMA copy must be 128-byte aligned in shared memory, but it starts 64 bytes into its buffer{{$}}
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>) workgroup(%buf: memref<512xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %view = memref.subview %buf[16] [256] [1] : memref<512xf32, 3> to memref<256xf32, strided<[1], offset: 16>, 3>
    // expected-error @+1 {{the dst tile memref<256xf32, strided<[1], offset: 16>, 3> of a TMA copy must be 128-byte aligned in shared memory, but it starts 64 bytes into its buffer}}
    "acopy.copy_gmem_to_smem"(%src, %view, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<256xf32, strided<[1], offset: 16>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index, %arg: memref<64x32xf32, 3>) workgroup(%bar: memref<1xi64, 3>) kernel {
    %tile = memref.alloca() : memref<64x32xf32, 3>
    // expected-error @+1 {{the dst tile memref<64x32xf32, 3> of a TMA copy must be 128-byte aligned in shared memory, but it cannot be guaranteed to be: it must be a workgroup attribution of the kernel gpu.func, a memref.global in shared memory, the result of a memref.assume_alignment of at least 128, or a view with a static offset of one of those}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // A shared memref passed in as an argument has no alignment to raise.
    // expected-error @+1 {{the src tile memref<64x32xf32, 3> of a TMA copy must be 128-byte aligned in shared memory, but it cannot be guaranteed to be}}
    "acopy.copy_smem_to_gmem"(%arg, %src, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    %assumed = memref.assume_alignment %tile, 128 : memref<64x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %assumed, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A private attribution is an entry-block argument after the workgroup ones,
// not a workgroup attribution, even in memory space 3 (gpu.func accepts an
// integer memory space there): there is no llvm.align to raise.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%bar: memref<1xi64, 3>) private(%tile: memref<64x32xf32, 3>) kernel {
    // expected-error @+1 {{the dst tile memref<64x32xf32, 3> of a TMA copy must be 128-byte aligned in shared memory, but it cannot be guaranteed to be: it must be a workgroup attribution of the kernel gpu.func}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%src: memref<256x512xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<256x512xf32>, %c1 : index)
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
      // RULE: A26
      // expected-error @+1 {{kernel @m::@k is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode; launch it with acopy-runtime and the tensor-map manifest (docs/lowering-tma.md) instead}}
      "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}

// -----

// A kernel whose name needs quotes (@"a b") is found like any other: symbol
// references are compared, not their spelling.
module attributes {gpu.container_module} {
  func.func @host(%src: memref<256x512xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"m 1"::@"a b" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<256x512xf32>, %c1 : index)
    return
  }
  gpu.module @"m 1" [#nvvm.target<chip = "sm_90">] {
    gpu.func @"a b"(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
      // expected-error @+1 {{kernel @"m 1"::@"a b" is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode}}
      "acopy.copy_smem_to_gmem"(%tile, %src, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
      gpu.return
    }
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%t1 : memref<1x32xf32, 3>, %t2 : memref<2x16xf32, 3>, %t3 : memref<3x32xf32, 3>, %t4 : memref<4x32xf32, 3>, %t5 : memref<5x32xf32, 3>, %t6 : memref<6x32xf32, 3>, %t7 : memref<7x32xf32, 3>, %t8 : memref<8x32xf32, 3>, %t9 : memref<9x32xf32, 3>, %t10 : memref<10x32xf32, 3>, %t11 : memref<11x32xf32, 3>, %t12 : memref<12x32xf32, 3>, %t13 : memref<13x32xf32, 3>, %t14 : memref<14x32xf32, 3>, %t15 : memref<15x32xf32, 3>, %t16 : memref<16x32xf32, 3>, %t17 : memref<17x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<1x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // The same map again adds none.
    "acopy.copy_gmem_to_smem"(%src, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<1x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t2, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<2x16xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t3, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<3x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t4, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<4x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t5, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<5x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t6, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<6x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t7, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<7x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t8, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t9, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<9x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t10, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<10x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t11, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<11x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t12, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<12x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t13, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<13x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t14, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<14x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t15, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<15x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t16, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // RULE: A27
    // expected-error @+1 {{this kernel would need more than 16 TMA tensor maps (one per distinct source argument, box, swizzle and OOB fill); split it or share boxes}}
    "acopy.copy_gmem_to_smem"(%src, %t17, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<17x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // A box the kernel already has is fine after the limit.
    "acopy.copy_gmem_to_smem"(%src, %t16, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The maps a kernel already lists in acopy.tensor_maps (from an earlier
// lowering; here written by hand: boxes 1x32 to 15x32, params 2 to 16) count
// towards the 16: one new box is the 16th map, a second new one the 17th.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index, %map1: !llvm.ptr, %map2: !llvm.ptr, %map3: !llvm.ptr, %map4: !llvm.ptr, %map5: !llvm.ptr, %map6: !llvm.ptr, %map7: !llvm.ptr, %map8: !llvm.ptr, %map9: !llvm.ptr, %map10: !llvm.ptr, %map11: !llvm.ptr, %map12: !llvm.ptr, %map13: !llvm.ptr, %map14: !llvm.ptr, %map15: !llvm.ptr) workgroup(%t15 : memref<15x32xf32, 3>, %t16 : memref<16x32xf32, 3>, %t17 : memref<17x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {acopy.tensor_maps = [{arg = 0 : i64, box = array<i64: 1, 32>, element_type = f32, oob_fill = "none", param = 2 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 2, 32>, element_type = f32, oob_fill = "none", param = 3 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 3, 32>, element_type = f32, oob_fill = "none", param = 4 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 4, 32>, element_type = f32, oob_fill = "none", param = 5 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 5, 32>, element_type = f32, oob_fill = "none", param = 6 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 6, 32>, element_type = f32, oob_fill = "none", param = 7 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 7, 32>, element_type = f32, oob_fill = "none", param = 8 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 8, 32>, element_type = f32, oob_fill = "none", param = 9 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 9, 32>, element_type = f32, oob_fill = "none", param = 10 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 10, 32>, element_type = f32, oob_fill = "none", param = 11 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 11, 32>, element_type = f32, oob_fill = "none", param = 12 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 12, 32>, element_type = f32, oob_fill = "none", param = 13 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 13, 32>, element_type = f32, oob_fill = "none", param = 14 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 14, 32>, element_type = f32, oob_fill = "none", param = 15 : i64, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 15, 32>, element_type = f32, oob_fill = "none", param = 16 : i64, swizzle = 0 : i64}]} {
    // A listed box adds no map.
    "acopy.copy_gmem_to_smem"(%src, %t15, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<15x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t16, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<16x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    // expected-error @+1 {{this kernel would need more than 16 TMA tensor maps}}
    "acopy.copy_gmem_to_smem"(%src, %t17, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<17x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A window of more bytes than an mbarrier's transaction count (1048575) is a
// tile larger than any block's shared memory: A16 reports it, so the
// lowering's transaction-count check is only an internal guard.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<16x512x512xf32>, %i: index) workgroup(%tile: memref<8x256x256xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{the dst tile memref<8x256x256xf32, 3> holds 2097152 bytes, more than the 232448 bytes (227 KiB) of shared memory a block can have on any chip}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>} : (memref<16x512x512xf32>, memref<8x256x256xf32, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel {
    // RULE: A30
    // expected-error @+1 {{pending = 3000000000 is too large: the wait instruction takes a count of at most 2147483647}}
    "acopy.wait_smem_to_gmem"() {pending = 3000000000 : i64} : () -> ()
    "acopy.wait_smem_to_gmem"() {pending = 2147483647 : i64} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{pending = 2147483648 is too large: the wait instruction takes a count of at most 2147483647}}
    "acopy.wait_gmem_to_smem"() {pending = 2147483648 : i64} : () -> ()
    gpu.return
  }
}
