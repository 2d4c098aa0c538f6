// The README's main command: the sm_80 streaming tile copy in examples/ goes
// to PTX, with 16-byte cp.asyncs in, plain loads and stores out.
// RUN: acopy-opt %S/../../examples/tile_copy_sm80.mlir --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80
// CHECK: .version 7.1
// CHECK: .target sm_80
// CHECK-LABEL: .visible .entry tile_copy(
// CHECK: .shared .align 16 .b8 {{.*}}[32768];
// CHECK-COUNT-8: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.b32
