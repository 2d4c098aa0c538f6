// acopy.swizzled_index's two lowerings agree (docs/dialect.md,
// "acopy.swizzled_index"): @plain's constant indices are folded by acopy from
// the plan's formula (which plan/swizzled_index/tests.rs checks against the
// docs' byte model); @hidden's indices are the same numbers behind an
// arith.addi, so acopy builds the run-time arithmetic (the copy's own paneled
// and pattern functions) and MLIR's canonicalizer folds it. Both must store
// the position the docs' model gives: one span of f16 (128), bf16 (64), i8
// (128), and f32 in two 32-byte panels (fallback mode).
// RUN: acopy-opt %s --split-input-file --pass-pipeline='builtin.module(acopy-lower{fallback=true},canonicalize)' 2>/dev/null | FileCheck %s
// Without the canonicalizer, @hidden keeps the run-time XOR and @plain has none.
// RUN: acopy-opt %s --split-input-file --acopy-lower --acopy-fallback 2>/dev/null | FileCheck %s --check-prefix=RAW
// RAW-LABEL: gpu.func @plain_s128_f16
// RAW-NOT: arith.xori {{.+}} : index
// RAW-LABEL: gpu.func @hidden_s128_f16
// RAW: arith.xori {{.+}} : index
// RAW-LABEL: gpu.func @plain_s32_f32_panels
// RAW-NOT: arith.xori {{.+}} : index
// RAW-LABEL: gpu.func @hidden_s32_f32_panels
// RAW: arith.xori {{.+}} : index
// CHECK-LABEL: gpu.func @plain_s128_f16
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c9, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c9, %arg1[%c1] : memref<2xindex>
// CHECK-LABEL: gpu.func @hidden_s128_f16
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c9, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c9, %arg1[%c1] : memref<2xindex>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @plain_s128_f16(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 9 : index
    %cc = arith.constant 1 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%cr, %cc] : memref<64x64xf16, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
  gpu.func @hidden_s128_f16(%a: memref<256x64xf16>, %out: memref<2xindex>) workgroup(%t: memref<64x64xf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 9 : index
    %cc = arith.constant 1 : index
    %r = arith.addi %cr, %c0 : index
    %c = arith.addi %cc, %c0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x64xf16> -> memref<64x64xf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%r, %c] : memref<64x64xf16, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
}

// -----
// CHECK-LABEL: gpu.func @plain_s64_bf16
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c6, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c27, %arg1[%c1] : memref<2xindex>
// CHECK-LABEL: gpu.func @hidden_s64_bf16
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c6, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c27, %arg1[%c1] : memref<2xindex>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @plain_s64_bf16(%a: memref<256x32xbf16>, %out: memref<2xindex>) workgroup(%t: memref<64x32xbf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 6 : index
    %cc = arith.constant 3 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x32xbf16> -> memref<64x32xbf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%cr, %cc] : memref<64x32xbf16, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
  gpu.func @hidden_s64_bf16(%a: memref<256x32xbf16>, %out: memref<2xindex>) workgroup(%t: memref<64x32xbf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 6 : index
    %cc = arith.constant 3 : index
    %r = arith.addi %cr, %c0 : index
    %c = arith.addi %cc, %c0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 64 : i64} : memref<256x32xbf16> -> memref<64x32xbf16, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%r, %c] : memref<64x32xbf16, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
}

// -----
// CHECK-LABEL: gpu.func @plain_s32_f32_panels
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c38, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c13, %arg1[%c1] : memref<2xindex>
// CHECK-LABEL: gpu.func @hidden_s32_f32_panels
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c38, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c13, %arg1[%c1] : memref<2xindex>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @plain_s32_f32_panels(%a: memref<256x16xf32>, %out: memref<2xindex>) workgroup(%t: memref<64x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 13 : index
    %cc = arith.constant 9 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<256x16xf32> -> memref<64x16xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%cr, %cc] : memref<64x16xf32, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
  gpu.func @hidden_s32_f32_panels(%a: memref<256x16xf32>, %out: memref<2xindex>) workgroup(%t: memref<64x16xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 13 : index
    %cc = arith.constant 9 : index
    %r = arith.addi %cr, %c0 : index
    %c = arith.addi %cc, %c0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 32 : i64} : memref<256x16xf32> -> memref<64x16xf32, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%r, %c] : memref<64x16xf32, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
}

// -----
// CHECK-LABEL: gpu.func @plain_s128_i8
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c7, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c20, %arg1[%c1] : memref<2xindex>
// CHECK-LABEL: gpu.func @hidden_s128_i8
// CHECK-NOT: arith.xori {{.+}} : index
// CHECK-DAG: memref.store %c7, %arg1[%c0] : memref<2xindex>
// CHECK-DAG: memref.store %c20, %arg1[%c1] : memref<2xindex>
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @plain_s128_i8(%a: memref<256x128xi8>, %out: memref<2xindex>) workgroup(%t: memref<32x128xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 7 : index
    %cc = arith.constant 100 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x128xi8> -> memref<32x128xi8, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%cr, %cc] : memref<32x128xi8, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
  gpu.func @hidden_s128_i8(%a: memref<256x128xi8>, %out: memref<2xindex>) workgroup(%t: memref<32x128xi8, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant 7 : index
    %cc = arith.constant 100 : index
    %r = arith.addi %cr, %c0 : index
    %c = arith.addi %cc, %c0 : index
    acopy.copy_gmem_to_smem %a[%c0, %c0] -> %t {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x128xi8> -> memref<32x128xi8, 3>
    acopy.wait_gmem_to_smem {pending = 0 : i64}
    %p:2 = acopy.swizzled_index %t[%r, %c] : memref<32x128xi8, 3>
    memref.store %p#0, %out[%c0] : memref<2xindex>
    memref.store %p#1, %out[%c1] : memref<2xindex>
    gpu.return
  }
}
