// The manifest is read after acopy-lower: asked for on IR that still holds
// acopy ops (no --acopy-lower), it is an error at the first of them and no
// file is written, never an empty manifest.
// RUN: acopy-opt %s --verify-diagnostics --tma-manifest=%t.ignored.json
// RUN: rm -f %t.json
// RUN: not acopy-opt %s --acopy-verify --tma-manifest=%t.json 2> /dev/null
// RUN: test ! -e %t.json

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64xf32>) workgroup(%bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{cannot write the tensor-map manifest: 'acopy.barrier_init' is not lowered yet: the manifest can only be read after acopy-lower, which records the tensor maps}}
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}
