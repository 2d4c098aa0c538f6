// An #nvvm.target chip that is not sm_ and a number (that fits 31 bits) is
// refused before parsing, with acopy's unknown-chip error at the string.
// Upstream's gpu.module verifier reads such a chip into an uninitialized int,
// so its "Minimum NVVM target SM version is sm_20" came and went from run to
// run (exit 0 or 1, as with mlir-opt). Each case runs ten times: the answer
// must be the same every time. docs/robustness.md.
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do acopy-opt %s --split-input-file --verify-diagnostics || exit 1; done'
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do acopy-opt %s --split-input-file > /dev/null 2> %t.err; test $? -eq 1 || exit 1; done'
// RUN: FileCheck %s < %t.err
// CHECK: invalid-target-chip.mlir:15:42: error: unknown chip "unknown"; acopy supports: sm_80,
// CHECK-SAME: (the chip of an #nvvm.target must be sm_ and a number)
// CHECK-NOT: Minimum NVVM target

// expected-error @+1 {{unknown chip "unknown"; acopy supports: sm_80}}
gpu.module @unknown [#nvvm.target<chip = "unknown">] {
}

// -----

// expected-error @+1 {{unknown chip ""}}
gpu.module @empty [#nvvm.target<chip = "">] {
}

// -----

// expected-error @+1 {{unknown chip "sm_"}}
gpu.module @no_number [#nvvm.target<O = 3, chip = "sm_", features = "+ptx80">] {
}

// -----

// expected-error @+1 {{unknown chip "compute_90"}}
gpu.module @compute [#nvvm.target<chip = "compute_90">] {
}

// -----

// Too large for upstream's int.
// expected-error @+1 {{unknown chip "sm_2147483648"}}
gpu.module @too_large [#nvvm.target<chip = "sm_2147483648">] {
}

// -----

// expected-error @+1 {{unknown chip "sm_1000000000000000000000"}}
gpu.module @huge [#nvvm.target<chip = "sm_1000000000000000000000">] {
}

// -----

// An escaped NUL.
// expected-error @+1 {{unknown chip "\0"}}
gpu.module @nul [#nvvm.target<chip = "\00">] {
}

// -----

// Through an attribute alias, the error is at the alias's definition.
// expected-error @+1 {{unknown chip "gfx90a"}}
#target = #nvvm.target<chip = "gfx90a">
gpu.module @alias [#target] {
}

// -----

// Over several lines, with a comment between the tokens.
gpu.module @lines [#nvvm.target<
    chip // the chip
    =
    // expected-error @+1 {{unknown chip "x"}}
    "x">] {
}
