// acopy-tensor-map-params refuses an acopy.tensor_maps attribute it cannot apply.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(acopy-tensor-map-params)'

// expected-error @+1 {{acopy.tensor_maps is only meaningful on a kernel (nvvm.kernel); tensor maps must be kernel parameters}}
llvm.func @not_kernel(%map: !llvm.ptr) attributes {acopy.tensor_maps = [{param = 0 : i64, arg = 1 : i64, element_type = f32, box = array<i64: 8>, swizzle = 0 : i64, oob_fill = "none"}]} {
  llvm.return
}

// -----

// expected-error @+1 {{the kernel lists 2 tensor maps in acopy.tensor_maps but has only 1 arguments}}
llvm.func @too_many(%map: !llvm.ptr) attributes {nvvm.kernel, acopy.tensor_maps = [{}, {}]} {
  llvm.return
}

// -----

// expected-error @+1 {{argument 0 of the kernel should be a tensor map (!llvm.ptr) but is not; was the signature changed after acopy-lower?}}
llvm.func @wrong_type(%x: i64) attributes {nvvm.kernel, acopy.tensor_maps = [{}]} {
  llvm.return
}

// -----

// expected-error @+1 {{a kernel with TMA tensor maps has no body}}
llvm.func @declaration(!llvm.ptr) attributes {nvvm.kernel, acopy.tensor_maps = [{}]}
