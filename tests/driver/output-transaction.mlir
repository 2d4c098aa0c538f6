// -o and --tma-manifest are one transaction: both files are written, or
// neither. The manifest used to be written first and stay behind when -o
// then failed. docs/robustness.md.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// A -o that cannot be written (its directory is missing): no new manifest,
// and an existing manifest keeps its contents.
// RUN: not acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower -o %t.dir/missing/out.mlir --tma-manifest %t.dir/new.json 2> %t.err
// RUN: FileCheck %s --check-prefix=MISSING < %t.err
// MISSING: acopy-opt: error: could not write output file '{{.*}}missing/out.mlir'
// RUN: test ! -e %t.dir/new.json
// RUN: echo old > %t.dir/old.json
// RUN: not acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower -o %t.dir/missing/out.mlir --tma-manifest %t.dir/old.json 2> /dev/null
// RUN: grep -qx old %t.dir/old.json
// A manifest that cannot be written: no -o file either.
// RUN: not acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower -o %t.dir/out.mlir --tma-manifest %t.dir/missing/m.json 2> /dev/null
// RUN: test ! -e %t.dir/out.mlir
// Both written when both can be.
// RUN: acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower -o %t.dir/out.mlir --tma-manifest %t.dir/m.json
// RUN: FileCheck %s --check-prefix=OUT < %t.dir/out.mlir
// OUT: func.func @ok
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.dir/m.json
// MANIFEST: "kernels"
//
// The same file for both is a usage error (exit 2), also through a symlink
// or another spelling of the path; the file is left alone.
// RUN: echo keep > %t.dir/same
// RUN: ln -sf same %t.dir/link
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir -o %t.dir/same --tma-manifest %t.dir/same 2> %t.err; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=SAME < %t.err
// SAME: acopy-opt: error: -o and --tma-manifest name the same file
// RUN: sh -c 'acopy-opt %S/Inputs/ok.mlir -o %t.dir/link --tma-manifest %t.dir/./same 2> /dev/null; test $? -eq 2'
// RUN: grep -qx keep %t.dir/same
// Two devices are not one file: -o /dev/null --tma-manifest /dev/null works.
// RUN: acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower -o /dev/null --tma-manifest /dev/null
//
// -o through a symlink writes the link's target, and the link stays a link,
// as with mlir-opt (also for a chain of links, and for the manifest).
// RUN: echo old > %t.dir/target.mlir
// RUN: ln -sf target.mlir %t.dir/out-link
// RUN: ln -sf out-link %t.dir/out-chain
// RUN: acopy-opt %S/Inputs/ok.mlir -o %t.dir/out-chain
// RUN: test -L %t.dir/out-chain
// RUN: test -L %t.dir/out-link
// RUN: FileCheck %s --check-prefix=OUT < %t.dir/target.mlir
// RUN: ln -sf m.json %t.dir/m-link
// RUN: acopy-opt %S/Inputs/ok.mlir --chip=sm_80 --acopy-lower --tma-manifest %t.dir/m-link -o /dev/null
// RUN: test -L %t.dir/m-link
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.dir/m.json
// A dangling link: its target is created.
// RUN: ln -sf created.mlir %t.dir/dangling
// RUN: acopy-opt %S/Inputs/ok.mlir -o %t.dir/dangling
// RUN: test -L %t.dir/dangling
// RUN: FileCheck %s --check-prefix=OUT < %t.dir/created.mlir
// No temporary files are left behind.
// RUN: sh -c 'test -z "$(ls -A %t.dir | grep -v -x -e old.json -e out.mlir -e m.json -e same -e link -e target.mlir -e out-link -e out-chain -e m-link -e dangling -e created.mlir)"'
