// The default route (acopy-lower, then the upstream passes to PTX) compiles
// what the pipeliner writes for every chip of the chip table, and ptxas
// accepts it: a loop with a dynamic trip count and an i32 loop with two
// copies and a constant trip count, S = 3. sm_110a is lowered to PTX but not
// assembled: the pinned ptxas (12.9) has no sm_110a (docs/testing.md).
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.sm_80.ptx
// RUN: %check-ptxas %t.sm_80.ptx sm_80 sm_80
// RUN: acopy-opt %s --chip=sm_86 --acopy-lower --emit=ptx -o %t.sm_86.ptx
// RUN: %check-ptxas %t.sm_86.ptx sm_86 sm_86
// RUN: acopy-opt %s --chip=sm_87 --acopy-lower --emit=ptx -o %t.sm_87.ptx
// RUN: %check-ptxas %t.sm_87.ptx sm_87 sm_87
// RUN: acopy-opt %s --chip=sm_89 --acopy-lower --emit=ptx -o %t.sm_89.ptx
// RUN: %check-ptxas %t.sm_89.ptx sm_89 sm_89
// RUN: acopy-opt %s --chip=sm_90 --acopy-lower --emit=ptx -o %t.sm_90.ptx
// RUN: %check-ptxas %t.sm_90.ptx sm_90 sm_90
// RUN: acopy-opt %s --chip=sm_90a --acopy-lower --emit=ptx -o %t.sm_90a.ptx
// RUN: %check-ptxas %t.sm_90a.ptx sm_90a sm_90a
// RUN: acopy-opt %s --chip=sm_100 --acopy-lower --emit=ptx -o %t.sm_100.ptx
// RUN: %check-ptxas %t.sm_100.ptx sm_100 sm_100
// RUN: acopy-opt %s --chip=sm_100a --acopy-lower --emit=ptx -o %t.sm_100a.ptx
// RUN: %check-ptxas %t.sm_100a.ptx sm_100a sm_100a
// RUN: acopy-opt %s --chip=sm_101a --acopy-lower --emit=ptx -o %t.sm_101a.ptx
// RUN: %check-ptxas %t.sm_101a.ptx sm_101a sm_101a
// RUN: acopy-opt %s --chip=sm_103a --acopy-lower --emit=ptx -o %t.sm_103a.ptx
// RUN: %check-ptxas %t.sm_103a.ptx sm_103a sm_103a
// RUN: acopy-opt %s --chip=sm_120 --acopy-lower --emit=ptx -o %t.sm_120.ptx
// RUN: %check-ptxas %t.sm_120.ptx sm_120 sm_120
// RUN: acopy-opt %s --chip=sm_120a --acopy-lower --emit=ptx -o %t.sm_120a.ptx
// RUN: %check-ptxas %t.sm_120a.ptx sm_120a sm_120a
// RUN: acopy-opt %s --chip=sm_121a --acopy-lower --emit=ptx -o %t.sm_121a.ptx
// RUN: %check-ptxas %t.sm_121a.ptx sm_121a sm_121a
// RUN: acopy-opt %s --chip=sm_110a --acopy-lower --emit=ptx | FileCheck %s --check-prefix=SM110A
// SM110A-COUNT-2: .target sm_110a

gpu.module @dynamic_trips [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

gpu.module @i32_two_copies [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%a: memref<4096x128xf32>, %b: memref<4096x128xf32>, %out: memref<4096x128xf32>) workgroup(%ta: memref<8x128xf32, 3>, %tb: memref<8x128xf32, 3>) kernel {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n = arith.constant 512 : i32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %k = %z to %n step %one : i32 {
      %i = arith.index_cast %k : i32 to index
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %a[%row, %c0] -> %ta {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.copy_gmem_to_smem %b[%row, %c0] -> %tb {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %x = memref.load %ta[%c0, %tid] : memref<8x128xf32, 3>
      %y = memref.load %tb[%c0, %tid] : memref<8x128xf32, 3>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
