// acopy.wgmma_descriptor {major = "mn"} (docs/dialect.md, "acopy.wgmma_descriptor"):
// an MN-major operand, e.g. B of a row-major A·B stored K × N, is a tile of K
// rows × N columns. The swizzle atom is 8 rows (K) × S bytes (N): the stride
// byte offset is 8 S as for K-major, the leading byte offset is the distance
// from one atom to the next along N (the next column panel, R·S bytes, when N
// spans several; 16, unused, for one span), the mode bits are those of S, and
// K step k moves the start k rows of S bytes down.
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --split-input-file 2>/dev/null | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --acopy-fallback --emit=ptx --split-input-file -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a sm_90a sm_90a sm_90a

// One 128-byte span (K = 64, N = 64 f16): leading 16 (field 1), stride 1024
// (field 64), mode 1; k = 16 and k = 48 start 16 and 48 rows down.
// CHECK-LABEL: gpu.func @mn_swizzle128
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<64x64xf16, 3>
// CHECK: %[[A0:.+]] = arith.index_cast %[[BASE]] : index to i64
// CHECK: %[[M0:.+]] = arith.andi %[[A0]], %c262143_i64 : i64
// CHECK: %[[F0:.+]] = arith.shrui %[[M0]], %c4_i64 : i64
// CHECK: %[[D0:.+]] = arith.ori %[[F0]], %c4611686293305360384_i64 : i64
// CHECK: %[[S1:.+]] = arith.addi %[[BASE]], %c2048 : index
// CHECK: %[[A1:.+]] = arith.index_cast %[[S1]] : index to i64
// CHECK: %[[D1:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: %[[S3:.+]] = arith.addi %[[BASE]], %c6144 : index
// CHECK: %[[D3:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// CHECK: memref.store %[[D0]]
// CHECK: memref.store %[[D1]]
// CHECK: memref.store %[[D3]]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mn_swizzle128(%b: memref<128x64xf16>, %out: memref<3xi64>) workgroup(%tb: memref<64x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %b[%c0, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x64xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d0 = acopy.wgmma_descriptor %tb[%c0] {major = "mn"} : memref<64x64xf16, 3>
    %d1 = acopy.wgmma_descriptor %tb[%c16] {major = "mn"} : memref<64x64xf16, 3>
    %d3 = acopy.wgmma_descriptor %tb[%c48] {major = "mn"} : memref<64x64xf16, 3>
    memref.store %d0, %out[%c0] : memref<3xi64>
    memref.store %d1, %out[%c1] : memref<3xi64>
    memref.store %d3, %out[%c2] : memref<3xi64>
    gpu.return
  }
}

// -----

// Two 128-byte panels (K = 64, N = 128 f16, fallback mode's column panels):
// the leading byte offset is one panel, 64 rows × 128 = 8192 bytes (field
// 512): (512 << 16) | (64 << 32) | (1 << 62). K step 32 starts 32 rows × 128
// bytes down, in panel 0 (the hardware adds the leading offset for panel 1).
// CHECK-LABEL: gpu.func @mn_panels
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<64x128xf16, 3>
// CHECK: %[[D0:.+]] = arith.ori %{{.+}}, %c4611686293338849280_i64 : i64
// CHECK: %[[S1:.+]] = arith.addi %[[BASE]], %c4096 : index
// CHECK: %[[D1:.+]] = arith.ori %{{.+}}, %c4611686293338849280_i64 : i64
// CHECK: memref.store %[[D0]]
// CHECK: memref.store %[[D1]]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mn_panels(%b: memref<128x128xf16>, %out: memref<2xi64>) workgroup(%tb: memref<64x128xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %b[%c0, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<128x128xf16> -> memref<64x128xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d0 = acopy.wgmma_descriptor %tb[%c0] {major = "mn"} : memref<64x128xf16, 3>
    %d1 = acopy.wgmma_descriptor %tb[%c32] {major = "mn"} : memref<64x128xf16, 3>
    memref.store %d0, %out[%c0] : memref<2xi64>
    memref.store %d1, %out[%c1] : memref<2xi64>
    gpu.return
  }
}

// -----

// 64-byte rows (K = 32, N = 32 bf16): leading 16, stride 512 (field 32), mode 2;
// two 64-byte panels (N = 64) would give a leading offset of 32 rows × 64 bytes.
// A dynamic k moves the start k rows of 64 bytes.
// CHECK-LABEL: gpu.func @mn_swizzle64_dynamic_k
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<32x32xbf16, 3>
// CHECK: %[[KB:.+]] = arith.muli %arg2, %c64 : index
// CHECK: %[[S:.+]] = arith.addi %[[BASE]], %[[KB]] : index
// CHECK: arith.index_cast %[[S]] : index to i64
// CHECK: arith.ori %{{.+}}, %c-9223371899415756800_i64 : i64
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mn_swizzle64_dynamic_k(%b: memref<64x32xbf16>, %out: memref<1xi64>, %k: index) workgroup(%tb: memref<32x32xbf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %b[%c0, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<64x32xbf16> -> memref<32x32xbf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d = acopy.wgmma_descriptor %tb[%k] {major = "mn"} : memref<32x32xbf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// 32-byte rows in 4 panels (K = 16, N = 64 f16): leading 16 rows × 32 = 512
// bytes (field 32), stride 256 (field 16), mode 3.
// CHECK-LABEL: gpu.func @mn_swizzle32_panels
// CHECK: arith.ori %{{.+}}, %c-4611685949705814016_i64 : i64
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @mn_swizzle32_panels(%b: memref<16x64xf16>, %out: memref<1xi64>) workgroup(%tb: memref<16x64xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %b[%c0, %c0] -> %tb barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<16x64xf16> -> memref<16x64xf16, 3>
    acopy.barrier_wait %bar, %false : memref<1xi64, 3>
    %d = acopy.wgmma_descriptor %tb[%c0] {major = "mn"} : memref<16x64xf16, 3>
    memref.store %d, %out[%c0] : memref<1xi64>
    gpu.return
  }
}
