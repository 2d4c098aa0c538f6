// acopy.wgmma_descriptor of a tile of column panels (fallback mode;
// docs/dialect.md, "Wide tiles" and "acopy.wgmma_descriptor"): a 64 x 128 f16
// K-major operand written with swizzle = 128 is 2 panels of 64 rows x 128
// bytes; K step k starts in panel k·2 / 128, 8192 bytes each, at k·2 mod 128
// into its row. The fixed bits are those of one span (leading 16, stride
// 1024, mode 1).
// RUN: acopy-opt %s --acopy-lower --acopy-fallback 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a

// CHECK-LABEL: gpu.func @panels
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<64x128xf16, 3>
// k = 0: the tile.
// CHECK: %[[A0:.+]] = arith.index_cast %[[BASE]] : index to i64
// CHECK: %[[M0:.+]] = arith.andi %[[A0]], %c262143_i64 : i64
// CHECK: %[[F0:.+]] = arith.shrui %[[M0]], %c4_i64 : i64
// CHECK: %[[D0:.+]] = arith.ori %[[F0]], %c4611686293305360384_i64 : i64
// k = 48: panel 0, 96 bytes in.
// CHECK: %[[S1:.+]] = arith.addi %[[BASE]], %c96 : index
// CHECK: %[[D1:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// k = 64: panel 1, at 64 rows x 128 bytes.
// CHECK: %[[S2:.+]] = arith.addi %[[BASE]], %c8192 : index
// CHECK: %[[D2:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// k = 112: panel 1, 96 bytes in.
// CHECK: %[[S3:.+]] = arith.addi %[[BASE]], %c8288 : index
// CHECK: %[[D3:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// A dynamic k: (2k / 128) · 8192 + (2k mod 128).
// CHECK: %[[KB:.+]] = arith.muli %[[K:.+]], %c2 : index
// CHECK: %[[J:.+]] = arith.divui %[[KB]], %c128 : index
// CHECK: %[[JB:.+]] = arith.muli %[[J]], %c8192 : index
// CHECK: %[[IN:.+]] = arith.andi %[[KB]], %c127 : index
// CHECK: %[[OFF:.+]] = arith.addi %[[JB]], %[[IN]] : index
// CHECK: %[[S4:.+]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK: %[[D4:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: memref.store %[[D0]]
// CHECK: memref.store %[[D1]]
// CHECK: memref.store %[[D2]]
// CHECK: memref.store %[[D3]]
// CHECK: memref.store %[[D4]]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @panels(%a: memref<256x512xf16>, %out: memref<5xi64>, %k: index) workgroup(%ta: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c112 = arith.constant 112 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d0 = acopy.wgmma_descriptor %ta[%c0] : memref<64x128xf16, 3>
    %d1 = acopy.wgmma_descriptor %ta[%c48] : memref<64x128xf16, 3>
    %d2 = acopy.wgmma_descriptor %ta[%c64] : memref<64x128xf16, 3>
    %d3 = acopy.wgmma_descriptor %ta[%c112] : memref<64x128xf16, 3>
    %d4 = acopy.wgmma_descriptor %ta[%k] : memref<64x128xf16, 3>
    memref.store %d0, %out[%c0] : memref<5xi64>
    memref.store %d1, %out[%c1] : memref<5xi64>
    memref.store %d2, %out[%c2] : memref<5xi64>
    memref.store %d3, %out[%c3] : memref<5xi64>
    memref.store %d4, %out[%c4] : memref<5xi64>
    gpu.return
  }
}
