// --tma-manifest refuses a kernel whose static shared memory it cannot
// count, or whose block size is malformed (a kernel without acopy ops too, in
// a module for one chip or several), with an error at the kernel, and writes
// no file.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --tma-manifest=%t.ignored.json
// RUN: rm -f %t.json
// RUN: not acopy-opt %s --split-input-file --tma-manifest=%t.json 2> /dev/null
// RUN: test ! -e %t.json

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: cannot count the shared memory of memref<?xf32, 3>}}
  gpu.func @k(%x: f32) workgroup(%w: memref<?xf32, 3>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: 8589934592 bytes of static shared memory}}
  gpu.func @k(%x: f32) workgroup(%w: memref<2147483648xf32, 3>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: 'nvvm.reqntid' must hold sizes of at least 1, got array<i32: 0, 1, 1>}}
  gpu.func @k(%x: f32) kernel attributes {nvvm.reqntid = array<i32: 0, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  // expected-error @+1 {{cannot write the tensor-map manifest: kernel `k`: 'nvvm.reqntid' must hold sizes of at least 1, got array<i32: 0, 1, 1>}}
  gpu.func @k(%x: f32) kernel attributes {nvvm.reqntid = array<i32: 0, 1, 1>} {
    gpu.return
  }
}
