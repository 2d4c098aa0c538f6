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
// With release = "warp" (docs/pipelining.md, "Releases a warp at a time"): on
// sm_90 lane 0 of each consumer warp arrives for its warp with a count of 32
// after bar.warp.sync, one instruction predicated on lane 0 (no branch); sm_80
// has no counted arrive and keeps one arrive a thread.
// RUN: sed 's/producer = "warp"}/producer = "warp", release = "warp"}/' %s > %t.warp.mlir
// RUN: acopy-opt %t.warp.mlir --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=WARP90
// RUN: acopy-opt %t.warp.mlir --chip=sm_80 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=WARP80
// RUN: acopy-opt %t.warp.mlir --chip=sm_90 --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=WREMARK
// RUN: acopy-opt %t.warp.mlir --chip=sm_80 --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK80
// RUN: acopy-opt %t.warp.mlir --chip=sm_90 --acopy-lower --emit=ptx -o %t.w90.ptx 2>/dev/null
// RUN: %check-ptxas %t.w90.ptx sm_90
// RUN: FileCheck %s --check-prefix=WPTX90 < %t.w90.ptx

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
// TMA-NOT: nvvm.bar.warp.sync
// BOTH: nvvm.mbarrier.arrive
// TMA-NOT: nvvm.inline_ptx
// BOTH: } {acopy.pipelined = {stages = 3 : i64}}
// BOTH-NOT: gpu.barrier
// BOTH: nvvm.barrier id
// BOTH: memref.store
// BOTH: }
// BOTH-NEXT: gpu.return

// REMARK: remark: acopy.pipeline: 3 stages, TMA on sm_90; 3 slots of 4096 bytes (128-byte aligned) for memref<8x128xf32, 3>; a producer warp issues the copies (threads 128..160), the other threads release each slot on an empty barrier; 3 mbarriers of 1 arrival

// WARP90: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// WARP90-NOT: nvvm.mbarrier.arrive
// WARP90: nvvm.bar.warp.sync
// WARP90: %[[LANE0:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : index
// WARP90-NEXT: nvvm.inline_ptx "mbarrier.arrive.shared.b64 _, [$0], 32;" ro(%{{[0-9]+}} : !llvm.ptr<3>), predicate = %[[LANE0]]
// WARP90-NOT: scf.if
// WARP90: } {acopy.pipelined = {stages = 3 : i64}}
// WARP80: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// WARP80-NOT: nvvm.bar.warp.sync
// WARP80: nvvm.mbarrier.arrive %{{[0-9]+}} : !llvm.ptr<3> -> i64
// WARP80-NOT: nvvm.inline_ptx
// WARP80: } {acopy.pipelined = {stages = 3 : i64}}
// WREMARK: the other threads release each slot on an empty barrier, a warp at a time (lane 0 arrives for its 32 lanes); 3 mbarriers
// REMARK80: the other threads release each slot on an empty barrier; 3 mbarriers
// WPTX90: bar.warp.sync -1;
// WPTX90: @%p{{[0-9]+}} mbarrier.arrive.shared.b64 _, [%r{{[0-9]+}}], 32;

// PTX90: cp.async.bulk.tensor
// PTX90: bar.sync{{[[:space:]]+}}1, 128;
// PTX90-NOT: bar.warp.sync
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
