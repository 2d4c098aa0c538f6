// acopy.swizzled_index lowers to index arithmetic (docs/dialect.md,
// "acopy.swizzled_index"): constant indices fold to the stored position,
// dynamic ones get the copy's own pattern (the 16-byte unit XORed with bits
// 7.. of the byte offset, which come from the row alone), an unswizzled tile
// the identity, column panels their panel's start added. No acopy op is left and the PTX assembles.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --split-input-file 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --split-input-file --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_80 sm_80 sm_80 sm_90 sm_80 sm_80
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16

// Logical (1, 0) is stored at (1, 8) (row 1 XORs unit 0 with 1), (9, 63) at
// (9, 55) (unit 7 ^ 1 = 6, element 7 of it), (0, 5) where it is.
// CHECK-LABEL: gpu.func @constant
// CHECK-NOT: acopy.swizzled_index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C9:.+]] = arith.constant 9 : index
// CHECK-DAG: %[[C55:.+]] = arith.constant 55 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK: memref.load %{{.+}}[%[[C1]], %[[C8]]] : memref<64x64xf16, 3>
// CHECK: memref.load %{{.+}}[%[[C9]], %[[C55]]] : memref<64x64xf16, 3>
// CHECK: memref.load %{{.+}}[%[[C0]], %[[C5]]] : memref<64x64xf16, 3>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @constant(%a: memref<256x64xf16>, %out: memref<3xf16>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c9 = arith.constant 9 : index
    %c63 = arith.constant 63 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%c1, %c0] : memref<64x64xf16, 3>
    %q:2 = acopy.swizzled_index %t[%c9, %c63] : memref<64x64xf16, 3>
    %r:2 = acopy.swizzled_index %t[%c0, %c5] : memref<64x64xf16, 3>
    %v0 = memref.load %t[%p#0, %p#1] : memref<64x64xf16, 3>
    %v1 = memref.load %t[%q#0, %q#1] : memref<64x64xf16, 3>
    %v2 = memref.load %t[%r#0, %r#1] : memref<64x64xf16, 3>
    memref.store %v0, %out[%c0] : memref<3xf16>
    memref.store %v1, %out[%c1] : memref<3xf16>
    memref.store %v2, %out[%c2] : memref<3xf16>
    gpu.return
  }
}

// -----

// Dynamic indices, swizzle = 64 on bf16 rows of 64 bytes, built per part: the
// row's start row * 64, its bits 7.. (/ 128, mod the 4 units, * 16) XORed
// into the column's byte in the span (col * 2, masked to 63); the row
// stays, the column is that byte / 2. The row enters only through the XOR
// term, so rows 8 apart give addresses a constant apart.
// CHECK-LABEL: gpu.func @dynamic
// CHECK-NOT: acopy.swizzled_index
// CHECK-SAME: (%{{.+}}: memref<256x32xbf16>, %{{.+}}: memref<64x32xbf16>, %[[ROW:.+]]: index, %[[COL:.+]]: index)
// CHECK: %[[CB:.+]] = arith.muli %[[COL]], %c2 : index
// CHECK: %[[RB:.+]] = arith.muli %[[ROW]], %c64 : index
// CHECK: %[[S:.+]] = arith.divui %[[RB]], %c128 : index
// CHECK: %[[U:.+]] = arith.andi %[[S]], %c3 : index
// CHECK: %[[K:.+]] = arith.muli %[[U]], %c16 : index
// CHECK: %[[IN:.+]] = arith.andi %[[CB]], %c63 : index
// CHECK: %[[P:.+]] = arith.xori %[[IN]], %[[K]] : index
// CHECK: %[[PC:.+]] = arith.divui %[[P]], %c2 : index
// CHECK: memref.load %{{.+}}[%[[ROW]], %[[PC]]] : memref<64x32xbf16, 3>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @dynamic(%a: memref<256x32xbf16>, %out: memref<64x32xbf16>, %row: index, %col: index) workgroup(%t: memref<64x32xbf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x32xbf16> -> memref<64x32xbf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%row, %col] : memref<64x32xbf16, 3>
    %v = memref.load %t[%p#0, %p#1] : memref<64x32xbf16, 3>
    memref.store %v, %out[%row, %col] : memref<64x32xbf16>
    gpu.return
  }
}

// -----

// An unswizzled tile: the identity, no arithmetic.
// CHECK-LABEL: gpu.func @unswizzled
// CHECK-SAME: (%{{.+}}: memref<256x32xf32>, %{{.+}}: memref<32x32xf32>, %[[ROW:.+]]: index, %[[COL:.+]]: index)
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK: memref.load %{{.+}}[%[[ROW]], %[[COL]]] : memref<32x32xf32, 3>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @unswizzled(%a: memref<256x32xf32>, %out: memref<32x32xf32>, %row: index, %col: index) workgroup(%t: memref<32x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds"} : memref<256x32xf32> -> memref<32x32xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%row, %col] : memref<32x32xf32, 3>
    %v = memref.load %t[%p#0, %p#1] : memref<32x32xf32, 3>
    memref.store %v, %out[%row, %col] : memref<32x32xf32>
    gpu.return
  }
}

// -----

// Column panels on the TMA path (fallback mode): logical (0, 64) starts
// panel 1 at byte 8192, row 32 of the 128-wide tile; (1, 64) is that row's
// next 128 bytes with unit 0 XORed with 1: (32, 72). A dynamic column: its
// byte in the span XORed with the row's bits, plus its panel's start (8192
// per panel) and the row's, then divided back by the 256-byte row.
// CHECK-LABEL: gpu.func @panels
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C72:.+]] = arith.constant 72 : index
// CHECK: arith.xori %{{.+}}, %c16 : index
// CHECK: arith.muli %{{.+}}, %c8192 : index
// CHECK: %[[PR:.+]] = arith.divui %{{.+}}, %c256 : index
// CHECK: memref.load %{{.+}}[%[[C32]], %[[C0]]] : memref<64x128xf16, 3>
// CHECK: memref.load %{{.+}}[%[[C32]], %[[C72]]] : memref<64x128xf16, 3>
// CHECK: memref.load %{{.+}}[%[[PR]], %{{.+}}] : memref<64x128xf16, 3>
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @panels(%a: memref<256x128xf16>, %out: memref<3xf16>, %col: index) workgroup(%t: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x128xf16> -> memref<64x128xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %p:2 = acopy.swizzled_index %t[%c0, %c64] : memref<64x128xf16, 3>
    %q:2 = acopy.swizzled_index %t[%c1, %c64] : memref<64x128xf16, 3>
    %r:2 = acopy.swizzled_index %t[%c1, %col] : memref<64x128xf16, 3>
    %v0 = memref.load %t[%p#0, %p#1] : memref<64x128xf16, 3>
    %v1 = memref.load %t[%q#0, %q#1] : memref<64x128xf16, 3>
    %v2 = memref.load %t[%r#0, %r#1] : memref<64x128xf16, 3>
    memref.store %v0, %out[%c0] : memref<3xf16>
    memref.store %v1, %out[%c1] : memref<3xf16>
    memref.store %v2, %out[%c2] : memref<3xf16>
    gpu.return
  }
}

// -----

// The pair composes with vector.load and nvgpu.ldmatrix as with memref.load:
// a read of one 16-byte unit (8 f16 from a column that is a multiple of 8),
// which the pattern keeps whole; ldmatrix gets each lane's row start.
// CHECK-LABEL: gpu.func @vector_and_ldmatrix
// CHECK: %[[VC:.+]] = arith.divui %{{.+}}, %c2 : index
// CHECK: vector.load %{{.+}}[%{{.+}}, %[[VC]]] : memref<64x64xf16, 3>, vector<8xf16>
// CHECK: %[[LC:.+]] = arith.divui %{{.+}}, %c2 : index
// CHECK: nvgpu.ldmatrix %{{.+}}[%{{.+}}, %[[LC]]] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, 3> -> vector<4x2xf16>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @vector_and_ldmatrix(%a: memref<256x64xf16>, %out: memref<64x64xf16>, %frag: memref<32x2xf16>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %lane = gpu.thread_id x
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %unit = arith.remui %lane, %c8 : index
    %col = arith.muli %unit, %c8 : index
    %p:2 = acopy.swizzled_index %t[%lane, %col] : memref<64x64xf16, 3>
    %v = vector.load %t[%p#0, %p#1] : memref<64x64xf16, 3>, vector<8xf16>
    vector.store %v, %out[%lane, %col] : memref<64x64xf16>, vector<8xf16>
    %lrow = arith.remui %lane, %c16 : index
    %half = arith.divui %lane, %c16 : index
    %lcol = arith.muli %half, %c8 : index
    %q:2 = acopy.swizzled_index %t[%lrow, %lcol] : memref<64x64xf16, 3>
    %m = nvgpu.ldmatrix %t[%q#0, %q#1] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, 3> -> vector<4x2xf16>
    %m0 = vector.extract %m[0] : vector<2xf16> from vector<4x2xf16>
    vector.store %m0, %frag[%lane, %c0] : memref<32x2xf16>, vector<2xf16>
    gpu.return
  }
}

// -----

// A constant far outside the tile is not folded (the plan's arithmetic would
// overflow); the run-time arithmetic wraps, and the position is unspecified,
// as for memref.load out of bounds. No crash, no acopy op left.
// CHECK-LABEL: gpu.func @huge
// CHECK-NOT: acopy.swizzled_index
// CHECK: arith.xori %{{.+}}, %{{.+}} : index
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @huge(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%big, %big] : memref<64x64xf16, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
}
