// MLIR 22's custom parsers of llvm.extractvalue and llvm.insertvalue crash
// (SIGSEGV) on a position of 2^32 or more that is in range mod 2^32; acopy-opt
// refuses any position from 2^32 up before parsing, decimal or hex, with an error at
// the number and exit 1. The robustness test found it: a generated wgmma kernel's
// extractvalue position 18 mutated to 4294967296. A position below 2^32 that is out
// of range gets MLIR's own error.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics
// RUN: sh -c 'acopy-opt %s --split-input-file 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s < %t.err
// CHECK: invalid-aggregate-position.mlir:14:29: error: a position of llvm.extractvalue must be below 2^32

llvm.func @extract(%a: !llvm.struct<(f32, f32)>) {
  // expected-error @+1 {{a position of llvm.extractvalue must be below 2^32 (MLIR's parser crashes on larger ones, so acopy refuses it before parsing)}}
  %v = llvm.extractvalue %a[4294967296] : !llvm.struct<(f32, f32)>
  llvm.return
}

// -----

llvm.func @insert(%a: !llvm.struct<(f32, f32)>, %x: f32) {
  // expected-error @+1 {{a position of llvm.insertvalue must be below 2^32}}
  %b = llvm.insertvalue %x, %a[0x100000000] : !llvm.struct<(f32, f32)>
  llvm.return
}

// -----

llvm.func @nested(%a: !llvm.struct<(struct<(f32, f32)>, f32)>) {
  // expected-error @+1 {{a position of llvm.extractvalue must be below 2^32}}
  %v = llvm.extractvalue %a[0, 8589934593] : !llvm.struct<(struct<(f32, f32)>, f32)>
  llvm.return
}

// -----

llvm.func @in_range_mod_2_32_only(%a: !llvm.struct<(f32, f32)>) {
  // MLIR reports it at the op after the one it parses.
  // expected-error @+2 {{position out of bounds: 4294967295}}
  %v = llvm.extractvalue %a[4294967295] : !llvm.struct<(f32, f32)>
  llvm.return
}
