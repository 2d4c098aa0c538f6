// 2000 small --split-input-file chunks run in well under 10 s: one context
// serves every chunk, and each chunk is parsed alone (its diagnostics moved
// to the file's lines) instead of behind blank lines. It took about 9 ms a
// chunk (2000 chunks: 32 s) when each chunk made a context (loading every
// dialect). docs/robustness.md records the times. The limit is generous for
// a loaded CI machine and a debug build; it is a hang check, not a benchmark.
// RUN: awk 'BEGIN { for (i = 0; i < 2000; i++) { if (i) print "// -----"; printf "func.func @f%%d(%%%%a: i32) -> i32 {\n  return %%%%a : i32\n}\n", i } }' > %t.ok.mlir
// RUN: timeout 10 acopy-opt --split-input-file %t.ok.mlir -o %t.out
// RUN: sh -c 'test "$(grep -c "^  func.func @f" %t.out)" -eq 2000'
// RUN: FileCheck %s < %t.out
// CHECK: func.func @f0(
// CHECK: func.func @f1999(
//
// Every chunk with an error, checked by --verify-diagnostics at its own line,
// and printed at the file's line (the return of chunk 1999 is on line 11998).
// RUN: awk 'BEGIN { for (i = 0; i < 2000; i++) { if (i) print "// -----"; print "func.func @g() {"; print "  %%c = arith.constant 0 : i32"; printf "  // expected-error @+1 {{%%s}}\n", "has 1 operands, but enclosing function"; print "  return %%c : i32"; print "}" } }' > %t.bad.mlir
// RUN: timeout 10 acopy-opt --split-input-file --verify-diagnostics %t.bad.mlir
// RUN: sh -c 'timeout 10 acopy-opt --split-input-file %t.bad.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=BAD < %t.err
// BAD: bad.mlir:4:3: error: 'func.return' op has 1 operands
// BAD: bad.mlir:11998:3: error: 'func.return' op has 1 operands
