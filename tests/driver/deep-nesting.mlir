// Nesting is limited to 1000 levels of (, [, { and < together (MAX_NESTING in
// dialect/src/source.rs; docs/robustness.md): deeper input is an error at
// the first bracket past the limit, with exit 1, before MLIR's parser sees
// it. About 5000 levels used to overflow the stack (abort, exit 134), as they
// still do in mlir-opt. Input at the limit parses, runs the passes and
// prints, on the driver's large-stack thread. Each kind of nesting: regions,
// nested modules, array attributes, tuple types, affine parentheses.
//
// 995 levels of the construct, plus its wrapper's 1-3: at most 998.
// RUN: awk 'BEGIN { print "func.func @f() {"; for (i = 0; i < 995; i++) print "scf.execute_region {"; for (i = 0; i < 995; i++) { print "scf.yield"; print "}" }; print "return"; print "}" }' > %t.regions.mlir
// RUN: acopy-opt %t.regions.mlir --acopy-lower | FileCheck %s --check-prefix=REGIONS
// REGIONS: scf.yield
// RUN: awk 'BEGIN { for (i = 0; i < 995; i++) print "module {"; for (i = 0; i < 995; i++) print "}" }' > %t.modules.mlir
// RUN: acopy-opt %t.modules.mlir --acopy-verify | FileCheck %s --check-prefix=MODULES
// MODULES-COUNT-995: module {
// RUN: awk 'BEGIN { printf "module attributes {acopy.x = "; for (i = 0; i < 995; i++) printf "["; for (i = 0; i < 995; i++) printf "]"; print "} {}" }' > %t.attr.mlir
// RUN: acopy-opt %t.attr.mlir | FileCheck %s --check-prefix=ATTR
// ATTR: acopy.x = {{\[\[\[\[}}
// RUN: awk 'BEGIN { printf "func.func private @f("; for (i = 0; i < 995; i++) printf "tuple<"; printf "i32"; for (i = 0; i < 995; i++) printf ">"; print ")" }' > %t.tuple.mlir
// RUN: acopy-opt %t.tuple.mlir | FileCheck %s --check-prefix=TUPLE
// TUPLE: func.func private @f(tuple<tuple<tuple<
// RUN: awk 'BEGIN { printf "module attributes {acopy.m = affine_map<(d0) -> ("; for (i = 0; i < 995; i++) printf "("; printf "d0"; for (i = 0; i < 995; i++) printf ")"; print ")>} {}" }' > %t.affine.mlir
// RUN: acopy-opt %t.affine.mlir | FileCheck %s --check-prefix=AFFINE
// AFFINE: affine_map<(d0) -> (d0)>
//
// 5000 levels: an error at the 1001st level, exit 1.
// RUN: awk 'BEGIN { print "func.func @f() {"; for (i = 0; i < 5000; i++) print "scf.execute_region {"; for (i = 0; i < 5000; i++) { print "scf.yield"; print "}" }; print "return"; print "}" }' > %t.deep-regions.mlir
// RUN: sh -c 'acopy-opt %t.deep-regions.mlir --acopy-lower 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-REGIONS < %t.err
// DEEP-REGIONS: deep-regions.mlir:1001:20: error: nesting deeper than 1000 levels of brackets, braces, parentheses and angle brackets
// RUN: awk 'BEGIN { for (i = 0; i < 5000; i++) print "module {"; for (i = 0; i < 5000; i++) print "}" }' > %t.deep-modules.mlir
// RUN: sh -c 'acopy-opt %t.deep-modules.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-MODULES < %t.err
// DEEP-MODULES: deep-modules.mlir:1001:8: error: nesting deeper than 1000 levels
// RUN: awk 'BEGIN { printf "module attributes {acopy.x = "; for (i = 0; i < 5000; i++) printf "["; for (i = 0; i < 5000; i++) printf "]"; print "} {}" }' > %t.deep-attr.mlir
// RUN: sh -c 'acopy-opt %t.deep-attr.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-ATTR < %t.err
// DEEP-ATTR: deep-attr.mlir:1:1029: error: nesting deeper than 1000 levels
// RUN: awk 'BEGIN { printf "func.func private @f("; for (i = 0; i < 5000; i++) printf "tuple<"; printf "i32"; for (i = 0; i < 5000; i++) printf ">"; print ")" }' > %t.deep-tuple.mlir
// RUN: sh -c 'acopy-opt %t.deep-tuple.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-TUPLE < %t.err
// DEEP-TUPLE: deep-tuple.mlir:1:6021: error: nesting deeper than 1000 levels
// RUN: awk 'BEGIN { printf "module attributes {acopy.m = affine_map<(d0) -> ("; for (i = 0; i < 5000; i++) printf "("; printf "d0"; for (i = 0; i < 5000; i++) printf ")"; print ")>} {}" }' > %t.deep-affine.mlir
// RUN: sh -c 'acopy-opt %t.deep-affine.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-AFFINE < %t.err
// DEEP-AFFINE: deep-affine.mlir:1:1047: error: nesting deeper than 1000 levels
//
// The same through --split-input-file, in a later chunk (line numbers of the file).
// RUN: sh -c '(echo "module {}"; echo "// -----"; cat %t.deep-modules.mlir) > %t.deep-split.mlir'
// RUN: sh -c 'acopy-opt --split-input-file %t.deep-split.mlir 2> %t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=DEEP-SPLIT < %t.err
// DEEP-SPLIT: deep-split.mlir:1003:8: error: nesting deeper than 1000 levels
