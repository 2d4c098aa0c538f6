// --emit with --chip, --split-input-file, --emit=llvm, and pipelines that end
// in upstream passes.
// The chip override wins over the module's target, for lowering and PTX alike.
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx --chip=sm_86 -o %t.86.ptx
// RUN: FileCheck %s --check-prefix=SM86 < %t.86.ptx
// RUN: %check-ptxas %t.86.ptx sm_86 sm_86
// SM86: // acopy-opt: gpu.module @first
// SM86-NEXT: //
// SM86: .version 7.1
// SM86-NEXT: .target sm_86
// SM86: // -----
// SM86: // acopy-opt: gpu.module @second
// SM86: .target sm_86

// One output per case, in order, separated like the input.
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx -o %t.split.ptx
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.ptx
// RUN: %check-ptxas %t.split.ptx sm_80 sm_89
// SPLIT: // acopy-opt: gpu.module @first
// SPLIT: .target sm_80
// SPLIT: .entry first(
// SPLIT: cp.async.cg.shared.global
// SPLIT: // -----
// SPLIT-NEXT: // acopy-opt: gpu.module @second
// SPLIT: .target sm_89
// SPLIT: .entry second(
// SPLIT: cp.async.cg.shared.global

// LLVM IR, one module per gpu.module.
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=llvm | FileCheck %s --check-prefix=LLVM
// LLVM: ; acopy-opt: gpu.module @first
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: @__wg_first_0 = internal addrspace(3) global [2048 x float] undef, align 16
// LLVM: define ptx_kernel void @first(
// LLVM: call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %{{.*}}, ptr addrspace(1) %{{.*}})
// LLVM: call void @llvm.nvvm.cp.async.commit.group()
// LLVM: call void @llvm.nvvm.cp.async.wait.group(i32 0)
// LLVM: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LLVM: // -----
// LLVM: define ptx_kernel void @second(

// A pipeline option chip reaches the module's target, so an upstream
// gpu-module-to-binary in the same pipeline compiles for it.
// RUN: acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-lower{chip=sm_87},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' -o %t.binary.mlir
// RUN: FileCheck %s --check-prefix=PIPELINE < %t.binary.mlir
// RUN: %check-ptxas %t.binary.mlir sm_87 sm_87
// PIPELINE: gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_87", features = "+ptx74">
// PIPELINE-SAME: .target sm_87

gpu.module @first [#nvvm.target<chip = "sm_80">] {
  gpu.func @first(%src: memref<256x512xf32>) workgroup(%tile : memref<16x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() : () -> ()
    gpu.return
  }
}

// -----

gpu.module @second [#nvvm.target<chip = "sm_89">] {
  gpu.func @second(%src: memref<256x512xf32>) workgroup(%tile : memref<16x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %tile, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}
        : (memref<256x512xf32>, memref<16x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
