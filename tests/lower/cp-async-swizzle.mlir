// Swizzled tiles on the cp.async path (sm_80): each chunk's shared address
// gets bits 7.. XORed into bits 4.. (TMA's pattern: the 16-byte unit within a
// row of S bytes ^= the row within 8 rows), so the tile holds the bytes TMA's
// CU_TENSOR_MAP_SWIZZLE_{32,64,128}B puts there (docs/lowering-cp-async.md,
// "Swizzled tiles"). The mask is (S/16 - 1) << 4: 16, 48, 112. The tile is
// raised to the pattern's repeat, 8 x S bytes (256, 512, 1024), so the
// pattern, laid on absolute shared addresses, starts at the tile.
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// PTX-LABEL: .entry f16_s32(
// PTX: .shared .align 256 .b8 __wg_f16_s32_0[512];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f16_s32_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 16;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;
// PTX-LABEL: .entry f16_s64(
// PTX: .shared .align 512 .b8 __wg_f16_s64_0[1024];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f16_s64_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 48;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;
// PTX-LABEL: .entry f16_s128(
// PTX: .shared .align 1024 .b8 __wg_f16_s128_0[2048];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f16_s128_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 112;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;
// PTX-LABEL: .entry f32_s32(
// PTX: .shared .align 256 .b8 __wg_f32_s32_0[512];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f32_s32_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 16;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;
// PTX-LABEL: .entry f32_s64(
// PTX: .shared .align 512 .b8 __wg_f32_s64_0[1024];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f32_s64_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 48;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;
// PTX-LABEL: .entry f32_s128(
// PTX: .shared .align 1024 .b8 __wg_f32_s128_0[2048];
// PTX: mov.b64 %rd{{[0-9]+}}, __wg_f32_s128_0;
// PTX: shr.u64 %rd[[R:[0-9]+]], %rd[[A:[0-9]+]], 3;
// PTX-NEXT: and.b64 %rd[[B:[0-9]+]], %rd[[R]], 112;
// PTX-NEXT: xor.b64 %rd[[D:[0-9]+]], %rd[[B]], %rd[[A]];
// PTX-NEXT: cp.async.cg.shared.global [%rd[[D]]], [%rd{{[0-9]+}}{{.*}}], 16;

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // CHECK-LABEL: gpu.func @f16_s32
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x16xf16, 3> {llvm.align = 256 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 16 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f16_s32(%src: memref<256x512xf16>) workgroup(%tile: memref<16x16xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<256x512xf16> -> memref<16x16xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f16_s64
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x32xf16, 3> {llvm.align = 512 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 48 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f16_s64(%src: memref<256x512xf16>) workgroup(%tile: memref<16x32xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x512xf16> -> memref<16x32xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f16_s128
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x64xf16, 3> {llvm.align = 1024 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 112 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f16_s128(%src: memref<256x512xf16>) workgroup(%tile: memref<16x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x512xf16> -> memref<16x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f32_s32
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x8xf32, 3> {llvm.align = 256 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 16 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f32_s32(%src: memref<256x512xf32>) workgroup(%tile: memref<16x8xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<256x512xf32> -> memref<16x8xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f32_s64
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x16xf32, 3> {llvm.align = 512 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 48 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f32_s64(%src: memref<256x512xf32>) workgroup(%tile: memref<16x16xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x512xf32> -> memref<16x16xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }

  // CHECK-LABEL: gpu.func @f32_s128
  // CHECK-SAME: workgroup(%{{.*}} : memref<16x32xf32, 3> {llvm.align = 1024 : i64})
  // CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
  // CHECK-DAG: %[[MASK:.*]] = arith.constant 112 : i64
  // CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.shrui %[[ADDR]], %[[THREE]] : i64
  // CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[ROW]], %[[MASK]] : i64
  // CHECK-NEXT: %[[MOVED:.*]] = arith.xori %[[ADDR]], %[[BITS]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.inttoptr %[[MOVED]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %{{.*}}, 16, cache = {{ *}}cg
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: nvvm.cp.async.commit.group
  gpu.func @f32_s128(%src: memref<256x512xf32>) workgroup(%tile: memref<16x32xf32, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %src[%c8, %c64] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x512xf32> -> memref<16x32xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}
