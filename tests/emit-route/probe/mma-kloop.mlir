// Issue 27's probe, kernels 3 and 4: a K-loop marked acopy.pipeline with the
// mma.sync accumulators in iter_args. The pipeliner multi-buffers the A and
// B tiles and redirects the ldmatrix reads to its slots; one source compiles
// for sm_80 (cp.async) and sm_90 (TMA) with the plain --acopy-lower
// --emit=ptx command (docs/embedding.md, "The emit route").
// RUN: acopy-opt %s --chip sm_80 --acopy-lower --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: acopy-opt %s --chip sm_90 --acopy-lower --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90

// CHECK-LABEL: .entry gemm_kloop(
// SM80: cp.async.cg.shared.global
// SM90: cp.async.bulk.tensor.2d.shared::cluster.global
// (The loop's blocks are laid out consumers first, so the wait and the
// compute are checked in any order after the first copy.)
// SM80-DAG: cp.async.wait_group 4;
// SM90-DAG: mbarrier.try_wait.parity.shared.b64
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @gemm_kloop(%a: memref<128x256xf16>, %b: memref<256x128xf16>, %c: memref<128x128xf32>)
      workgroup(%ta: memref<16x16xf16, 3>, %tb: memref<16x8xf16, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %nk = arith.constant 16 : index
    %bm = gpu.block_id x
    %bn = gpu.block_id y
    %m0 = arith.muli %bm, %c16 : index
    %n0 = arith.muli %bn, %c8 : index
    %lane = gpu.lane_id
    %row = arith.remui %lane, %c16 : index
    %half = arith.divui %lane, %c16 : index
    %col = arith.muli %half, %c8 : index
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%sum = %zero) -> (vector<2x2xf32>) {
      %k0 = arith.muli %k, %c16 : index
      acopy.copy_gmem_to_smem %a[%m0, %k0] -> %ta {oob_mode = "promise_in_bounds"} : memref<128x256xf16> -> memref<16x16xf16, 3>
      acopy.copy_gmem_to_smem %b[%k0, %n0] -> %tb {oob_mode = "promise_in_bounds"} : memref<256x128xf16> -> memref<16x8xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %fa = nvgpu.ldmatrix %ta[%row, %col] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %tb[%row, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, 3> -> vector<2x2xf16>
      %d = nvgpu.mma.sync(%fa, %fb, %sum) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %d : vector<2x2xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    %r = arith.divui %lane, %c4 : index
    %q = arith.remui %lane, %c4 : index
    %cc = arith.muli %q, %c2 : index
    %gr = arith.addi %m0, %r : index
    %gr8 = arith.addi %gr, %c8 : index
    %gc = arith.addi %n0, %cc : index
    %lo = vector.extract %acc[0] : vector<2xf32> from vector<2x2xf32>
    %hi = vector.extract %acc[1] : vector<2xf32> from vector<2x2xf32>
    vector.store %lo, %c[%gr, %gc] : memref<128x128xf32>, vector<2xf32>
    vector.store %hi, %c[%gr8, %gc] : memref<128x128xf32>, vector<2xf32>
    gpu.return
  }
}
