// dialect/acopy.irdl.mlir is what tblgen-to-irdl makes of dialect/acopy.td:
// after a change to the .td, run dialect/gen-irdl.sh and commit the result.
// RUN: sh %S/../../dialect/gen-irdl.sh %t.irdl.mlir
// RUN: diff %S/../../dialect/acopy.irdl.mlir %t.irdl.mlir
// The file defines all six ops.
// RUN: FileCheck %s < %S/../../dialect/acopy.irdl.mlir
// CHECK: irdl.dialect @acopy
// CHECK-DAG: irdl.operation @barrier_init
// CHECK-DAG: irdl.operation @barrier_wait
// CHECK-DAG: irdl.operation @copy_gmem_to_smem
// CHECK-DAG: irdl.operation @copy_smem_to_gmem
// CHECK-DAG: irdl.operation @wait_gmem_to_smem
// CHECK-DAG: irdl.operation @wait_smem_to_gmem
