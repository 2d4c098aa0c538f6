// Wide tiles (docs/dialect.md, "Wide tiles"): in strict mode T2 and T4 keep the
// reference's exact texts (STRICT); in fallback mode the copies that can be split
// are kept, each with one remark saying how, and the others get A33, which names
// the limit.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback
// RUN: not acopy-opt %s --split-input-file --acopy-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=STRICT

// A K = 128 f16 wgmma operand with swizzle = 128: two column panels, two boxes.
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies with swizzle=128 require the last dimension of the slice to be exactly 128 bytes i.e.  64 elements, but got 128 elements.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @panels(%src: memref<256x512xf16>, %i: index) workgroup(%tile: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=128 with 128-element rows: 2 column panels, 2 boxes of (64, 64), one barrier, expect_tx 16384 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    gpu.return
  }
}

// -----

// More than 256 rows: row-major boxes of 256 rows.
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies only support copying <=256 elements along each dimension, got (512, 16)
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @rows(%src: memref<1024x64xf32>, %i: index) workgroup(%tile: memref<512x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the wide copy is split (docs/dialect.md, "Wide tiles"): window (512, 16): 2 boxes of (256, 16), one barrier, expect_tx 32768 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) : memref<1024x64xf32> -> memref<512x16xf32, 3>
    gpu.return
  }
}

// -----

// Stores too: the boxes form one bulk group.
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies only support copying <=256 elements along each dimension, got (512, 16)
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store(%out: memref<1024x64xf32>, %i: index) workgroup(%tile: memref<512x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the wide copy is split (docs/dialect.md, "Wide tiles"): window (512, 16): 2 boxes of (256, 16), one bulk group}}
    acopy.copy_smem_to_gmem %tile -> %out[%i, %c0] : memref<512x16xf32, 3> -> memref<1024x64xf32>
    gpu.return
  }
}

// -----

// A one-row window longer than 256 splits along its row.
// STRICT: fallback-wide-tiles.mlir:[[@LINE+4]]:5: error: Async copies only support copying <=256 elements along each dimension, got (1, 512)
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @one_row(%src: memref<4x1024xbf16>, %i: index) workgroup(%dst: memref<512xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    // expected-remark @+1 {{fallback mode keeps this op on sm_90: the wide copy is split (docs/dialect.md, "Wide tiles"): window (1, 512): 2 boxes of (1, 256), one barrier, expect_tx 1024 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%bar : memref<1xi64, 3>) {assume_aligned_start} : memref<4x1024xbf16> -> memref<512xbf16, 3>
    gpu.return
  }
}

// -----

// T2 and T4 both waived for one copy give one remark.
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies only support copying <=256 elements along each dimension, got (512, 128)
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @both(%src: memref<1024x512xf16>, %i: index) workgroup(%tile: memref<512x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=128 with 128-element rows: 2 column panels, 4 boxes of (256, 64), one barrier, expect_tx 131072 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<512x128xf16, 3>
    gpu.return
  }
}

// -----

// The cp.async path writes the same panels (sm_80 has no T2).
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies with swizzle=64 require the last dimension of the slice to be exactly 64 bytes i.e.  16 elements, but got 32 elements.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @cp_async(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<16x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_80: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=64 with 32-element rows: 2 column panels of 16 rows x 64 bytes, each chunk placed in its panel}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x512xf32> -> memref<16x32xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}

// -----

// What fallback mode cannot split: A33 names the limit.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @limits(%src: memref<1024x4096xi8>, %h: memref<1024x1024xf16>, %f: memref<1024x1024xf32>, %i: index)
      workgroup(%wide: memref<64x2048xi8, 3>, %rows12: memref<12x128xf16, 3>, %half: memref<64x96xf16, 3>, %narrow: memref<64x32xf16, 3>,
                %two_rows: memref<2x512xf32, 3>, %prime: memref<257x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // RULE: A33
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): it would need 64 TMA boxes, more than the 32 acopy issues for one copy}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %wide barrier(%bar : memref<1xi64, 3>) {swizzle = 32 : i64} : memref<1024x4096xi8> -> memref<64x2048xi8, 3>
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): its 12 rows are not a multiple of 8, so its column panels (12 rows of 128 bytes each) would not start on a whole swizzle pattern}}
    acopy.copy_gmem_to_smem %h[%i, %c0] -> %rows12 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x1024xf16> -> memref<12x128xf16, 3>
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): its rows of 192 bytes are not a whole number of 128-byte swizzle spans, so they cannot be stored as column panels}}
    acopy.copy_gmem_to_smem %h[%i, %c0] -> %half barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x1024xf16> -> memref<64x96xf16, 3>
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): its rows of 64 bytes are not a whole number of 128-byte swizzle spans, so they cannot be stored as column panels}}
    acopy.copy_gmem_to_smem %h[%i, %c0] -> %narrow barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x1024xf16> -> memref<64x32xf16, 3>
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): its innermost dimension of 512 elements needs several boxes, which can keep a row-major tile only for a one-row window, but it has 2 rows}}
    acopy.copy_gmem_to_smem %f[%i, %c0] -> %two_rows barrier(%bar : memref<1xi64, 3>) : memref<1024x1024xf32> -> memref<2x512xf32, 3>
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): no box length along dimension 0 (257 elements) divides it, is at most 256 and starts every box 128-byte aligned in the tile}}
    acopy.copy_gmem_to_smem %f[%i, %c0] -> %prime barrier(%bar : memref<1xi64, 3>) : memref<1024x1024xf32> -> memref<257x16xf32, 3>
    gpu.return
  }
}

// -----

// A multicast copy is planned for one box per CTA: not split.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @multicast(%src: memref<256x512xf16>, %i: index) workgroup(%tile: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): a multicast or leader_tracked copy is planned for one box per CTA and cannot be split into several}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {collective_axes = ["x"], swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    gpu.return
  }
}

// -----

// A multicast whose per-CTA box fits is not wide: 512 rows over 2 CTAs is
// 2 boxes of 256 rows, one per CTA, as in strict mode (no remark).
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @multicast_fits(%src: memref<1024x64xf32>, %i: index) workgroup(%tile: memref<512x16xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {collective_axes = ["x"]} : memref<1024x64xf32> -> memref<512x16xf32, 3>
    gpu.return
  }
}

// -----

// On cp.async chips the panels' limits are the same (the same bytes on both paths).
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  gpu.func @cp_async_rows(%src: memref<256x512xf16>, %i: index) workgroup(%tile: memref<12x128xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{fallback mode cannot split this wide copy (docs/dialect.md, "Wide tiles"): its 12 rows are not a multiple of 8, so its column panels (12 rows of 128 bytes each) would not start on a whole swizzle pattern}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x512xf16> -> memref<12x128xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    gpu.return
  }
}

// -----

// The tensor map of a split copy is its box's (A27 counts it so): 16 maps,
// then a wide copy whose boxes (8, 64) share the first map, accepted.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @maps(%src: memref<1024x512xf16>, %i: index) workgroup(%t1: memref<8x64xf16, 3>, %t2: memref<16x64xf16, 3>, %t3: memref<24x64xf16, 3>, %t4: memref<32x64xf16, 3>, %t5: memref<40x64xf16, 3>, %t6: memref<48x64xf16, 3>, %t7: memref<56x64xf16, 3>, %t8: memref<64x64xf16, 3>, %t9: memref<72x64xf16, 3>, %t10: memref<80x64xf16, 3>, %t11: memref<88x64xf16, 3>, %t12: memref<96x64xf16, 3>, %t13: memref<104x64xf16, 3>, %t14: memref<112x64xf16, 3>, %t15: memref<120x64xf16, 3>, %t16: memref<128x64xf16, 3>, %wide: memref<8x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t1 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<8x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t2 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<16x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t3 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<24x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t4 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<32x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t5 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<40x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t6 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<48x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t7 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<56x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t8 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t9 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<72x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t10 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<80x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t11 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<88x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t12 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<96x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t13 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<104x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t14 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<112x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t15 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<120x64xf16, 3>
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %t16 barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<128x64xf16, 3>
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=128 with 128-element rows: 2 column panels, 2 boxes of (8, 64), one barrier, expect_tx 2048 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %wide barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<8x128xf16, 3>
    gpu.return
  }
}

// -----

// A wgmma descriptor of a tile of column panels reads it panel by panel
// (tests/lower/wgmma-descriptor-panels.mlir); one of a view of part of it
// would get the wrong panel stride (A32), and a row that is no whole number
// of spans has no descriptor.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @descriptors(%src: memref<256x512xf16>, %out: memref<4xi64>) workgroup(%tile: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the wide copy is split}}
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    %whole = acopy.wgmma_descriptor %tile[%c64] : memref<64x128xf16, 3>
    %half = memref.subview %tile[0, 64] [64, 64] [1, 1] : memref<64x128xf16, 3> to memref<64x64xf16, strided<[128, 1], offset: 64>, 3>
    // expected-error @+1 {{acopy.wgmma_descriptor cannot describe the tile memref<64x64xf16, strided<[128, 1], offset: 64>, 3>: its copies write memref<64x128xf16, 3> as column panels (docs/dialect.md, "Wide tiles"), whose stride is that tile's rows, so the descriptor must read that whole tile, with that type}}
    %part = acopy.wgmma_descriptor %half[%c0] : memref<64x64xf16, strided<[128, 1], offset: 64>, 3>
    memref.store %whole, %out[%c0] : memref<4xi64>
    memref.store %part, %out[%c64] : memref<4xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @descriptor_row(%src: memref<256x512xf16>, %out: memref<1xi64>) workgroup(%tile: memref<64x96xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{fallback mode cannot split this wide copy}}
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x96xf16, 3>
    // expected-error @+1 {{acopy.wgmma_descriptor cannot describe the tile memref<64x96xf16, 3>: a K-major tile written with swizzle = 128 needs rows of a whole number of 128-byte spans (one, or column panels: docs/dialect.md, "Wide tiles"), but its rows have 192 bytes}}
    %d = acopy.wgmma_descriptor %tile[%c0] : memref<64x96xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// A constant start TMA cannot take (A18, waived too): only the non-TMA path
// runs, so the remark names no boxes.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @misaligned(%src: memref<256x512xf16>, %f: memref<1024x64xf32>) workgroup(%tile: memref<64x128xf16, 3>, %rows: memref<512x16xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    // expected-remark @+2 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=128 with 128-element rows: 2 column panels of 64 rows x 128 bytes, each chunk placed in its panel}}
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the copy takes a non-TMA path}}
    acopy.copy_gmem_to_smem %src[%c0, %c3] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<256x512xf16> -> memref<64x128xf16, 3>
    // expected-remark @+2 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): window (512, 16): row-major, written by the non-TMA path}}
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the copy takes a non-TMA path}}
    acopy.copy_gmem_to_smem %f[%c0, %c3] -> %rows barrier(%bar : memref<1xi64, 3>) : memref<1024x64xf32> -> memref<512x16xf32, 3>
    gpu.return
  }
}

// -----

// Swizzled rows of exactly one span but more than 256 of them: one panel, so the remark
// names only the boxes (no "1 column panels").
// STRICT: fallback-wide-tiles.mlir:[[@LINE+5]]:5: error: Async copies only support copying <=256 elements along each dimension, got (512, 64)
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @tall_swizzled(%src: memref<1024x512xf16>, %i: index) workgroup(%tile: memref<512x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{fallback mode keeps this op on sm_90a: the wide copy is split (docs/dialect.md, "Wide tiles"): swizzle=128 with 64-element rows: 2 boxes of (256, 64), one barrier, expect_tx 65536 bytes}}
    acopy.copy_gmem_to_smem %src[%i, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {swizzle = 128 : i64} : memref<1024x512xf16> -> memref<512x64xf16, 3>
    gpu.return
  }
}
