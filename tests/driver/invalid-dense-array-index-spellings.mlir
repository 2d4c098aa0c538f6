// The dense-array guard reads MLIR's tokens, so every spelling that reaches
// MLIR's crashing `array<index` path is refused, with an error at the element
// type: whitespace, newlines and comments between the tokens, a type alias
// (or a chain of them) for `index`, a space before `<`. It used to skip only
// spaces and tabs, and these crashed the parser (SIGSEGV, exit 139). The guard
// is acopy_dialect::source::check_source, which embedders can call too.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// A CR and a NUL between the tokens (not expressible in this file's directives):
// RUN: printf 'module attributes {x = array<\r  index: 8>} {}\n' > %t.cr.mlir
// RUN: sh -c 'acopy-opt %t.cr.mlir 2> %t.cr.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=CR < %t.cr.err
// CR: cr.mlir:1:33: error: a dense array cannot hold index elements
// RUN: printf 'module attributes {x = array<\000index: 8>} {}\n' > %t.nul.mlir
// RUN: sh -c 'acopy-opt %t.nul.mlir 2> %t.nul.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=NUL < %t.nul.err
// NUL: nul.mlir:1:31: error: a dense array cannot hold index elements

module attributes {sizes = array<
  // expected-error @+1 {{a dense array cannot hold index elements}}
  index: 8>} {
}

// -----

module attributes {sizes = array< // a comment
  // expected-error @+1 {{a dense array cannot hold index elements}}
  index: 8>} {
}

// -----

// expected-error @+1 {{a dense array cannot hold index elements}}
module attributes {sizes = array <index: 8>} {
}

// -----

!t = index
// expected-error @+1 {{a dense array cannot hold index elements}}
module attributes {sizes = array<!t: 8>} {
}

// -----

!t = index
!u = !t
// expected-error @+1 {{a dense array cannot hold index elements}}
module attributes {sizes = array<!u: 8>} {
}

// -----

// An attribute alias holding the array is refused at its definition.
// expected-error @+1 {{a dense array cannot hold index elements}}
#sizes = array<index: 8>
module attributes {sizes = #sizes} {
}

// -----

// Arrays of other types, an alias to another type and !llvm.array stay valid.
!i = i64
module attributes {acopy.a = array<!i: 8>, acopy.b = array<i32>, acopy.c = array<i1: true>} {
  llvm.mlir.global external @g() : !llvm.array<2 x i64>
}
