// acopy.wgmma_descriptor refusals: a chip without wgmma (A31) and a tile the
// descriptor cannot describe (A32), each reason once.
// RUN: acopy-opt %s --acopy-verify --verify-diagnostics --split-input-file

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // RULE: A31
    // expected-error @+1 {{acopy.wgmma_descriptor describes a tile for wgmma, which only sm_90a has; sm_90 has none}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // RULE: A32
    // expected-error @+1 {{acopy.wgmma_descriptor cannot describe the tile memref<64x64xf16, 3>: the copies that write the tile have swizzle = 0; wgmma reads a row-major tile only through a swizzled layout: copy it with swizzle = 32, 64 or 128 (rows of exactly that many bytes)}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{no acopy.copy_gmem_to_smem in the kernel writes the tile, so its layout is unknown}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// MN-major refusals: an element wgmma does not transpose (tf32), rows (K) that
// are not whole K steps, rows (M/N) that are not whole spans, and a constant k
// past the tile's rows.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x32xf32>, %out: memref<1xi64>) workgroup(%ta: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x32xf32> -> memref<64x32xf32, 3>
    // expected-error @+1 {{acopy.wgmma_descriptor cannot describe the tile memref<64x32xf32, 3>: major = "mn" needs f16 or bf16 elements (wgmma transposes only 16-bit operands), but the tile holds f32: copy the operand K-major (its rows along K) and use major = "k"}}
    %d = acopy.wgmma_descriptor %ta[%c0] {major = "mn"} : memref<64x32xf32, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<24x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<24x64xf16, 3>
    // expected-error @+1 {{an MN-major tile's rows run along K, so it needs a multiple of 16 rows (one wgmma K step), but it has 24}}
    %d = acopy.wgmma_descriptor %ta[%c0] {major = "mn"} : memref<24x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // Half of the N extent: one wgmma reads whole swizzle atoms along N.
    %half = memref.subview %ta[0, 0] [64, 32] [1, 1] : memref<64x64xf16, 3> to memref<64x32xf16, strided<[64, 1]>, 3>
    // expected-error @+1 {{an MN-major tile written with swizzle = 128 needs rows (its M or N extent, which one wgmma reads whole) of a whole number of 128-byte spans: 64 elements, or column panels of them (docs/dialect.md, "Wide tiles"), but its rows have 64 bytes}}
    %d = acopy.wgmma_descriptor %half[%c0] {major = "mn"} : memref<64x32xf16, strided<[64, 1]>, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // expected-error @+1 {{k = 64 must be a multiple of the wgmma K step (16 rows) with k + 16 <= 64, the rows of the MN-major tile (its K extent)}}
    %d = acopy.wgmma_descriptor %ta[%c64] {major = "mn"} : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // expected-error @+1 {{k = 8 must be a multiple of the wgmma K step (16 elements) with k + 16 <= 64, the row length}}
    %d = acopy.wgmma_descriptor %ta[%c8] : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x32xi32>, %out: memref<1xi64>) workgroup(%ta: memref<64x32xi32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x32xi32> -> memref<64x32xi32, 3>
    // expected-error @+1 {{wgmma reads f16, bf16, f32 (as tf32) and 8-bit elements, but the tile holds i32}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x32xi32, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // expected-error @+1 {{Async copies with swizzle=64 require the last dimension of the slice to be exactly 64 bytes}}
    acopy.copy_gmem_to_smem %a[%c32, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    // expected-error @+1 {{the copies that write the tile use different swizzles (128, 64)}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<60x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<60x64xf16, 3>
    // expected-error @+1 {{the tile must be rank 2 with a multiple of 8 rows (wgmma reads 8-row core matrices), but it is memref<60x64xf16, 3>}}
    %d = acopy.wgmma_descriptor %ta[%c0] : memref<60x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// A view of the written tile must start on a whole swizzle pattern (8 rows x 128
// bytes = 1024 bytes): 17 rows in is 2176 bytes, a multiple of 128 and of 136 but
// not of 1024. A shard-10 mutation survivor (2026-12-03: the pattern's 8 x span as
// 8 + span) accepted it.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<256x64xf16>, %out: memref<1xi64>) workgroup(%ta: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %ta barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    %part = memref.subview %ta[17, 0] [16, 64] [1, 1] : memref<64x64xf16, 3> to memref<16x64xf16, strided<[64, 1], offset: 1088>, 3>
    // expected-error @+1 {{acopy.wgmma_descriptor cannot describe the tile memref<16x64xf16, strided<[64, 1], offset: 1088>, 3>: starts 2176 bytes into its buffer (a swizzled tile is aligned to 8 rows of the swizzle span, so that the swizzle pattern starts at the tile)}}
    %d = acopy.wgmma_descriptor %part[%c0] : memref<16x64xf16, strided<[64, 1], offset: 1088>, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}
