// Errors of the TMA lowering itself (acopy-verify's documented errors are in
// tests/verify): copies whose global memref is not a kernel argument, windows
// that could leave a subview, tiles whose alignment cannot be guaranteed,
// multicast slices TMA cannot address, and what the manifest
// cannot describe.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-lower

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x512xf32>
    // expected-error @+1 {{the src of a TMA copy must be an argument of the enclosing kernel gpu.func, or a memref.subview of one with unit strides, because its TMA tensor map is encoded on the host from that kernel argument}}
    "acopy.copy_gmem_to_smem"(%cast, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %cast = memref.cast %src : memref<256x512xf32> to memref<?x512xf32>
    %view = memref.subview %cast[0, 0] [128, 256] [1, 1] : memref<?x512xf32> to memref<128x256xf32, strided<[512, 1]>>
    // expected-error @+1 {{the src of a TMA copy is a memref.subview of a value that is not a kernel argument; it must be an argument of the enclosing kernel gpu.func}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[512, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [1, 256] [1, 1] : memref<256x512xf32> to memref<256xf32, strided<[1]>>
    // expected-error @+1 {{the src of a TMA copy is a rank-reducing memref.subview; TMA needs the view to keep the argument's rank 2}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, oob_mode = "undefined"} : (memref<256xf32, strided<[1]>>, memref<64xf32, 3>, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [128, 256] [2, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[1024, 1]>>
    // expected-error @+1 {{the src of a TMA copy is a memref.subview with strides (2, 1); TMA can only address a subview with unit strides}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "undefined"} : (memref<128x256xf32, strided<[1024, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %src[0, 0] [128, 256] [1, 1] : memref<256x512xf32> to memref<128x256xf32, strided<[512, 1]>>
    // expected-error @+1 {{the window of this TMA copy cannot be shown to stay inside the memref.subview src along dimension 0: TMA's bounds are the kernel argument's, so it would read argument elements outside the view instead of zero-filling them; use oob_mode = "promise_in_bounds" or "undefined" if that is intended}}
    "acopy.copy_gmem_to_smem"(%view, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<128x256xf32, strided<[512, 1]>>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%dst: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %view = memref.subview %dst[0, 0] [256, 256] [1, 1] : memref<256x512xf32> to memref<256x256xf32, strided<[512, 1]>>
    // expected-error @+1 {{the window of this TMA copy cannot be shown to stay inside the memref.subview dst along dimension 1: TMA's bounds are the kernel argument's, so it would write argument elements outside the view}}
    "acopy.copy_smem_to_gmem"(%tile, %view, %c0, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x256xf32, strided<[512, 1]>>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>)  {
    // expected-error @+1 {{the src of a TMA copy is an argument of a gpu.func that is not a kernel; tensor maps are kernel parameters, so TMA copies must use the arguments of a `kernel` gpu.func}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%buf: memref<128x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %buf[%i, 0] [64, 32] [1, 1] : memref<128x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: ?>, 3>
    // expected-error @+1 {{the dst tile memref<64x32xf32, strided<[32, 1], offset: ?>, 3> of a TMA copy has a dynamic offset, so its 128-byte alignment cannot be guaranteed; TMA needs it}}
    "acopy.copy_gmem_to_smem"(%src, %view, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: ?>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%buf: memref<128x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %view = memref.subview %buf[1, 0] [64, 32] [1, 1] : memref<128x32xf32, 3> to memref<64x32xf32, strided<[32, 1], offset: 32>, 3>
    // expected-error @+1 {{the dst tile memref<64x32xf32, strided<[32, 1], offset: 32>, 3> of a TMA copy starts 128 bytes into its buffer, which is not a multiple of the 1024 bytes TMA needs (8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    "acopy.copy_gmem_to_smem"(%src, %view, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, strided<[32, 1], offset: 32>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%bar: memref<1xi64, 3>) kernel {
    %tile = memref.alloca() : memref<64x32xf32, 3>
    // expected-error @+1 {{cannot guarantee the 128-byte alignment TMA needs for the dst tile memref<64x32xf32, 3>: it must be a workgroup attribution of the kernel gpu.func, a memref.global in shared memory, the result of a memref.assume_alignment of at least 128, or a view with a static offset of one of those}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{each CTA of this collective copy writes a slice of 512 bytes of the dst tile, but every slice must start 1024-byte aligned for TMA; use a tile whose split dimension gives slices of a multiple of 1024 bytes}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], swizzle = 128 : i64} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%dst: memref<256x512xi32>, %i: index) workgroup(%tile: memref<64x32xi32, 3>) kernel {
    // expected-error @+1 {{reduction_op = "umin" on i32 needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT32), which the tensor-map manifest cannot ask for yet: its integer types are encoded signed}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "umin"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // expected-error @+1 {{reduction_op = "inc" on i32 needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT32)}}
    "acopy.copy_smem_to_gmem"(%tile, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "inc"} : (memref<64x32xi32, 3>, memref<256x512xi32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf8E4M3FNUZ>, %i: index) workgroup(%tile: memref<64x128xf8E4M3FNUZ, 3>, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{TMA copies of element type f8E4M3FNUZ are not supported: the tensor-map manifest can only describe f16, bf16, f32, f64, i8, i16, i32, i64, f8E4M3FN, f8E5M2}}
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf8E4M3FNUZ>, memref<64x128xf8E4M3FNUZ, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A window of more bytes than an mbarrier's transaction count (1048575) is a
// tile larger than any block's shared memory: acopy-verify's A16 reports it
// before the lowering's own transaction-count check could.
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
    // expected-error @+1 {{pending = 3000000000 is too large for cp.async.bulk.wait_group}}
    "acopy.wait_smem_to_gmem"() {pending = 3000000000 : i64} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%t1: memref<1x32xf32, 3>, %t2: memref<2x32xf32, 3>, %t3: memref<3x32xf32, 3>, %t4: memref<4x32xf32, 3>, %t5: memref<5x32xf32, 3>, %t6: memref<6x32xf32, 3>, %t7: memref<7x32xf32, 3>, %t8: memref<8x32xf32, 3>, %t9: memref<9x32xf32, 3>, %t10: memref<10x32xf32, 3>, %t11: memref<11x32xf32, 3>, %t12: memref<12x32xf32, 3>, %t13: memref<13x32xf32, 3>, %t14: memref<14x32xf32, 3>, %t15: memref<15x32xf32, 3>, %t16: memref<16x32xf32, 3>, %t17: memref<17x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %t1, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<1x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %t2, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<2x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
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
    // expected-error @+1 {{this kernel would need more than 16 TMA tensor maps (one per distinct source argument, box, swizzle and OOB fill); split it or share boxes}}
    "acopy.copy_gmem_to_smem"(%src, %t17, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<17x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
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
      // expected-error @+1 {{kernel @m::@k is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode; launch it with acopy-runtime and the tensor-map manifest (docs/lowering-tma.md) instead}}
      "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
      gpu.return
    }
  }
}
