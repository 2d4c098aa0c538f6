// The math dialect inside kernels, compute only: ops that convert-gpu-to-nvvm
// turns into LLVM intrinsics or NVVM ops, and into libdevice calls (which
// gpu-module-to-binary links from the CUDA toolkit's libdevice, found
// through CUDA_ROOT; lit.cfg.py sets it next to ptxas). sm_80 and
// sm_90 through acopy-opt's emit route and through upstream's
// gpu-lower-to-nvvm-pipeline.
// REQUIRES: libdevice
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80

// CHECK-LABEL: .entry intrinsics(
// CHECK: sqrt.{{(rn|approx)}}.f32
// CHECK: fma.rn.f32
gpu.module @m {
  gpu.func @intrinsics(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<64xf32>
    %a = math.sqrt %x : f32
    %b = math.absf %a : f32
    %c = math.fma %b, %x, %a : f32
    %d = math.floor %c : f32
    %e = math.copysign %d, %x : f32
    memref.store %e, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry transcendentals(
// CHECK: ex2.approx
gpu.module @m {
  gpu.func @transcendentals(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<64xf32>
    %a = math.exp %x : f32
    %b = math.log %a : f32
    %c = math.tanh %b : f32
    %d = math.rsqrt %c : f32
    %e = math.powf %d, %x : f32
    %f = math.sin %e : f32
    memref.store %f, %out[%t] : memref<64xf32>
    gpu.return
  }
}
