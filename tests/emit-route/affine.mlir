// The affine dialect inside kernels, compute only: loops, loads and stores
// through maps, min/max, if. sm_80 and sm_90 through acopy-opt's emit route.
// Upstream's gpu-lower-to-nvvm-pipeline runs lower-affine after
// convert-scf-to-cf, so the scf.for and scf.if that affine.for and affine.if
// become are never lowered and its translation fails; acopy's route lowers
// affine first (docs/embedding.md, "The emit route"). The last RUN lines pin
// that difference.
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90
// RUN: not mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast
// UPSTREAM: error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: scf.if

// CHECK-LABEL: .entry affine_loop(
// CHECK: add.rn.f32
gpu.module @m {
  gpu.func @affine_loop(%in: memref<64x64xf32>, %out: memref<64xf32>) kernel {
    %t = gpu.thread_id x
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %k = 0 to 64 step 2 iter_args(%acc = %zero) -> f32 {
      %x = affine.load %in[%t, %k + 1] : memref<64x64xf32>
      %y = arith.addf %acc, %x : f32
      affine.yield %y : f32
    }
    affine.store %sum, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry affine_min_if(
// CHECK: min.s64
gpu.module @m {
  gpu.func @affine_min_if(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) kernel {
    %t = gpu.thread_id x
    %i = affine.min affine_map<(d0)[s0] -> (d0 * 2, s0 - 1)>(%t)[%n]
    %j = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
    affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>(%j)[%n] {
      %x = affine.load %in[%j] : memref<64xf32>
      affine.store %x, %out[%j] : memref<64xf32>
    }
    gpu.return
  }
}
