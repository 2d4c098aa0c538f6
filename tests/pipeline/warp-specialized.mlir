// producer = "warp" (docs/pipelining.md, "Warp specialization"): the pass adds a
// 32-thread producer warp after the kernel's 128 declared threads (the block
// becomes 160), which alone issues the copies: on TMA from its first thread
// (acopy.issuers = [128, 1]), each copy completing on the slot's full barrier;
// on cp.async from all 32 lanes (acopy.issuers = [128, 32]), each lane
// arriving on the full barrier with cp.async.mbarrier.arrive.noinc. Before each
// tile it waits for the slot's empty barrier at the opposite parity (free in the
// first round). The 128 consumers wait on the full barrier, read the slot,
// arrive on its empty barrier and run the rest of the kernel; their
// gpu.barriers become barriers of the 128 (bar.sync 1, 128), which the
// producer warp never reaches. Rings: full expects 1 arrival per TMA copy or 32
// lanes, empty 128.
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefixes=TMA,BOTH
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefixes=CPASYNC,BOTH
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | acopy-opt --chip=sm_90 --acopy-verify
// RUN: acopy-opt %s --chip=sm_80 --acopy-pipeline 2>/dev/null | acopy-opt --chip=sm_80 --acopy-verify
// RUN: acopy-opt %s --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx 2>/dev/null
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.ptx 2>/dev/null
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefix=PTX90 < %t.90.ptx
// RUN: FileCheck %s --check-prefix=PTX80 < %t.80.ptx

// BOTH: memref.global "private" @__acopy_pipeline_0 : memref<48xi8, 3>
// BOTH: gpu.func @k
// BOTH-SAME: known_block_size = array<i32: 160, 1, 1>
// TMA-COUNT-3: acopy.barrier_init %{{.*}} {arrival_count = 1 : i64}
// CPASYNC-COUNT-3: acopy.barrier_init %{{.*}} {arrival_count = 32 : i64}
// BOTH: memref.get_global @__acopy_pipeline_0
// BOTH-NEXT: %[[TID:.*]] = gpu.thread_id {{ *}}x
// BOTH-NEXT: %[[B:.*]] = arith.constant 128 : index
// BOTH: %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID]], %[[B]] : index
// BOTH: scf.if %[[PRODUCER]] {
// TMA: arith.cmpi eq, %[[TID]],
// TMA: scf.if
// BOTH: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PSLOT:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[PPHASE:[a-z0-9_]+]] = %false) -> (index, i1) {
// BOTH: %[[FREE:.*]] = arith.xori %[[PPHASE]], %true : i1
// BOTH: acopy.barrier_wait %{{.*}}, %[[FREE]]
// TMA: acopy.copy_gmem_to_smem {{.*}} barrier(
// CPASYNC: acopy.copy_gmem_to_smem
// CPASYNC-NOT: barrier(
// CPASYNC: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// TMA: } {acopy.issuers = array<i32: 128, 1>}
// CPASYNC: } {acopy.issuers = array<i32: 128, 32>}
// BOTH: %[[CONSUMER:.*]] = arith.cmpi ult, %[[TID]], %[[B]] : index
// BOTH: scf.if %[[CONSUMER]] {
// BOTH: scf.for {{.*}} iter_args(%{{[a-z0-9_]+}} = %cst, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[SLOT:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[PHASE:[a-z0-9_]+]] = %false) -> (f32, index, index, i1) {
// BOTH: acopy.barrier_wait %{{.*}}, %[[PHASE]]
// BOTH: memref.load
// BOTH-NOT: gpu.barrier
// BOTH: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// BOTH: nvvm.mbarrier.arrive
// BOTH: } {acopy.pipelined = {stages = 3 : i64}}
// BOTH-NOT: gpu.barrier
// BOTH: nvvm.barrier id
// BOTH: memref.store
// BOTH: }
// BOTH-NEXT: gpu.return

// REMARK: remark: acopy.pipeline: 3 stages, TMA on sm_90; 3 slots of 4096 bytes (128-byte aligned) for memref<8x128xf32, 3>; a producer warp issues the copies (threads 128..160), the other threads release each slot on an empty barrier; 3 mbarriers of 1 arrival

// PTX90: cp.async.bulk.tensor
// PTX90: bar.sync{{[[:space:]]+}}1, 128;
// PTX80: cp.async.cg.shared.global
// PTX80: cp.async.mbarrier.arrive.noinc.shared.b64
// PTX80: bar.sync{{[[:space:]]+}}1, 128;

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %sum: memref<128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %zero = arith.constant 0.0 : f32
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      gpu.barrier
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.barrier
    memref.store %total, %sum[%tid] : memref<128xf32>
    gpu.return
  }
}
