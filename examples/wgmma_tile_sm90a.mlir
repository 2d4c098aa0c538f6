// A wgmma tile kernel (sm_90a): TMA copies A (64 x 64) and B (64 x 64, K-major)
// into 128-byte swizzled tiles; acopy.wgmma_descriptor gives nvvm.wgmma.mma_async
// the descriptor of each K step from the swizzle the copies used, so no bits are
// computed by hand (docs/dialect.md, "acopy.wgmma_descriptor"). D = A Bᵀ is stored
// from the accumulator fragments. It is tests/gpu/kernels/wgmma_f16_s128_n64.mlir
// (tests/gpu/wgmma/gen.py), exact on an H200 (bench/RESULTS.md).
gpu.module @wgmma_f16_s128_n64 [#nvvm.target<chip = "sm_90a">] {
  gpu.func @wgmma_f16_s128_n64(%src: memref<128x64xf16>, %out: memref<64x64xf16>) workgroup(%ta: memref<64x64xf16, 3>, %tb: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c0_i32 = arith.constant 0 : i32
    %c8_i32 = arith.constant 8 : i32
    %c16_i32 = arith.constant 16 : i32
    %c24_i32 = arith.constant 24 : i32
    %false = arith.constant false
    acopy.barrier_init %bar {arrival_count = 2 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x64xf16> -> memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%c64, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x64xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %acc0 = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.fence.aligned
    %k0 = arith.constant 0 : index
    %da0 = acopy.wgmma_descriptor %ta[%k0] : memref<64x64xf16, 3>
    %db0 = acopy.wgmma_descriptor %tb[%k0] : memref<64x64xf16, 3>
    %acc1 = nvvm.wgmma.mma_async %da0, %db0, %acc0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %k1 = arith.constant 16 : index
    %da1 = acopy.wgmma_descriptor %ta[%k1] : memref<64x64xf16, 3>
    %db1 = acopy.wgmma_descriptor %tb[%k1] : memref<64x64xf16, 3>
    %acc2 = nvvm.wgmma.mma_async %da1, %db1, %acc1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %k2 = arith.constant 32 : index
    %da2 = acopy.wgmma_descriptor %ta[%k2] : memref<64x64xf16, 3>
    %db2 = acopy.wgmma_descriptor %tb[%k2] : memref<64x64xf16, 3>
    %acc3 = nvvm.wgmma.mma_async %da2, %db2, %acc2, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %k3 = arith.constant 48 : index
    %da3 = acopy.wgmma_descriptor %ta[%k3] : memref<64x64xf16, 3>
    %db3 = acopy.wgmma_descriptor %tb[%k3] : memref<64x64xf16, 3>
    %acc4 = nvvm.wgmma.mma_async %da3, %db3, %acc3, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    %t = gpu.thread_id x
    %warp = arith.divui %t, %c32 : index
    %lane = arith.remui %t, %c32 : index
    %w16 = arith.muli %warp, %c16 : index
    %l4 = arith.divui %lane, %c4 : index
    %row0 = arith.addi %w16, %l4 : index
    %row8 = arith.addi %row0, %c8 : index
    %lm = arith.remui %lane, %c4 : index
    %colbase = arith.muli %lm, %c2 : index
    %v0 = llvm.extractvalue %acc4[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc0 = arith.constant 0 : index
    %col0 = arith.addi %colbase, %cc0 : index
    %h_v0 = arith.truncf %v0 : f32 to f16
    memref.store %h_v0, %out[%row0, %col0] : memref<64x64xf16>
    %v1 = llvm.extractvalue %acc4[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc1 = arith.constant 1 : index
    %col1 = arith.addi %colbase, %cc1 : index
    %h_v1 = arith.truncf %v1 : f32 to f16
    memref.store %h_v1, %out[%row0, %col1] : memref<64x64xf16>
    %v2 = llvm.extractvalue %acc4[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc2 = arith.constant 0 : index
    %col2 = arith.addi %colbase, %cc2 : index
    %h_v2 = arith.truncf %v2 : f32 to f16
    memref.store %h_v2, %out[%row8, %col2] : memref<64x64xf16>
    %v3 = llvm.extractvalue %acc4[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc3 = arith.constant 1 : index
    %col3 = arith.addi %colbase, %cc3 : index
    %h_v3 = arith.truncf %v3 : f32 to f16
    memref.store %h_v3, %out[%row8, %col3] : memref<64x64xf16>
    %v4 = llvm.extractvalue %acc4[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc4 = arith.constant 8 : index
    %col4 = arith.addi %colbase, %cc4 : index
    %h_v4 = arith.truncf %v4 : f32 to f16
    memref.store %h_v4, %out[%row0, %col4] : memref<64x64xf16>
    %v5 = llvm.extractvalue %acc4[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc5 = arith.constant 9 : index
    %col5 = arith.addi %colbase, %cc5 : index
    %h_v5 = arith.truncf %v5 : f32 to f16
    memref.store %h_v5, %out[%row0, %col5] : memref<64x64xf16>
    %v6 = llvm.extractvalue %acc4[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc6 = arith.constant 8 : index
    %col6 = arith.addi %colbase, %cc6 : index
    %h_v6 = arith.truncf %v6 : f32 to f16
    memref.store %h_v6, %out[%row8, %col6] : memref<64x64xf16>
    %v7 = llvm.extractvalue %acc4[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc7 = arith.constant 9 : index
    %col7 = arith.addi %colbase, %cc7 : index
    %h_v7 = arith.truncf %v7 : f32 to f16
    memref.store %h_v7, %out[%row8, %col7] : memref<64x64xf16>
    %v8 = llvm.extractvalue %acc4[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc8 = arith.constant 16 : index
    %col8 = arith.addi %colbase, %cc8 : index
    %h_v8 = arith.truncf %v8 : f32 to f16
    memref.store %h_v8, %out[%row0, %col8] : memref<64x64xf16>
    %v9 = llvm.extractvalue %acc4[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc9 = arith.constant 17 : index
    %col9 = arith.addi %colbase, %cc9 : index
    %h_v9 = arith.truncf %v9 : f32 to f16
    memref.store %h_v9, %out[%row0, %col9] : memref<64x64xf16>
    %v10 = llvm.extractvalue %acc4[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc10 = arith.constant 16 : index
    %col10 = arith.addi %colbase, %cc10 : index
    %h_v10 = arith.truncf %v10 : f32 to f16
    memref.store %h_v10, %out[%row8, %col10] : memref<64x64xf16>
    %v11 = llvm.extractvalue %acc4[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc11 = arith.constant 17 : index
    %col11 = arith.addi %colbase, %cc11 : index
    %h_v11 = arith.truncf %v11 : f32 to f16
    memref.store %h_v11, %out[%row8, %col11] : memref<64x64xf16>
    %v12 = llvm.extractvalue %acc4[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc12 = arith.constant 24 : index
    %col12 = arith.addi %colbase, %cc12 : index
    %h_v12 = arith.truncf %v12 : f32 to f16
    memref.store %h_v12, %out[%row0, %col12] : memref<64x64xf16>
    %v13 = llvm.extractvalue %acc4[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc13 = arith.constant 25 : index
    %col13 = arith.addi %colbase, %cc13 : index
    %h_v13 = arith.truncf %v13 : f32 to f16
    memref.store %h_v13, %out[%row0, %col13] : memref<64x64xf16>
    %v14 = llvm.extractvalue %acc4[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc14 = arith.constant 24 : index
    %col14 = arith.addi %colbase, %cc14 : index
    %h_v14 = arith.truncf %v14 : f32 to f16
    memref.store %h_v14, %out[%row8, %col14] : memref<64x64xf16>
    %v15 = llvm.extractvalue %acc4[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc15 = arith.constant 25 : index
    %col15 = arith.addi %colbase, %cc15 : index
    %h_v15 = arith.truncf %v15 : f32 to f16
    memref.store %h_v15, %out[%row8, %col15] : memref<64x64xf16>
    %v16 = llvm.extractvalue %acc4[16] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc16 = arith.constant 32 : index
    %col16 = arith.addi %colbase, %cc16 : index
    %h_v16 = arith.truncf %v16 : f32 to f16
    memref.store %h_v16, %out[%row0, %col16] : memref<64x64xf16>
    %v17 = llvm.extractvalue %acc4[17] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc17 = arith.constant 33 : index
    %col17 = arith.addi %colbase, %cc17 : index
    %h_v17 = arith.truncf %v17 : f32 to f16
    memref.store %h_v17, %out[%row0, %col17] : memref<64x64xf16>
    %v18 = llvm.extractvalue %acc4[18] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc18 = arith.constant 32 : index
    %col18 = arith.addi %colbase, %cc18 : index
    %h_v18 = arith.truncf %v18 : f32 to f16
    memref.store %h_v18, %out[%row8, %col18] : memref<64x64xf16>
    %v19 = llvm.extractvalue %acc4[19] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc19 = arith.constant 33 : index
    %col19 = arith.addi %colbase, %cc19 : index
    %h_v19 = arith.truncf %v19 : f32 to f16
    memref.store %h_v19, %out[%row8, %col19] : memref<64x64xf16>
    %v20 = llvm.extractvalue %acc4[20] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc20 = arith.constant 40 : index
    %col20 = arith.addi %colbase, %cc20 : index
    %h_v20 = arith.truncf %v20 : f32 to f16
    memref.store %h_v20, %out[%row0, %col20] : memref<64x64xf16>
    %v21 = llvm.extractvalue %acc4[21] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc21 = arith.constant 41 : index
    %col21 = arith.addi %colbase, %cc21 : index
    %h_v21 = arith.truncf %v21 : f32 to f16
    memref.store %h_v21, %out[%row0, %col21] : memref<64x64xf16>
    %v22 = llvm.extractvalue %acc4[22] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc22 = arith.constant 40 : index
    %col22 = arith.addi %colbase, %cc22 : index
    %h_v22 = arith.truncf %v22 : f32 to f16
    memref.store %h_v22, %out[%row8, %col22] : memref<64x64xf16>
    %v23 = llvm.extractvalue %acc4[23] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc23 = arith.constant 41 : index
    %col23 = arith.addi %colbase, %cc23 : index
    %h_v23 = arith.truncf %v23 : f32 to f16
    memref.store %h_v23, %out[%row8, %col23] : memref<64x64xf16>
    %v24 = llvm.extractvalue %acc4[24] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc24 = arith.constant 48 : index
    %col24 = arith.addi %colbase, %cc24 : index
    %h_v24 = arith.truncf %v24 : f32 to f16
    memref.store %h_v24, %out[%row0, %col24] : memref<64x64xf16>
    %v25 = llvm.extractvalue %acc4[25] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc25 = arith.constant 49 : index
    %col25 = arith.addi %colbase, %cc25 : index
    %h_v25 = arith.truncf %v25 : f32 to f16
    memref.store %h_v25, %out[%row0, %col25] : memref<64x64xf16>
    %v26 = llvm.extractvalue %acc4[26] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc26 = arith.constant 48 : index
    %col26 = arith.addi %colbase, %cc26 : index
    %h_v26 = arith.truncf %v26 : f32 to f16
    memref.store %h_v26, %out[%row8, %col26] : memref<64x64xf16>
    %v27 = llvm.extractvalue %acc4[27] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc27 = arith.constant 49 : index
    %col27 = arith.addi %colbase, %cc27 : index
    %h_v27 = arith.truncf %v27 : f32 to f16
    memref.store %h_v27, %out[%row8, %col27] : memref<64x64xf16>
    %v28 = llvm.extractvalue %acc4[28] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc28 = arith.constant 56 : index
    %col28 = arith.addi %colbase, %cc28 : index
    %h_v28 = arith.truncf %v28 : f32 to f16
    memref.store %h_v28, %out[%row0, %col28] : memref<64x64xf16>
    %v29 = llvm.extractvalue %acc4[29] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc29 = arith.constant 57 : index
    %col29 = arith.addi %colbase, %cc29 : index
    %h_v29 = arith.truncf %v29 : f32 to f16
    memref.store %h_v29, %out[%row0, %col29] : memref<64x64xf16>
    %v30 = llvm.extractvalue %acc4[30] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc30 = arith.constant 56 : index
    %col30 = arith.addi %colbase, %cc30 : index
    %h_v30 = arith.truncf %v30 : f32 to f16
    memref.store %h_v30, %out[%row8, %col30] : memref<64x64xf16>
    %v31 = llvm.extractvalue %acc4[31] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %cc31 = arith.constant 57 : index
    %col31 = arith.addi %colbase, %cc31 : index
    %h_v31 = arith.truncf %v31 : f32 to f16
    memref.store %h_v31, %out[%row8, %col31] : memref<64x64xf16>
    gpu.return
  }
}
