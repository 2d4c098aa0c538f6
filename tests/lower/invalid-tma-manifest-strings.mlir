// An empty or non-UTF-8 oob_fill in a hand-written acopy.tensor_maps is a
// malformed entry: an error at the kernel and no manifest, never a crash
// (melior's StringAttribute::value panics on both).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --tma-manifest=%t.ignored.json

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: unknown oob_fill ``}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = ""}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: unknown oob_fill ``}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "\FF"}]} {
    gpu.return
  }
}
