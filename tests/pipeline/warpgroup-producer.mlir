// producer = "warpgroup" (docs/pipelining.md, "A producer warpgroup"): the pass adds a
// 128-thread producer warpgroup after the kernel's 256 declared threads (the block
// becomes 384), whose first thread issues the TMA copies (acopy.issuers = [256, 1]), as
// a producer warp's does. ptxas compiles 384 threads for at most 168 registers a
// thread; the producer warpgroup gives all but 40 back (nvvm.setmaxregister decrease
// 40, its first op) and the two consumer warpgroups take them (increase 232, their
// first op): 128 x (168 - 40) = 256 x (232 - 168). The remark and the manifest's
// launch facts say so. With 128 consumers (@one) the block is 256 and nothing moves:
// they launch with 255, the most a thread can hold. With nvvm.minctasm = 2 (@two) the
// SM's registers are halved: 80 at launch, 96 for the consumers. With producer_registers
// = 24 (@keeps24, FlashAttention-3's split) the producer keeps 24 and the consumers take
// 240: 128 x (168 - 24) = 256 x (240 - 168).
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: acopy-opt %s --acopy-pipeline 2>/dev/null | acopy-opt --acopy-verify
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx --tma-manifest=%t.json 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: %[[B:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID:.*]], %[[B]] : index
// CHECK: scf.if %[[PRODUCER]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK: } {acopy.issuers = array<i32: 256, 1>}
// CHECK: %[[CONSUMER:.*]] = arith.cmpi ult, %[[TID]], %[[B]] : index
// CHECK: scf.if %[[CONSUMER]] {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @one
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: nvvm.setmaxregister
// CHECK-LABEL: gpu.func @two
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 96
// CHECK-LABEL: gpu.func @keeps24
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: nvvm.setmaxregister increase 240

// REMARK: a producer warpgroup issues the copies (threads 256..384; setmaxnreg: 168 registers a thread at launch, 40 kept by the producer, 232 taken by the consumers), the other threads release each slot on an empty barrier
// REMARK: a producer warpgroup issues the copies (threads 128..256), the other threads
// REMARK: a producer warpgroup issues the copies (threads 256..384; setmaxnreg: 80 registers a thread at launch, 40 kept by the producer, 96 taken by the consumers)
// REMARK: a producer warpgroup issues the copies (threads 256..384; setmaxnreg: 168 registers a thread at launch, 24 kept by the producer, 240 taken by the consumers)

// PTX-LABEL: .entry k(
// PTX: .maxntid 384, 1, 1
// PTX: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// PTX: cp.async.bulk.tensor
// PTX: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<4096x256xf32>, %out: memref<4096x256xf32>, %n: index) workgroup(%tile: memref<8x256xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x256xf32> -> memref<8x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x256xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x256xf32>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warpgroup"}}
    gpu.return
  }
  gpu.func @one(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
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
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }
  gpu.func @two(%src: memref<4096x256xf32>, %out: memref<4096x256xf32>, %n: index) workgroup(%tile: memref<8x256xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 2 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x256xf32> -> memref<8x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x256xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x256xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup"}}
    gpu.return
  }

  gpu.func @keeps24(%src: memref<4096x256xf32>, %out: memref<4096x256xf32>, %n: index) workgroup(%tile: memref<8x256xf32, 3>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x256xf32> -> memref<8x256xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x256xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x256xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup", producer_registers = 24 : i64}}
    gpu.return
  }
}
