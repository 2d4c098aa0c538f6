// nvgpu's warp-level matrix ops and cp.async, compute only: ldmatrix and
// mma.sync in every element type the m16n8 shapes take, the sparse
// mma.sp.sync, and device_async_copy. Each kernel goes through acopy-opt's
// emit route (docs/embedding.md, "The emit route") for sm_80 and sm_90 and
// ptxas assembles the PTX; the same file through upstream's
// gpu-lower-to-nvvm-pipeline assembles too (the parity the route promises).
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80 sm_80 sm_80 sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90 sm_90 sm_90 sm_90 sm_90
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80 sm_80 sm_80 sm_80 sm_80
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_90 cubin-features=+ptx80" -o %t.up90
// RUN: %check-ptxas %t.up90 sm_90 sm_90 sm_90 sm_90 sm_90 sm_90

// CHECK-LABEL: .entry mma_f16_f32(
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// LLVM-LABEL: define {{.*}}@mma_f16_f32(
// LLVM: call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16
// LLVM: call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32
gpu.module @m {
  gpu.func @mma_f16_f32(%out: memref<16x8xf32>) workgroup(%a: memref<16x16xf16, #gpu.address_space<workgroup>>, %b: memref<16x8xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lane = gpu.lane_id
    %row = arith.remui %lane, %c1 : index
    %fa = nvgpu.ldmatrix %a[%lane, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %fb = nvgpu.ldmatrix %b[%lane, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %acc = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %v0 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    %v1 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
    memref.store %v0, %out[%row, %c0] : memref<16x8xf32>
    memref.store %v1, %out[%row, %c1] : memref<16x8xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry mma_tf32(
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
gpu.module @m {
  gpu.func @mma_tf32(%a: memref<1xvector<4x1xf32>>, %b: memref<1xvector<2x1xf32>>, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %fa = memref.load %a[%c0] : memref<1xvector<4x1xf32>>
    %fb = memref.load %b[%c0] : memref<1xvector<2x1xf32>>
    %acc = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %v = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
    memref.store %v, %out[%c3] : memref<4xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry mma_i8(
// CHECK: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
gpu.module @m {
  gpu.func @mma_i8(%a: memref<16x32xi8, #gpu.address_space<workgroup>>, %b: memref<8x32xi8, #gpu.address_space<workgroup>>, %out: memref<2xi32>) kernel {
    %c0 = arith.constant 0 : index
    %lane = gpu.lane_id
    %fa = nvgpu.ldmatrix %a[%lane, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x32xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
    %fb = nvgpu.ldmatrix %b[%lane, %c0] {numTiles = 2 : i32, transpose = false} : memref<8x32xi8, #gpu.address_space<workgroup>> -> vector<2x4xi8>
    %acc = arith.constant dense<0> : vector<2x2xi32>
    %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
    %v = vector.extract %d[0, 1] : i32 from vector<2x2xi32>
    memref.store %v, %out[%c0] : memref<2xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry mma_f64(
// CHECK: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
gpu.module @m {
  gpu.func @mma_f64(%a: memref<2xvector<1x1xf64>>, %out: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %fa = memref.load %a[%c0] : memref<2xvector<1x1xf64>>
    %fb = memref.load %a[%c1] : memref<2xvector<1x1xf64>>
    %acc = arith.constant dense<0.0> : vector<1x2xf64>
    %d = nvgpu.mma.sync(%fa, %fb, %acc) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
    %v = vector.extract %d[0, 1] : f64 from vector<1x2xf64>
    memref.store %v, %out[%c1] : memref<2xf64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry mma_sparse(
// CHECK: mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16
gpu.module @m {
  gpu.func @mma_sparse(%a: memref<16x32xf16, #gpu.address_space<workgroup>>, %meta: memref<2xi16>, %out: memref<2xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lane = gpu.lane_id
    %fa = nvgpu.ldmatrix %a[%lane, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %fb = nvgpu.ldmatrix %a[%lane, %c0] {numTiles = 4 : i32, transpose = true} : memref<16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %m0 = memref.load %meta[%c0] : memref<2xi16>
    %m1 = memref.load %meta[%c1] : memref<2xi16>
    %mv = vector.from_elements %m0, %m1 : vector<2xi16>
    %acc = arith.constant dense<0.0> : vector<2x2xf16>
    %d = nvgpu.mma.sp.sync(%fa, %fb, %acc) metadata(%mv) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    %v = vector.extract %d[1, 1] : f16 from vector<2x2xf16>
    memref.store %v, %out[%c0] : memref<2xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry async_copy(
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
gpu.module @m {
  gpu.func @async_copy(%src: memref<128x128xf32>, %out: memref<128xf32>) workgroup(%dst: memref<16x128xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %t = gpu.thread_id x
    %token = nvgpu.device_async_copy %src[%t, %c0], %dst[%t, %c0], 4 {bypassL1} : memref<128x128xf32> to memref<16x128xf32, #gpu.address_space<workgroup>>
    %group = nvgpu.device_async_create_group %token
    nvgpu.device_async_wait %group {numGroups = 0 : i32}
    gpu.barrier
    %v = memref.load %dst[%t, %c0] : memref<16x128xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%t] : memref<128xf32>
    gpu.return
  }
}
