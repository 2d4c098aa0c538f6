// Values that depend on a loop's induction variable are built inside the loop,
// never at the kernel's top (only values of kernel arguments and constants go
// there): here two copies at the same start %iv, the second in an scf.if of the
// loop body, share a row start that is the loop's own. The IR verifies after
// the pass (acopy-opt verifies it), so no use of %iv has left the loop.
// (The second block computes the row again: a value is reused only within the
// block that built it, or from the kernel's top.)
// RUN: acopy-opt %s --acopy-lower -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %check-no-dead-ops %t.mlir
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: gpu.func @iv_in_two_blocks
// CHECK: scf.for %[[IV:[0-9a-z_]+]] = %arg1 to %arg2 step %arg3 {
// CHECK: arith.muli %[[IV]], %c512 : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: scf.if %arg4 {
// CHECK: arith.muli %[[IV]], %c512 : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: gpu.return

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @iv_in_two_blocks(%src: memref<256x512xf32>, %lo: index, %hi: index, %step: index, %p: i1)
      workgroup(%a : memref<32x128xf32, 3>, %b : memref<32x128xf32, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    scf.for %iv = %lo to %hi step %step {
      "acopy.copy_gmem_to_smem"(%src, %a, %iv, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
          : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
      scf.if %p {
        "acopy.copy_gmem_to_smem"(%src, %b, %iv, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
            : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
      }
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    }
    gpu.return
  }
}
