// A NUL byte is whitespace to MLIR's lexer, and mlir-opt accepts it; so does
// acopy-opt, wherever it is: in a comment, between tokens, in a string
// attribute, on standard input, in a later --split-input-file chunk. It used
// to panic in melior's Module::parse (exit 101). docs/robustness.md.
// RUN: printf 'func.func @f() {\n  // a \000 in a comment\n  return\000\n}\000\n' > %t.comment.mlir
// RUN: acopy-opt %t.comment.mlir | FileCheck %s --check-prefix=FUNC
// RUN: acopy-opt - < %t.comment.mlir | FileCheck %s --check-prefix=FUNC
// FUNC: func.func @f() {
// FUNC-NEXT: return
// FUNC-NEXT: }
//
// In a string attribute it is kept, and printed escaped.
// RUN: printf 'module attributes {acopy.s = "a\000b"} {\n}\n' > %t.string.mlir
// RUN: acopy-opt %t.string.mlir | FileCheck %s --check-prefix=STRING
// STRING: module attributes {acopy.s = "a\00b"}
//
// In a later chunk, next to an error that must keep its line (6) in the file.
// RUN: printf 'module {\n}\n// -----\nmodule attributes {acopy.s = "\000"} {\n}\n// \000\n"test.unknown"() : () -> ()\n' > %t.split.mlir
// RUN: not acopy-opt --split-input-file %t.split.mlir 2> %t.split.err
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.err
// SPLIT: split.mlir:7:15: error: operation being parsed with an unregistered dialect
// SPLIT-NOT: panicked
//
// Where a NUL makes the text invalid, the error is located and the status is 1.
// RUN: printf 'module {\n  x\000 = 1\n}\n' > %t.bad.mlir
// RUN: sh -c 'acopy-opt %t.bad.mlir 2> %t.bad.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=BAD < %t.bad.err
// BAD: bad.mlir:2:3: error: custom op 'x' is unknown
