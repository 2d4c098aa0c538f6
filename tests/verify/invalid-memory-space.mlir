// A memref in a memory space MLIR's lowering to NVVM cannot map (a string here;
// only none, an integer or #gpu.address_space<...> map) is refused where the value
// is defined, by acopy-verify and by acopy-lower before it lowers anything, instead
// of the conversion's "failed to legalize operation 'gpu.func'" with no op named.
// The robustness property test found it: a kernel argument's memory space mutated
// to "shared" verified and then failed to lower (docs/robustness.md).
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Nothing of the conversion's failure may follow any of the errors (a shard-10
// mutation survivor, 2026-12-03, let the first kernel go on to it unnoticed).
// RUN: not acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --implicit-check-not=legalize --implicit-check-not="conversion of"
// CHECK: 'gpu.func' uses memref<64xf32, "shared">, whose memory space "shared" the lowering to NVVM cannot map to an address space
// CHECK: 'memref.alloca' uses memref<4xf32, {space = 1 : i64}>, whose memory space {space = 1 : i64} the lowering to NVVM cannot map

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{'gpu.func' uses memref<64xf32, "shared">, whose memory space "shared" the lowering to NVVM cannot map to an address space: use no memory space (global), an integer (3 is shared) or #gpu.address_space<global|workgroup|private>}}
  gpu.func @k(%out: memref<64xf32, "shared">) kernel {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    memref.store %x, %out[%c0] : memref<64xf32, "shared">
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%out: memref<64xf32>) kernel {
    // expected-error @+1 {{'memref.alloca' uses memref<4xf32, {space = 1 : i64}>, whose memory space {space = 1 : i64} the lowering to NVVM cannot map}}
    %buf = memref.alloca() : memref<4xf32, {space = 1 : i64}>
    gpu.return
  }
}
