// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Stores (copy_smem_to_gmem) are TMA stores: pre-Hopper chips have none, and
// reductions follow the TMA dtype table.

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @store_on_ampere(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index) kernel {
    // RULE: A5
    // expected-error @+1 {{copy_smem_to_gmem is only supported on Hopper and newer GPUs, which have TMA stores; sm_80 uses the cp.async implementation, which only copies GMEM->SMEM}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @wait_store_on_ada() kernel {
    // RULE: A6
    // expected-error @+1 {{wait_smem_to_gmem waits for TMA stores, which only Hopper and newer GPUs have; sm_89 has none}}
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @min_f32(%tile: memref<64x128xf32, 3>, %out: memref<256x512xf32>, %i: index) kernel {
    // RULE: A15
    // expected-error @+1 {{reduction_op = "min" does not support element type f32; it supports f16, bf16}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "min"} : (memref<64x128xf32, 3>, memref<256x512xf32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @add_f64(%tile: memref<64x128xf64, 3>, %out: memref<256x512xf64>, %i: index) kernel {
    // expected-error @+1 {{reduction_op = "add" does not support element type f64; it supports f16, bf16, f32, i32, i64}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x128xf64, 3>, memref<256x512xf64>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @inc_i64(%tile: memref<64x128xi64, 3>, %out: memref<256x512xi64>, %i: index) kernel {
    // expected-error @+1 {{reduction_op = "inc" does not support element type i64; it supports no element type yet: it needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT32), which the tensor-map manifest cannot ask for (its integer types are encoded signed)}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "inc"} : (memref<64x128xi64, 3>, memref<256x512xi64>, index, index) -> ()
    gpu.return
  }
}

// -----

// umin, umax, inc and dec need an unsigned tensor map, which the manifest
// cannot describe yet: A15 refuses them on every type, as the lowering would.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @unsigned(%tile: memref<64x128xi32, 3>, %out: memref<256x512xi32>, %tile64: memref<64x128xi64, 3>, %out64: memref<256x512xi64>, %i: index) kernel {
    // expected-error @+1 {{reduction_op = "umin" does not support element type i32; it supports no element type yet: it needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT32)}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "umin"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // expected-error @+1 {{reduction_op = "umax" does not support element type i64; it supports no element type yet: it needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT64)}}
    "acopy.copy_smem_to_gmem"(%tile64, %out64, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "umax"} : (memref<64x128xi64, 3>, memref<256x512xi64>, index, index) -> ()
    // expected-error @+1 {{reduction_op = "inc" does not support element type i32; it supports no element type yet}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "inc"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    // expected-error @+1 {{reduction_op = "dec" does not support element type i32; it supports no element type yet}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "dec"} : (memref<64x128xi32, 3>, memref<256x512xi32>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @smax_f16(%tile: memref<64x128xf16, 3>, %out: memref<256x512xf16>, %i: index) kernel {
    // expected-error @+1 {{reduction_op = "smax" does not support element type f16; it supports i32, i64}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "smax"} : (memref<64x128xf16, 3>, memref<256x512xf16>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @xor_i8(%tile: memref<64x128xi8, 3>, %out: memref<256x512xi8>, %i: index) kernel {
    // expected-error @+1 {{reduction_op = "xor" does not support element type i8; it supports i32, i64}}
    "acopy.copy_smem_to_gmem"(%tile, %out, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "xor"} : (memref<64x128xi8, 3>, memref<256x512xi8>, index, index) -> ()
    gpu.return
  }
}
