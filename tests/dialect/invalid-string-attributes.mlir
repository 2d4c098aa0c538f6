// RUN: acopy-opt %s --verify-diagnostics
// A string attribute whose bytes are not UTF-8 is a bad value like any other:
// an error at the op that prints it escaped, never a crash (melior's
// StringAttribute::value unwraps the UTF-8 check; the views read the bytes
// through acopy_dialect::string_value). Empty strings: invalid-attributes.mlir.

func.func @not_utf8(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{attribute 'oob_mode' must be one of "zeros", "promise_in_bounds", "undefined", but got "\FF"}}
  acopy.copy_gmem_to_smem %src[%i, %i] -> %dst {oob_mode = "\FF"} : memref<256x512xf32> -> memref<64x128xf32, 3>
  return
}
