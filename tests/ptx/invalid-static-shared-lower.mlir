// acopy-lower makes the same move as acopy-prepare-emit for the kernels it
// lowers (so the manifest records the bytes), and refuses the same way
// (invalid-static-shared.mlir, docs/kernel-abi.md "Shared memory"): 112 KiB of
// workgroup attributions on sm_86, whose blocks get at most 99 KiB.
// RUN: acopy-opt %s --verify-diagnostics --acopy-lower

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  // expected-error @+1 {{this kernel needs 114688 bytes of shared memory (114688 in workgroup attributions and shared globals, moved to dynamic shared memory where ptxas's 49152-byte static limit requires it), more than the 101376 bytes sm_86 gives one block}}
  gpu.func @too_big(%src: memref<4096x128xf32>, %out: memref<128xf32>)
      workgroup(%a: memref<128x128xf32, 3>, %b: memref<96x128xf32, 3>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %a {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<128x128xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %x = memref.load %a[%t, %c0] : memref<128x128xf32, 3>
    %y = memref.load %b[%c0, %t] : memref<96x128xf32, 3>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%t] : memref<128xf32>
    gpu.return
  }
}
