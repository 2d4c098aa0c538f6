// --tma-manifest refuses an acopy.tensor_maps attribute it cannot read (here
// written by hand), with an error at the kernel, and writes no file.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --tma-manifest=%t.ignored.json
// RUN: rm -f %t.json
// RUN: not acopy-opt %s --split-input-file --tma-manifest=%t.json 2> /dev/null
// RUN: test ! -e %t.json

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: entry field `box` is missing or not an array<i64>}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: element type i1 has no manifest spelling}}
  gpu.func @k(%src: memref<64xi1>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = i1, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: kernel `k`, tensor map for param 0: it describes itself (arg == param)}}
  gpu.func @k(%map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 0 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: cannot determine the target chip}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

// Each field is read into the manifest's own types (acopy_manifest::TensorMapEntry):
// a swizzle that is not a byte span, an index or box size outside u32.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: swizzle must be 0, 32, 64 or 128, got 16}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 16 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: `param` -1 out of range}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = -1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: box size -64 out of range}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: -64>, swizzle = 0 : i64, oob_fill = "none"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.tensor_maps: unknown oob_fill `zeros`}}
  gpu.func @k(%src: memref<64xf32>, %map: !llvm.ptr) kernel attributes {acopy.tensor_maps = [{param = 1 : i64, arg = 0 : i64, element_type = f32, box = array<i64: 64>, swizzle = 0 : i64, oob_fill = "zeros"}]} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: malformed acopy.dynamic_shared_memory: not a byte count of at most 4294967295}}
  gpu.func @k(%src: memref<64xf32>) kernel attributes {acopy.dynamic_shared_memory = -1 : i64} {
    gpu.return
  }
}
