// acopy.swizzled_index refusals (A34), each reason once: what the copies that
// write the tile leave unknown or the index cannot express (docs/dialect.md,
// "acopy.swizzled_index"). Fallback mode, so that column panels and a
// 64-byte swizzle of 128-byte rows are copies acopy accepts.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify --acopy-fallback

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @no_writer(%out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<64x64xf16, 3>: no acopy.copy_gmem_to_smem in the kernel writes the tile, so its layout is unknown}}
    %p:2 = acopy.swizzled_index %t[%c1, %c0] : memref<64x64xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @writers_disagree(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // expected-remark @+1 {{fallback mode keeps this op on sm_80}}
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<64x64xf16, 3>: the copies that write the tile use different swizzles (128, 64)}}
    %p:2 = acopy.swizzled_index %t[%c0, %c0] : memref<64x64xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// The same memory read as rows of 96 bytes, which no 128-byte span divides.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @row(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%buf: memref<8192xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %r = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x48xf16, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<64x48xf16, 3>: a tile written with swizzle = 128 needs rows of a whole number of 128-byte spans (one, or column panels: docs/dialect.md, "Wide tiles"), but its rows have 96 bytes}}
    %p:2 = acopy.swizzled_index %r[%c0, %c0] : memref<64x48xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// An element the 16-byte units of the pattern do not hold whole.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @element(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%buf: memref<8192xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %r = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x8xvector<3xf32>, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<64x8xvector<3xf32>, 3>: the swizzle moves 16-byte units, which must hold whole elements of 1, 2, 4 or 8 bytes, but the tile holds vector<3xf32>}}
    %p:2 = acopy.swizzled_index %r[%c0, %c0] : memref<64x8xvector<3xf32>, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// Rank 3, and rows that are not contiguous (a column slice).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @shape(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%buf: memref<8192xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %r3 = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<2x32x64xf16, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<2x32x64xf16, 3>: the tile must be rank 2 with contiguous rows (strides [W, 1]), but it is memref<2x32x64xf16, 3>}}
    %p:2 = acopy.swizzled_index %r3[%c0, %c0] : memref<2x32x64xf16, 3>
    %half = memref.subview %t[0, 0] [64, 32] [1, 1] : memref<64x64xf16, 3> to memref<64x32xf16, strided<[64, 1]>, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<64x32xf16, strided<[64, 1]>, 3>: the tile must be rank 2 with contiguous rows (strides [W, 1]), but it is memref<64x32xf16, strided<[64, 1]>, 3>}}
    %q:2 = acopy.swizzled_index %half[%c0, %c0] : memref<64x32xf16, strided<[64, 1]>, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    memref.store %q#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// Rows 1..8 start 128 bytes into the tile, not on a whole 1024-byte pattern;
// rows 8..15 start on one and are indexed.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @alignment(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %rows = memref.subview %t[1, 0] [8, 64] [1, 1] : memref<64x64xf16, 3> to memref<8x64xf16, strided<[64, 1], offset: 64>, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<8x64xf16, strided<[64, 1], offset: 64>, 3>: the tile starts 128 bytes into its buffer (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    %p:2 = acopy.swizzled_index %rows[%c0, %c0] : memref<8x64xf16, strided<[64, 1], offset: 64>, 3>
    %group = memref.subview %t[8, 0] [8, 64] [1, 1] : memref<64x64xf16, 3> to memref<8x64xf16, strided<[64, 1], offset: 512>, 3>
    %q:2 = acopy.swizzled_index %group[%c0, %c0] : memref<8x64xf16, strided<[64, 1], offset: 512>, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    memref.store %q#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// Column panels (docs/dialect.md, "Wide tiles") are indexed only through the
// tile the copies write: another view of its memory with one-span rows gets
// the wrong panel stride.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @panel_view(%a: memref<256x128xf16>, %out: memref<2xindex>) workgroup(%buf: memref<16384xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.view %buf[%c0][] : memref<16384xi8, 3> to memref<64x128xf16, 3>
    // expected-remark @+1 {{fallback mode keeps this op on sm_80}}
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x128xf16> -> memref<64x128xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %whole:2 = acopy.swizzled_index %t[%c0, %c0] : memref<64x128xf16, 3>
    %r = memref.view %buf[%c0][] : memref<16384xi8, 3> to memref<128x64xf16, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<128x64xf16, 3>: its copies write memref<64x128xf16, 3> as column panels (docs/dialect.md, "Wide tiles"), whose stride is that tile's rows, so the index must read that whole tile, with that type}}
    %p:2 = acopy.swizzled_index %r[%c0, %c0] : memref<128x64xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    memref.store %whole#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// Rows of two spans whose copies write one-span rows: no column panels.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @not_paneled(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%buf: memref<8192xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<64x64xf16, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %r = memref.view %buf[%c0][] : memref<8192xi8, 3> to memref<32x128xf16, 3>
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<32x128xf16, 3>: its rows are several swizzle spans, laid out as column panels (docs/dialect.md, "Wide tiles") only by copies that write that very tile, but its copies write memref<64x64xf16, 3>}}
    %p:2 = acopy.swizzled_index %r[%c0, %c0] : memref<32x128xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

// Panels of 12 rows have no layout (A33 refuses the copy; the index says why
// it has none).
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @panel_rows(%a: memref<256x128xf16>, %out: memref<2xindex>) workgroup(%t: memref<12x128xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{fallback mode cannot split this wide copy}}
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x128xf16> -> memref<12x128xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    // RULE: A34
    // expected-error @+1 {{acopy.swizzled_index cannot index the tile memref<12x128xf16, 3>: its 12 rows are not a multiple of 8, so its column panels (12 rows of 128 bytes each) would not start on a whole swizzle pattern}}
    %p:2 = acopy.swizzled_index %t[%c0, %c0] : memref<12x128xf16, 3>
    memref.store %p#1, %out[%c0] : memref<2xindex>
    gpu.return
  }
}
