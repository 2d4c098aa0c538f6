// Issue 27's probe, kernels 1 and 2: acopy copies in front of nvgpu.ldmatrix
// + nvgpu.mma.sync (f16 in, f32 accumulate), one 16x16x8 tile per warp:
// cp.async on sm_80 (wait_gmem_to_smem), TMA on sm_90 (an mbarrier, since
// outside a marked loop a TMA copy needs one), and the compute through the
// emit route's convert-nvgpu-to-nvvm (docs/embedding.md, "The emit route"),
// with the plain --acopy-lower --emit=ptx command.
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_90

// CHECK-LABEL: .entry mma_tile(
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.wait_group 0;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @mma_tile(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>)
      workgroup(%ta: memref<16x16xf16, 3>, %tb: memref<16x8xf16, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %bm = gpu.block_id x
    %bn = gpu.block_id y
    %m0 = arith.muli %bm, %c16 : index
    %n0 = arith.muli %bn, %c8 : index
    acopy.copy_gmem_to_smem %a[%m0, %c0] -> %ta {oob_mode = "promise_in_bounds"} : memref<128x128xf16> -> memref<16x16xf16, 3>
    acopy.copy_gmem_to_smem %b[%c0, %n0] -> %tb {oob_mode = "promise_in_bounds"} : memref<128x128xf16> -> memref<16x8xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    // ldmatrix: lane l gives the address of row l mod 16 (x4: column 8 for
    // lanes 16..31).
    %lane = gpu.lane_id
    %row = arith.remui %lane, %c16 : index
    %half = arith.divui %lane, %c16 : index
    %col = arith.muli %half, %c8 : index
    %fa = nvgpu.ldmatrix %ta[%row, %col] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x2xf16>
    %fb = nvgpu.ldmatrix %tb[%row, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, 3> -> vector<2x2xf16>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    // Accumulator layout of m16n8: lane l holds rows l/4 and l/4 + 8,
    // columns 2 (l mod 4) and 2 (l mod 4) + 1.
    %r = arith.divui %lane, %c4 : index
    %q = arith.remui %lane, %c4 : index
    %cc = arith.muli %q, %c2 : index
    %gr = arith.addi %m0, %r : index
    %gr8 = arith.addi %gr, %c8 : index
    %gc = arith.addi %n0, %cc : index
    %lo = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
    %hi = vector.extract %d[1] : vector<2xf32> from vector<2x2xf32>
    vector.store %lo, %c[%gr, %gc] : memref<128x128xf32>, vector<2xf32>
    vector.store %hi, %c[%gr8, %gc] : memref<128x128xf32>, vector<2xf32>
    gpu.return
  }
}

// CHECK-LABEL: .entry mma_tile_tma(
// CHECK: mbarrier.init.shared.b64
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
gpu.module @m90 [#nvvm.target<chip = "sm_90">] {
  gpu.func @mma_tile_tma(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>)
      workgroup(%ta: memref<16x16xf16, 3>, %tb: memref<16x8xf16, 3>, %bar: memref<1xi64, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %bm = gpu.block_id x
    %bn = gpu.block_id y
    %m0 = arith.muli %bm, %c16 : index
    %n0 = arith.muli %bn, %c8 : index
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%m0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<128x128xf16> -> memref<16x16xf16, 3>
    acopy.copy_gmem_to_smem %b[%c0, %n0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<128x128xf16> -> memref<16x8xf16, 3>
    %parity = arith.constant false
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    // ldmatrix: lane l gives the address of row l mod 16 (x4: column 8 for
    // lanes 16..31).
    %lane = gpu.lane_id
    %row = arith.remui %lane, %c16 : index
    %half = arith.divui %lane, %c16 : index
    %col = arith.muli %half, %c8 : index
    %fa = nvgpu.ldmatrix %ta[%row, %col] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, 3> -> vector<4x2xf16>
    %fb = nvgpu.ldmatrix %tb[%row, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, 3> -> vector<2x2xf16>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    // Accumulator layout of m16n8: lane l holds rows l/4 and l/4 + 8,
    // columns 2 (l mod 4) and 2 (l mod 4) + 1.
    %r = arith.divui %lane, %c4 : index
    %q = arith.remui %lane, %c4 : index
    %cc = arith.muli %q, %c2 : index
    %gr = arith.addi %m0, %r : index
    %gr8 = arith.addi %gr, %c8 : index
    %gc = arith.addi %n0, %cc : index
    %lo = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
    %hi = vector.extract %d[1] : vector<2xf32> from vector<2x2xf32>
    vector.store %lo, %c[%gr, %gc] : memref<128x128xf32>, vector<2xf32>
    vector.store %hi, %c[%gr8, %gc] : memref<128x128xf32>, vector<2xf32>
    gpu.return
  }
}
