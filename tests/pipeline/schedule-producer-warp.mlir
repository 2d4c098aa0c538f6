// The producer-warp schedule alone (producer = "warp"): the full and empty
// rings' arrivals, which phase each role waits on for tile n, and which tile
// the consumers release in trip k (passes/src/pipeliner/rings.rs, checked free
// of deadlock before the rewrite builds its IR from it), printed with ACOPY_LOG
// at debug for the pipeliner (docs/pipelining.md, "Warp specialization").
// On TMA the full ring expects one arrival per copy, on cp.async the producer
// warp's 32 lanes; the empty ring expects the kernel's 128 consumers.
// RUN: env ACOPY_LOG=acopy_passes::pipeliner=debug acopy-opt %s --chip=sm_90 --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=TMA
// RUN: env ACOPY_LOG=acopy_passes::pipeliner=debug acopy-opt %s --chip=sm_80 --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=CPASYNC
// With wgmma left in flight in a persistent loop (N = 1), trip k releases
// tile k - 1 and the last tile of each entry is released after the loop.
// RUN: env ACOPY_LOG=acopy_passes::pipeliner=debug acopy-opt %S/warp-specialized-persistent-wgmma.mlir --acopy-pipeline --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=PERSISTENT

// TMA: producer-warp schedule: S = 3; full[s]: 1 arrivals per phase, the producer's 1 per tile; empty[s]: 128 arrivals per phase, the consumers' 128 per released tile; tile n: producer waits on empty[n mod 3] phase n / 3 - 1, then fills full[n mod 3]; consumers wait on full[n mod 3] phase n / 3; trip k releases tile k - 0 (slot (slot_k + 0) mod 3); 0 released after the loop{{$}}
// CPASYNC: producer-warp schedule: S = 3; full[s]: 32 arrivals per phase, the producer's 32 per tile; empty[s]: 128 arrivals per phase, the consumers' 128 per released tile; tile n: producer waits on empty[n mod 3] phase n / 3 - 1, then fills full[n mod 3]; consumers wait on full[n mod 3] phase n / 3; trip k releases tile k - 0 (slot (slot_k + 0) mod 3); 0 released after the loop{{$}}
// PERSISTENT: producer-warp schedule: S = 3; full[s]: 2 arrivals per phase, the producer's 2 per tile; empty[s]: 128 arrivals per phase, the consumers' 128 per released tile; tile n: producer waits on empty[n mod 3] phase n / 3 - 1, then fills full[n mod 3]; consumers wait on full[n mod 3] phase n / 3; trip k releases tile k - 1 (slot (slot_k + 2) mod 3); 1 released after the loop; persistent
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
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
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}
