// acopy.wgmma_descriptor: the wgmma matrix descriptor of a tile, from the
// swizzle of the copies that write it (docs/dialect.md, "Reading a tile with
// wgmma"). The fixed bits differ per swizzle: leading byte offset 16 (field
// 1), stride byte offset 8 rows x S bytes (field S/2), mode 1/2/3 for
// 128/64/32-byte rows; the start address is the tile's shared address plus
// k elements, masked to 18 bits and shifted right by 4.
// RUN: acopy-opt %s --acopy-lower --split-input-file | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a sm_90a sm_90a

// CHECK-LABEL: gpu.func @swizzle128
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<64x64xf16, 3>
// CHECK: %[[A0:.+]] = arith.index_cast %[[BASE]] : index to i64
// CHECK: %[[M0:.+]] = arith.andi %[[A0]], %c262143_i64 : i64
// CHECK: %[[F0:.+]] = arith.shrui %[[M0]], %c4_i64 : i64
// CHECK: %[[D0:.+]] = arith.ori %[[F0]], %c4611686293305360384_i64 : i64
// The K step of 16 f16 elements moves the start by 32 bytes.
// CHECK: %[[S1:.+]] = arith.addi %[[BASE]], %c32 : index
// CHECK: %[[A1:.+]] = arith.index_cast %[[S1]] : index to i64
// CHECK: arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: memref.store %[[D0]], %arg1[%{{.+}}]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @swizzle128(%a: memref<256x64xf16>, %out: memref<2xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
    %d1 = acopy.wgmma_descriptor %ta[%c16] {major = "k"} : memref<64x64xf16, 3>
    memref.store %d0, %out[%c0] : memref<2xi64>
    memref.store %d1, %out[%c1] : memref<2xi64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle64
// CHECK: arith.ori %{{.+}}, %c-9223371899415756800_i64 : i64
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @swizzle64(%a: memref<256x32xbf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x32xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x32xbf16> -> memref<64x32xbf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x32xbf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// A dynamic k (a K loop): k elements of 1 byte each move the start by k bytes.
// CHECK-LABEL: gpu.func @swizzle32_dynamic_k
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<64x32xi8, 3>
// CHECK: %[[S:.+]] = arith.addi %[[BASE]], %arg2 : index
// CHECK: arith.index_cast %[[S]] : index to i64
// CHECK: arith.ori %{{.+}}, %c-4611685949707845632_i64 : i64
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @swizzle32_dynamic_k(%a: memref<256x32xi8>, %out: memref<1xi64>, %k: index) workgroup(%ta: memref<64x32xi8, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<256x32xi8> -> memref<64x32xi8, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d = acopy.wgmma_descriptor %ta[%k] : memref<64x32xi8, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}
