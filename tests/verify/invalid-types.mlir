// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Element types: E10 (src and dst differ, in MLIR spelling) on every chip and
// both copy directions; our own rules for element types and empty tiles.

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @load_f32_to_f16(%src: memref<256x512xf32>, %dst: memref<64x128xf16, 3>, %i: index) kernel {
    // RULE: E10
    // expected-error @+1 {{Expected dtypes to match but src had type f32 and dst had type f16}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf16, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @load_bf16_to_i16(%src: memref<256x512xbf16>, %dst: memref<64x128xi16, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{Expected dtypes to match but src had type bf16 and dst had type i16}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xbf16>, memref<64x128xi16, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store_f8_to_i8(%tile: memref<64x128xf8E4M3FN, 3>, %out: memref<256x512xi8>, %i: index) kernel {
    // expected-error @+1 {{Expected dtypes to match but src had type f8E4M3FN and dst had type i8}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf8E4M3FN, 3>, memref<256x512xi8>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @empty_tile(%src: memref<256x512xf32>, %dst: memref<0x128xf32, 3>, %i: index) kernel {
    // RULE: A1
    // expected-error @+1 {{the dst tile memref<0x128xf32, 3> has no elements; an acopy copy needs at least one}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<0x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @index_elements(%src: memref<256x512xindex>, %dst: memref<64x128xindex, 3>, %i: index) kernel {
    // RULE: A2
    // expected-error @+1 {{acopy copies integer or float elements of 8, 16, 32 or 64 bits, but the element type is index}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xindex>, memref<64x128xindex, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @i1_elements(%src: memref<256x512xi1>, %dst: memref<64x128xi1, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{acopy copies integer or float elements of 8, 16, 32 or 64 bits, but the element type is i1}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xi1>, memref<64x128xi1, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @vector_elements(%tile: memref<64x16xvector<4xf32>, 3>, %out: memref<256x512xvector<4xf32>>, %i: index) kernel {
    // expected-error @+1 {{acopy copies integer or float elements of 8, 16, 32 or 64 bits, but the element type is vector<4xf32>}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x16xvector<4xf32>, 3>, memref<256x512xvector<4xf32>>, index, index) -> ()
    gpu.return
  }
}
