// producer = "warp" after special-register reads (docs/pipelining.md, "Warp
// specialization"): reading the SM count (nvvm.read.ptx.sreg.nsmid), as a
// persistent kernel does to spread its tiles, only computes a value, so rule
// P18 accepts it before the loop; both roles use the value, read once before
// the producer/consumer split.
// RUN: acopy-opt %s --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.ptx 2>/dev/null
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefix=PTX < %t.80.ptx

// CHECK: gpu.func @k
// CHECK: %[[NSM:.*]] = nvvm.read.ptx.sreg.nsmid : i32
// CHECK: %[[N:.*]] = arith.index_cast %[[NSM]] : i32 to index
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK: acopy.copy_gmem_to_smem
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK: } {acopy.pipelined = {stages = 2 : i64}}
// PTX: mov.u32 %r{{[0-9]+}}, %nsmid;
// PTX: cp.async.mbarrier.arrive.noinc.shared.b64

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %nsm = nvvm.read.ptx.sreg.nsmid : i32
    %n = arith.index_cast %nsm : i32 to index
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64, producer = "warp"}}
    gpu.return
  }
}
