// cp.async PTX for sm_80: 16-byte cg copies, one commit group per copy, and
// wait_group N with a block barrier, at the PTX ISA version the chip needs.
// RUN: acopy-opt %s --acopy-lower --emit=ptx | FileCheck %s
// RUN: %if ptxas %{ acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx && ptxas -arch=sm_80 %t.ptx -o %t.cubin %}

// CHECK: .version 7.1
// CHECK-NEXT: .target sm_80
// CHECK-NEXT: .address_size 64
// CHECK-LABEL: .visible .entry double_buffer(
// CHECK: .shared .align 16 .b8 {{.*}}[8192];
// CHECK: .shared .align 16 .b8 {{.*}}[8192];
// CHECK-COUNT-4: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-COUNT-4: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: ld.shared
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: cp.async.bulk
// CHECK-NOT: mbarrier
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @double_buffer(%src: memref<1024x1024xf32>, %out: memref<1024x1024xf32>)
        workgroup(%a : memref<16x128xf32, 3>, %b : memref<16x128xf32, 3>) kernel
        attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %row = arith.muli %bx, %c16 : index
      %next = arith.addi %row, %c16 : index
      %col = arith.constant 0 : index
      "acopy.copy_gmem_to_smem"(%src, %a, %row, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
          : (memref<1024x1024xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.copy_gmem_to_smem"(%src, %b, %next, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
          : (memref<1024x1024xf32>, memref<16x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 1 : i64} : () -> ()
      %tx = gpu.thread_id x
      %v = memref.load %a[%col, %tx] : memref<16x128xf32, 3>
      memref.store %v, %out[%row, %tx] : memref<1024x1024xf32>
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %w = memref.load %b[%col, %tx] : memref<16x128xf32, 3>
      memref.store %w, %out[%next, %tx] : memref<1024x1024xf32>
      gpu.return
    }
  }
}
