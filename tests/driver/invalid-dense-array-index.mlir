// MLIR 22's parser crashes (SIGSEGV) on a dense array of index; acopy-opt
// refuses it before parsing, with an error at the element type and exit 1.
// RUN: acopy-opt %s --verify-diagnostics
// RUN: sh -c 'acopy-opt %s 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s < %t.err
// CHECK: invalid-dense-array-index.mlir:9:34: error: a dense array cannot hold index elements: use array<i64: ...>

// expected-error @+1 {{a dense array cannot hold index elements}}
module attributes {sizes = array<index: 8>} {
}
