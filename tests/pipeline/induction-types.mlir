// Marked loops whose induction variable is a signless integer other than
// index: the schedule's arithmetic is done on index, the bounds and the
// induction value extended by the loop's signedness (index_cast, or
// index_castui for `scf.for unsigned`), and the operand ops a copy issued
// early recomputes read the induction value in its own type. Every S on both
// paths lowers to PTX that ptxas accepts (a regression: the rewrite once built
// arith.maxsi of an i32 and an index).
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | acopy-opt --acopy-verify --split-input-file
// RUN: for s in 1 2 3 4; do sed "s/stages = 3/stages = $s/" %s | acopy-opt - --acopy-lower --emit=ptx --split-input-file -o %t.$s.ptx || exit 1; done
// RUN: %check-ptxas %t.1.ptx sm_80 sm_90 sm_80
// RUN: %check-ptxas %t.2.ptx sm_80 sm_90 sm_80
// RUN: %check-ptxas %t.3.ptx sm_80 sm_90 sm_80
// RUN: %check-ptxas %t.4.ptx sm_80 sm_90 sm_80

// i32, signed, dynamic trip count, cp.async.
// CHECK-LABEL: gpu.func @i32_cp_async
// CHECK: %[[N:.+]] = arith.index_cast %arg2 : i32 to index
// CHECK: %[[T:.+]] = arith.maxsi %[[N]], %{{.+}} : index
// CHECK: %[[LIMIT:.+]] = arith.subi %[[T]], %c2 : index
// CHECK: scf.if
// CHECK: %[[IV0:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK-NEXT: arith.index_cast %[[IV0]] : i32 to index
// CHECK: acopy.copy_gmem_to_smem
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %arg2 step %{{.+}} iter_args(%{{.+}}) -> (index, index) : i32 {
// CHECK: %[[KX:.+]] = arith.index_cast %[[K]] : i32 to index
// CHECK: arith.cmpi slt, %{{.+}}, %[[LIMIT]] : index
// CHECK: scf.if
// CHECK: arith.index_cast %{{.+}} : index to i32
// CHECK: acopy.copy_gmem_to_smem
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @i32_cp_async(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: i32) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %k = %z to %n step %one : i32 {
      %i = arith.index_cast %k : i32 to index
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// i32, signed, on TMA: the tile count and parities stay index arithmetic.
// CHECK-LABEL: gpu.func @i32_tma
// CHECK: arith.index_cast %arg2 : i32 to index
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %arg2 step %{{.+}} iter_args(%{{.+}}) -> (index, index, i1) : i32 {
// CHECK: arith.index_cast %[[K]] : i32 to index
// CHECK: acopy.barrier_wait
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @i32_tma(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: i32) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %k = %z to %n step %one : i32 {
      %i = arith.index_cast %k : i32 to index
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}

// -----

// i16, unsigned, constant bounds: the constants are read zero-extended (the
// i16 -8 is 65528), so the loop from 32760 has 32768 trips and keeps S = 3;
// read signed it would have none and clamp S to 1.
// CHECK-LABEL: gpu.func @u16_static
// CHECK: scf.for unsigned %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}}) -> (index, index) : i16 {
// CHECK: arith.index_castui %[[K]] : i16 to index
// CHECK: {acopy.pipelined = {stages = 3 : i64}}
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @u16_static(%src: memref<65536x128xf32>, %out: memref<65536x128xf32>) workgroup(%tile: memref<1x128xf32, 3>) kernel {
    %lo = arith.constant 32760 : i16
    %hi = arith.constant -8 : i16
    %step = arith.constant 1 : i16
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    scf.for unsigned %k = %lo to %hi step %step : i16 {
      %row = arith.index_castui %k : i16 to index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<65536x128xf32> -> memref<1x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<1x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<65536x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
