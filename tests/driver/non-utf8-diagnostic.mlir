// A diagnostic whose message holds bytes that are not UTF-8 (MLIR puts the
// symbol "\FF" in it raw) prints with replacement characters and exit 1; it
// used to panic in the driver ("a Display implementation returned an error").
// RUN: acopy-opt %s --verify-diagnostics
// RUN: sh -c 'acopy-opt %s 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s < %t.err
// CHECK: non-utf8-diagnostic.mlir:11:3: error: 'func.call' op '{{.*}}' does not reference a valid function

func.func @caller() {
  // expected-error @+1 {{does not reference a valid function}}
  func.call @"\FF"() : () -> ()
  return
}
