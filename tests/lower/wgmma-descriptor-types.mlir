// acopy.wgmma_descriptor for every wgmma operand type the GPU suite runs: f16,
// bf16, f32 (read as tf32) and i8 tiles of one 128-byte swizzle span (64, 64, 32
// and 128 elements per row) lower to PTX that ptxas accepts for sm_90a. Each
// kernel is the suite's own (tests/gpu/wgmma/gen.py), exact on an H200.
// RUN: acopy-opt %S/../gpu/kernels/wgmma_f16_s128_n128.mlir --acopy-lower --emit=ptx -o %t.f16.ptx
// RUN: acopy-opt %S/../gpu/kernels/wgmma_bf16_s128_n128.mlir --acopy-lower --emit=ptx -o %t.bf16.ptx
// RUN: acopy-opt %S/../gpu/kernels/wgmma_tf32_s128_n128.mlir --acopy-lower --emit=ptx -o %t.tf32.ptx
// RUN: acopy-opt %S/../gpu/kernels/wgmma_i8_s128_n128.mlir --acopy-lower --emit=ptx -o %t.i8.ptx
// RUN: %check-ptxas %t.f16.ptx sm_90a
// RUN: %check-ptxas %t.bf16.ptx sm_90a
// RUN: %check-ptxas %t.tf32.ptx sm_90a
// RUN: %check-ptxas %t.i8.ptx sm_90a
// RUN: FileCheck %s --check-prefix=TF32 < %t.tf32.ptx
// RUN: FileCheck %s --check-prefix=I8 < %t.i8.ptx
// TF32: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// I8: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
