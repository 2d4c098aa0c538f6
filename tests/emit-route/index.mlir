// The index dialect inside kernels, compute only: arithmetic, casts and
// comparisons. sm_80 and sm_90 through acopy-opt's emit route and through
// upstream's gpu-lower-to-nvvm-pipeline.
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80

// CHECK-LABEL: .entry index_arith(
// CHECK: rem.s64
// CHECK: max.u64
gpu.module @m {
  gpu.func @index_arith(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) kernel {
    %t = gpu.thread_id x
    %c3 = index.constant 3
    %a = index.mul %t, %c3
    %b = index.add %a, %n
    %c = index.divs %b, %c3
    %d = index.rems %c, %n
    %e = index.maxu %d, %t
    %x = memref.load %in[%e] : memref<64xf32>
    memref.store %x, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry index_casts(
// CHECK: setp
gpu.module @m {
  gpu.func @index_casts(%in: memref<64xi32>, %out: memref<64xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %in[%t] : memref<64xi32>
    %i = index.casts %x : i32 to index
    %u = index.castu %i : index to i32
    %lt = index.cmp slt(%i, %t)
    %s = arith.select %lt, %u, %x : i32
    %sh = index.shl %t, %t
    %r = index.ceildivs %sh, %t
    %v = index.castu %r : index to i32
    %w = arith.addi %s, %v : i32
    memref.store %w, %out[%t] : memref<64xi32>
    gpu.return
  }
}
