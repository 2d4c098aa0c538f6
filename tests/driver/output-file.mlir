// -o writes the output file; a failed run leaves no file behind, not even a partial one.
// RUN: rm -f %t.out %t.bad
// RUN: acopy-opt %S/Inputs/ok.mlir -o %t.out
// RUN: FileCheck %s < %t.out
// CHECK: func.func @ok
// RUN: not acopy-opt %S/Inputs/bad.mlir -o %t.bad 2> /dev/null
// RUN: test ! -e %t.bad
// A failed run does not clobber an existing output either.
// RUN: not acopy-opt %S/Inputs/bad.mlir -o %t.out 2> /dev/null
// RUN: FileCheck %s < %t.out
// Standard input works as `-`.
// RUN: acopy-opt - < %S/Inputs/ok.mlir | FileCheck %s
// No temporary files are left in the output directory.
// RUN: rm -rf %t.dir && mkdir %t.dir && not acopy-opt %S/Inputs/bad.mlir -o %t.dir/out.mlir 2> /dev/null
// RUN: sh -c 'test -z "$(ls -A %t.dir)"'
// The output gets a regular file's mode (the temporary file's 0600 does not leak).
// RUN: rm -f %t.mode && acopy-opt %S/Inputs/ok.mlir -o %t.mode
// RUN: sh -c 'test "$(stat -c %%a %t.mode)" = 644'
// A device is written in place, never replaced by a rename (-o /dev/null stays the null device).
// RUN: acopy-opt %S/Inputs/ok.mlir -o /dev/null
// RUN: test -c /dev/null
// `-o -` is standard output.
// RUN: acopy-opt %S/Inputs/ok.mlir -o - | FileCheck %s
