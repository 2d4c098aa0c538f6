// The kernel ABI (docs/kernel-abi.md): a memref argument of rank r arrives as
// allocated pointer, aligned pointer, offset, r sizes and r strides; scalars
// arrive as one parameter each; workgroup attributions are not parameters.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80
// RUN: acopy-opt %s --acopy-lower --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: .visible .entry abi(
// rank 1: memref<8xf32>
// CHECK-NEXT: .param .u64 .ptr .align 1 abi_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 abi_param_1,
// CHECK-NEXT: .param .u64 abi_param_2,
// CHECK-NEXT: .param .u64 abi_param_3,
// CHECK-NEXT: .param .u64 abi_param_4,
// rank 2, dynamic: memref<?x?xf16>
// CHECK-NEXT: .param .u64 .ptr .align 1 abi_param_5,
// CHECK-NEXT: .param .u64 .ptr .align 1 abi_param_6,
// CHECK-NEXT: .param .u64 abi_param_7,
// CHECK-NEXT: .param .u64 abi_param_8,
// CHECK-NEXT: .param .u64 abi_param_9,
// CHECK-NEXT: .param .u64 abi_param_10,
// CHECK-NEXT: .param .u64 abi_param_11,
// rank 3 in address space 1: memref<2x8x64xi8, 1>
// CHECK-NEXT: .param .u64 .ptr .global .align 1 abi_param_12,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 abi_param_13,
// CHECK-COUNT-7: .param .u64 abi_param_{{[0-9]+}},
// index, i32, f32, i1
// CHECK-NEXT: .param .u64 abi_param_21,
// CHECK-NEXT: .param .u32 abi_param_22,
// CHECK-NEXT: .param .f32 abi_param_23,
// CHECK-NEXT: .param .u8 abi_param_24
// CHECK-NEXT: )
// The tile is a .shared variable, not a parameter.
// CHECK: .shared .align 16 .b8 {{.*}}[512];

// LLVM: define ptx_kernel void @abi(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, ptr %5, ptr %6, i64 %7, i64 %8, i64 %9, i64 %10, i64 %11, ptr addrspace(1) %12, ptr addrspace(1) %13, i64 %14, i64 %15, i64 %16, i64 %17, i64 %18, i64 %19, i64 %20, i64 %21, i32 %22, float %23, i1 %24)
gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
  gpu.func @abi(%a: memref<8xf32>, %b: memref<?x?xf16>, %c: memref<2x8x64xi8, 1>, %i: index, %n: i32, %x: f32, %p: i1)
      workgroup(%tile : memref<8x64xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%c, %tile, %c0, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<2x8x64xi8, 1>, memref<8x64xi8, 3>, index, index, index) -> ()
    gpu.return
  }
}
