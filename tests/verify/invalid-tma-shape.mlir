// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// the documented TMA shape rules (T1-T4), and our own rules about the memrefs TMA
// can describe (A13, A14). The slice shape is the copy window: dst's shape,
// with leading 1s up to src's rank.

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @rank6(%src: memref<1x1x1x1x2x64xf32>, %dst: memref<64xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: T1
    // expected-error @+1 {{Async copies only support striding up to 5 dimensions}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 6, 1, 0>} : (memref<1x1x1x1x2x64xf32>, memref<64xf32, 3>, index, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @box_too_long(%src: memref<1024x1024xf32>, %dst: memref<512x64xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: T2
    // expected-error @+1 {{Async copies only support copying <=256 elements along each dimension, got (512, 64)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<1024x1024xf32>, memref<512x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The leading length-1 window dimensions are part of the slice shape.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @box_too_long_rank_reduced(%src: memref<4x1024xbf16>, %dst: memref<512xbf16, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies only support copying <=256 elements along each dimension, got (1, 512)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<4x1024xbf16>, memref<512xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @narrow_rows(%src: memref<256x512xf32>, %dst: memref<64x3xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: T3
    // expected-error @+1 {{Async copies require the number of bits copied along the last dimension to be divisible by 128, but got 96}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x3xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// T3 applies to TMA stores too.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @narrow_store(%tile: memref<64x12xi8, 3>, %out: memref<256x512xi8>, %i: index) kernel {
    // expected-error @+1 {{Async copies require the number of bits copied along the last dimension to be divisible by 128, but got 96}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x12xi8, 3>, memref<256x512xi8>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @swizzle_width(%src: memref<256x512xf32>, %dst: memref<64x64xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: T4
    // expected-error @+1 {{Async copies with swizzle=128 require the last dimension of the slice to be exactly 128 bytes i.e.  32 elements, but got 64 elements.}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x64xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_120">] {
  gpu.func @swizzle_32_f16(%src: memref<256x512xf16>, %dst: memref<64x32xf16, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Async copies with swizzle=32 require the last dimension of the slice to be exactly 32 bytes i.e.  16 elements, but got 32 elements.}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 32 : i64} : (memref<256x512xf16>, memref<64x32xf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Our own: f16 rows of 100 elements are 200 bytes apart, which a TMA
// descriptor cannot encode.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @row_stride(%src: memref<256x100xf16>, %dst: memref<64x64xf16, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: A13
    // expected-error @+1 {{TMA needs the innermost stride of the global memref to be 1 and every other stride to be a multiple of 16 bytes, but src memref<256x100xf16> has strides [100, 1]}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x100xf16>, memref<64x64xf16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @inner_stride(%src: memref<256x512xf32, strided<[1024, 2]>>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{TMA needs the innermost stride of the global memref to be 1 and every other stride to be a multiple of 16 bytes, but src memref<256x512xf32, strided<[1024, 2]>> has strides [1024, 2]}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 2]>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store_stride(%tile: memref<64x64xf16, 3>, %out: memref<256x100xf16>, %i: index) kernel {
    // expected-error @+1 {{TMA needs the innermost stride of the global memref to be 1 and every other stride to be a multiple of 16 bytes, but dst memref<256x100xf16> has strides [100, 1]}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x64xf16, 3>, memref<256x100xf16>, index, index) -> ()
    gpu.return
  }
}

// -----

// A layout that is not strided cannot be described by a TMA descriptor.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @not_strided(%src: memref<256x512xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{but src memref<256x512xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>> has a layout that is not strided}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Our own: TMA writes its box contiguously into shared memory.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @strided_tile(%src: memref<256x512xf32>, %dst: memref<64x128xf32, strided<[256, 1]>, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // RULE: A14
    // expected-error @+1 {{TMA copies a box to or from contiguous shared memory, but the dst tile memref<64x128xf32, strided<[256, 1]>, 3> is not contiguous}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, strided<[256, 1]>, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @strided_store_tile(%tile: memref<64x128xf32, strided<[256, 1], offset: ?>, 3>, %out: memref<256x512xf32>, %i: index) kernel {
    // expected-error @+1 {{TMA copies a box to or from contiguous shared memory, but the src tile memref<64x128xf32, strided<[256, 1], offset: ?>, 3> is not contiguous}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf32, strided<[256, 1], offset: ?>, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}
