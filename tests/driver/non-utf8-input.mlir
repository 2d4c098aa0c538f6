// Bytes that are not UTF-8 are ordinary bytes to MLIR's parser, and mlir-opt
// accepts them; so does acopy-opt, which used to stop with a usage error
// ("stream did not contain valid UTF-8", exit 2, no location). In a comment
// they are skipped, in a string attribute kept (and printed escaped),
// elsewhere a located error; in a file, on standard input, in a later chunk.
// docs/robustness.md.
// RUN: printf '// caf\351 \377\376\n module attributes {acopy.s = "\377x"} {\n}\n' > %t.ok.mlir
// RUN: acopy-opt %t.ok.mlir | FileCheck %s --check-prefix=OK
// RUN: acopy-opt - < %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: module attributes {acopy.s = "\FFx"}
//
// RUN: printf 'module {\n}\n// -----\n// \377\nmodule {\n  \377\n}\n' > %t.bad.mlir
// RUN: sh -c 'acopy-opt --split-input-file %t.bad.mlir 2> %t.bad.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=BAD < %t.bad.err
// BAD: bad.mlir:6:3: error: unexpected character
//
// --verify-diagnostics reads the directives of a chunk that is not UTF-8.
// RUN: printf '// \377\n// expected-error @+1 {{unexpected character}}\n\377\n' > %t.verify.mlir
// RUN: acopy-opt --verify-diagnostics %t.verify.mlir
