// Issue 27's probe, kernel 7: a 64x64 f16 tile copied by TMA with
// swizzle = 128 and read by nvvm.wgmma.mma_async through shared-memory matrix
// descriptors computed by hand from the tile's address (K-major, 128-byte
// swizzle: leading byte offset 16 (unused), stride byte offset 1024 = 8 rows
// of 128 bytes, mode 1 in bits 62-63). m64n64k16 over the first K step of A
// and B. sm_90a, with the plain --acopy-lower --emit=ptx command: the wgmma
// ops go through convert-nvvm-to-llvm on the emit route (docs/embedding.md,
// "The emit route").
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a

// CHECK: .target sm_90a
// CHECK-LABEL: .entry wgmma_tile(
// CHECK: .shared .align 1024 .b8
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @wgmma_tile(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<128x256xf32>)
      workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel
      attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %bm = gpu.block_id x
    %bn = gpu.block_id y
    %m0 = arith.muli %bm, %c64 : index
    %n0 = arith.muli %bn, %c64 : index
    %parity = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%m0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x256xf16> -> memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %b[%n0, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x256xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    // The descriptors, by hand: bits 0-13 address >> 4 (18-bit shared
    // offset), 16-29 leading byte offset >> 4 (1), 32-45 stride byte offset
    // >> 4 (64), 62-63 swizzle mode (1: 128 bytes); %fixed holds the last three.
    %pa = memref.extract_aligned_pointer_as_index %ta : memref<64x64xf16, 3> -> index
    %pb = memref.extract_aligned_pointer_as_index %tb : memref<64x64xf16, 3> -> index
    %ia = arith.index_cast %pa : index to i64
    %ib = arith.index_cast %pb : index to i64
    %mask = arith.constant 262143 : i64
    %four = arith.constant 4 : i64
    %fixed = arith.constant 4611686293305360384 : i64
    %ma = arith.andi %ia, %mask : i64
    %mb = arith.andi %ib, %mask : i64
    %sa = arith.shrui %ma, %four : i64
    %sb = arith.shrui %mb, %four : i64
    %da = arith.ori %sa, %fixed : i64
    %db = arith.ori %sb, %fixed : i64
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.fence.aligned
    %d = nvvm.wgmma.mma_async %da, %db, %zero, <m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    // Thread t of the warpgroup holds row 16 (t / 32) + (t mod 32) / 4 of
    // the 64x64 result, columns 2 (t mod 4) + 8 j and + 1; store j = 0.
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %warp = arith.divui %t, %c32 : index
    %in = arith.remui %t, %c32 : index
    %r0 = arith.muli %warp, %c16 : index
    %r1 = arith.divui %in, %c4 : index
    %row = arith.addi %r0, %r1 : index
    %q = arith.remui %t, %c4 : index
    %col = arith.muli %q, %c2 : index
    %grow = arith.addi %m0, %row : index
    %gcol = arith.addi %n0, %col : index
    %v0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %c[%grow, %gcol] : memref<128x256xf32>
    gpu.return
  }
}
