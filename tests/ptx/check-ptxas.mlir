// The suite's ptxas check (tests/check_ptxas.py) itself fails when it should:
// on a .target other than the one the RUN line names, on a module count that
// differs, on input without PTX, and on PTX that ptxas rejects.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 | FileCheck %s --check-prefix=OK
// OK: ptxas -arch=sm_80: module 0 assembled
// RUN: not %check-ptxas %t.ptx sm_90 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: has PTX modules for ['sm_80'], expected ['sm_90']
// RUN: not %check-ptxas %t.ptx sm_80 sm_80 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: has PTX modules for ['sm_80'], expected ['sm_80', 'sm_80']
// RUN: not %check-ptxas %s sm_80 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: has PTX modules for [], expected ['sm_80']
// An instruction sm_80 does not have: ptxas refuses the module.
// RUN: sed -e 's/cp.async.commit_group;/cp.async.bulk.commit_group;/' %t.ptx > %t.bad.ptx
// RUN: not %check-ptxas %t.bad.ptx sm_80 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTXAS: check_ptxas: module 0 (.target sm_80) of {{.*}}: ptxas failed
// PTXAS: error   : Feature 'cp.async.bulk.commit_group' requires .target sm_90 or higher
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @copy(%src: memref<256x512xf32>) workgroup(%tile : memref<16x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
