// The gpu dialect's warp-level ops inside kernels, compute only: shuffles of
// every mode, lane, thread, block and grid ids, block-level
// reductions through gpu.all_reduce. (gpu.subgroup_reduce and gpu.subgroup_id are
// lowered by neither route: invalid-unlowered.mlir.) sm_80 and sm_90 through acopy-opt's emit
// route and through upstream's gpu-lower-to-nvvm-pipeline.
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90 sm_90
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80 sm_80

// CHECK-LABEL: .entry shuffles(
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: shfl.sync.down.b32
// CHECK-DAG: shfl.sync.up.b32
// CHECK-DAG: shfl.sync.idx.b32
gpu.module @m {
  gpu.func @shuffles(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %lane = gpu.lane_id
    %x = memref.load %in[%lane] : memref<32xf32>
    %one = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %a, %va = gpu.shuffle xor %x, %one, %w : f32
    %b, %vb = gpu.shuffle down %a, %one, %w : f32
    %c, %vc = gpu.shuffle up %b, %one, %w : f32
    %d, %vd = gpu.shuffle idx %c, %one, %w : f32
    memref.store %d, %out[%lane] : memref<32xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry ids(
// CHECK-DAG: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// CHECK-DAG: mov.u32 %r{{[0-9]+}}, %ntid.x;
// CHECK-DAG: mov.u32 %r{{[0-9]+}}, %nctaid.y;
gpu.module @m {
  gpu.func @ids(%out: memref<?xi32>) kernel {
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %g = gpu.grid_dim y
    %t = gpu.thread_id x
    %base = arith.muli %b, %n : index
    %i = arith.addi %base, %t : index
    %v = arith.index_cast %g : index to i32
    memref.store %v, %out[%i] : memref<?xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry all_reduce(
// CHECK: bar.sync 0;
gpu.module @m {
  gpu.func @all_reduce(%in: memref<256xf32>, %out: memref<1xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %x = memref.load %in[%t] : memref<256xf32>
    %s = gpu.all_reduce add %x uniform {} : (f32) -> f32
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
