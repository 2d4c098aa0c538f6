// The steady state of a persistent-grid loop (dynamic lower bound and step:
// block b takes tiles b, b + gridDim, ...) divides nothing, at every S and on
// both paths: the trip count ceildiv((ub - lb), step) is the kernel's one
// division, before the loop; the iteration number, slot and parity are
// carried by the loop, and cp.async waits with one constant count. Before
// the loop carried them, each iteration divided (iv - lb) by the step in
// 64 bits (docs/pipelining.md, "The steady state"). LLVM splits the trip
// count's 64-bit division into a div.s64 and a div.u32 for operands that fit
// 32 bits (TRIP); S = 1 on cp.async needs no trip count at all.
// RUN: sed s/STAGES/1/ %s | acopy-opt --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.1.ptx
// RUN: sed s/STAGES/2/ %s | acopy-opt --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.2.ptx
// RUN: sed s/STAGES/3/ %s | acopy-opt --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.3.ptx
// RUN: sed s/STAGES/4/ %s | acopy-opt --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.4.ptx
// RUN: sed s/STAGES/1/ %s | acopy-opt --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.1.ptx
// RUN: sed s/STAGES/2/ %s | acopy-opt --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.2.ptx
// RUN: sed s/STAGES/3/ %s | acopy-opt --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.3.ptx
// RUN: sed s/STAGES/4/ %s | acopy-opt --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.4.ptx
// RUN: %check-ptxas %t.80.3.ptx sm_80
// RUN: %check-ptxas %t.90.3.ptx sm_90
// RUN: FileCheck %s --check-prefixes=LEAN < %t.80.1.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.80.2.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.80.3.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.80.4.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.90.1.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.90.2.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.90.3.ptx
// RUN: FileCheck %s --check-prefixes=LEAN,TRIP < %t.90.4.ptx
// RUN: FileCheck %s --check-prefixes=CPASYNC < %t.80.3.ptx
// RUN: FileCheck %s --check-prefixes=TMA < %t.90.3.ptx

// LEAN: .entry persistent(
// TRIP: div.s64
// TRIP: div.u32
// LEAN-NOT: {{(div|rem)\.[su](16|32|64)}}
// LEAN-NOT: brx.idx
// LEAN: ret;

// CPASYNC: cp.async.wait_group 2;
// CPASYNC-NOT: cp.async.wait_group
// TMA: mbarrier.try_wait.parity
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @persistent(%src: memref<65536x128xf32>, %out: memref<65536x128xf32>, %tiles: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %bx = gpu.block_id x
    %grid = gpu.grid_dim x
    %tid = gpu.thread_id x
    scf.for %i = %bx to %tiles step %grid {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<65536x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<65536x128xf32>
    } {acopy.pipeline = {stages = STAGES : i64}}
    gpu.return
  }
}
