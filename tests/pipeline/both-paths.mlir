// One input for every chip: the same marked loop becomes cp.async with commit
// groups for sm_80 and TMA with an mbarrier per slot for sm_90 (--chip
// overrides the gpu.module's target); ptxas assembles both. Neither kernel
// divides or branches on a switch anywhere (LEAN): the slot, parity and
// iteration number are carried by the loop, and cp.async waits with one
// constant count (docs/pipelining.md, "The steady state").
// RUN: acopy-opt %s --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: FileCheck %s --check-prefix=LEAN < %t.80.ptx
// RUN: acopy-opt %s --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: FileCheck %s --check-prefix=LEAN < %t.90.ptx

// LEAN: .entry sum(
// LEAN-NOT: {{(div|rem)\.(s|u)(16|32|64)}}
// LEAN-NOT: brx.idx
// LEAN: ret;

// SM80: .target sm_80
// SM80-COUNT-3: cp.async.commit_group;
// SM80-NOT: cp.async.wait_group {{[01]}};
// SM80: cp.async.wait_group 2;
// SM80-NOT: cp.async.wait_group
// SM80-DAG: cp.async.cg.shared.global
// SM80-NOT: mbarrier
// SM80-NOT: cp.async.bulk

// SM90: .target sm_90
// SM90: mbarrier.init.shared.b64
// SM90: cp.async.bulk.tensor.2d
// SM90: fence.proxy.async.shared::cta;
// SM90: cp.async.bulk.tensor.2d
// SM90: mbarrier.try_wait.parity.shared.b64
// SM90-NOT: cp.async.wait_group
// SM90-NOT: cp.async.commit_group
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @sum(%src: memref<65536x128xi32>, %out: memref<128xi32>, %n: index) workgroup(%tile: memref<16x128xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %row = arith.muli %i, %c16 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<65536x128xi32> -> memref<16x128xi32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<16x128xi32, 3>
      %next = arith.addi %acc, %v : i32
      scf.yield %next : i32
    } {acopy.pipeline = {stages = 3 : i64}}
    memref.store %total, %out[%tid] : memref<128xi32>
    gpu.return
  }
}
