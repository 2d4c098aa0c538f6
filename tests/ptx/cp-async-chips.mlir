// cp.async PTX for each Ampere/Ada chip: 16-byte cg copies, one commit group
// per copy, and wait_group N with a block barrier, at the PTX ISA version the
// chip needs (7.1 for sm_80 and sm_86, 7.4 for sm_87, 7.8 for sm_89). The
// module names sm_80; --chip gives the others.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: acopy-opt %s --acopy-lower --emit=ptx --chip=sm_86 -o %t.86.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM86 < %t.86.ptx
// RUN: %check-ptxas %t.86.ptx sm_86
// RUN: acopy-opt %s --acopy-lower --emit=ptx --chip=sm_87 -o %t.87.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM87 < %t.87.ptx
// RUN: %check-ptxas %t.87.ptx sm_87
// RUN: acopy-opt %s --acopy-lower --emit=ptx --chip=sm_89 -o %t.89.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM89 < %t.89.ptx
// RUN: %check-ptxas %t.89.ptx sm_89

// SM80: .version 7.1
// SM80-NEXT: .target sm_80
// SM86: .version 7.1
// SM86-NEXT: .target sm_86
// SM87: .version 7.4
// SM87-NEXT: .target sm_87
// SM89: .version 7.8
// SM89-NEXT: .target sm_89
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
