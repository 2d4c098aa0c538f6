// Every gpu.module that holds a lowered acopy op gets its chip's PTX ISA in its
// target, not only the first such module; a module without acopy ops keeps the
// target it had (README, "Supported chips": the PTX ISA handed to LLVM is the
// chip's). Each module here has two acopy ops, so a module is seen twice.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90 sm_89 sm_90

// CHECK: gpu.module @ampere [#nvvm.target<chip = "sm_80", features = "+ptx71">]
// CHECK: gpu.module @untouched [#nvvm.target<chip = "sm_90">]
// CHECK: gpu.module @ada [#nvvm.target<chip = "sm_89", features = "+ptx78">]
// CHECK: gpu.module @hopper [#nvvm.target<chip = "sm_90", features = "+ptx80">]

// PTX-LABEL: // acopy-opt: gpu.module @ampere
// PTX: .version 7.1
// PTX-NEXT: .target sm_80
// PTX-LABEL: // acopy-opt: gpu.module @untouched
// PTX-LABEL: // acopy-opt: gpu.module @ada
// PTX: .version 7.8
// PTX-NEXT: .target sm_89
// PTX-LABEL: // acopy-opt: gpu.module @hopper
// PTX: .version 8.0
// PTX-NEXT: .target sm_90

gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @two_copies(%src: memref<256x512xf32>) workgroup(%a : memref<32x128xf32, 3>, %b : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    "acopy.copy_gmem_to_smem"(%src, %a, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %b, %c32, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

gpu.module @untouched [#nvvm.target<chip = "sm_90">] {
  gpu.func @no_acopy_ops(%out: memref<4xf32>) kernel {
    gpu.return
  }
}

gpu.module @ada [#nvvm.target<chip = "sm_89">] {
  gpu.func @two_copies(%src: memref<256x512xf32>) workgroup(%a : memref<32x128xf32, 3>, %b : memref<32x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    "acopy.copy_gmem_to_smem"(%src, %a, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%src, %b, %c32, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}

gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
  gpu.func @two_barrier_ops(%parity: i1) workgroup(%bar : memref<1xi64, 3>) kernel {
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
