// Rule P2 (docs/verification.md): the attribute on an op that is not an scf.for.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// RUN: not acopy-opt %s --split-input-file --acopy-pipeline 2>&1 | FileCheck %s
// CHECK-COUNT-1: error: 

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %idx: memref<64xindex>) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    // RULE: P2
    // expected-error @+1 {{acopy.pipeline marks scf.for loops only, but it is on 'scf.execute_region'}}
    scf.execute_region {
      scf.yield
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
