// Static shared memory over the 48 KiB ptxas accepts that cannot move to dynamic
// shared memory (112 KiB on sm_86, whose blocks get at most 99 KiB), in a kernel with
// a copy: acopy-lower moves and checks it, reports the located error and fails the
// run (a mutation survivor of shard 8, 2026-12-03, reported it and still succeeded;
// the emit routes: tests/ptx/invalid-static-shared.mlir).
// RUN: acopy-opt %s --verify-diagnostics --acopy-lower -o /dev/null
// RUN: not acopy-opt %s --acopy-lower -o /dev/null 2>&1 | FileCheck %s
// Once, also when the emit route follows (the failed lowering stops the run there).
// RUN: rm -f %t.ptx
// RUN: not acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx
// CHECK: error: this kernel needs 114688 bytes of shared memory
// CHECK-NOT: error:

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  // expected-error @+1 {{this kernel needs 114688 bytes of shared memory (114688 in workgroup attributions and shared globals, moved to dynamic shared memory where ptxas's 49152-byte static limit requires it), more than the 101376 bytes sm_86 gives one block}}
  gpu.func @too_big_copy(%src: memref<256x128xf32>, %out: memref<128xf32>)
      workgroup(%a: memref<128x128xf32, 3>, %b: memref<96x128xf32, 3>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %a {oob_mode = "promise_in_bounds"} : memref<256x128xf32> -> memref<128x128xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %x = memref.load %a[%t, %c0] : memref<128x128xf32, 3>
    %y = memref.load %b[%c0, %t] : memref<96x128xf32, 3>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%t] : memref<128xf32>
    gpu.return
  }
}
