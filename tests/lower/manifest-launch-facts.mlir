// --tma-manifest=FILE records every lowered kernel's launch facts (manifest
// version 2, crates/acopy-manifest/README.md): its arguments before the
// tensor maps (kind, type, element, shape, strides, offset, memory space),
// its known block size, cluster, chip, static shared memory (workgroup
// attributions plus the shared memref.globals it uses, each once) and dynamic
// shared memory (the pipeliner's record, or the bound of its own
// gpu.dynamic_shared_memory views; left out when unbounded). Both paths: a
// cp.async kernel and a TMA kernel (whose trailing tensor map is not an arg).
// RUN: rm -f %t.json %t.pipe.json %t.left.json
// RUN: acopy-opt %s --split-input-file --acopy-lower --emit=ptx --tma-manifest=%t.json -o /dev/null
// RUN: FileCheck %s < %t.json
// The GPU suite's pipelined kernel (issue 26, defect 2): ptxas -v says 14880
// bytes of static shared memory for it, and its slots are 47712 dynamic ones.
// RUN: acopy-opt %S/../gpu/kernels/cp_async_pipe_static_smem.mlir --acopy-lower --emit=ptx --tma-manifest=%t.pipe.json -o /dev/null 2> /dev/null
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipe.json
// Kernels of modules with no chip acopy lowers for (and no acopy ops) are left out.
// RUN: acopy-opt %S/Inputs/manifest-no-chip.mlir --split-input-file --acopy-lower --tma-manifest=%t.left.json -o /dev/null
// RUN: FileCheck %s --check-prefix=LEFT < %t.left.json
// LEFT: "version": 2,
// LEFT-NEXT: "kernels": []

// PIPE: "version": 2,
// PIPE: "kernel": "cp_async_pipe_static_smem",
// PIPE-NEXT: "chip": "sm_80",
// PIPE: "tensor_maps": [],
// PIPE-NEXT: "dynamic_shared_memory": 47712,
// PIPE-NEXT: "static_shared_memory": 14880,
// PIPE-NEXT: "block": null,

// CHECK: "version": 2,
// CHECK: "module": "cp",
// CHECK-NEXT: "kernel": "copy",
// CHECK-NEXT: "chip": "sm_80",
// CHECK-NEXT: "cluster": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "tensor_maps": [],
// CHECK-NEXT: "dynamic_shared_memory": 0,
// 16x128xf32 = 8192 bytes, @scratch 256 bytes once (used twice), @unused not at all.
// CHECK-NEXT: "static_shared_memory": 8448,
// CHECK-NEXT: "block": [
// CHECK-NEXT: 128,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "args": [
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "memref",
// CHECK-NEXT: "type": "memref<64x128xf32>",
// CHECK-NEXT: "element": "f32",
// CHECK-NEXT: "element_bits": 32,
// CHECK-NEXT: "shape": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 128
// CHECK-NEXT: ],
// CHECK-NEXT: "strides": [
// CHECK-NEXT: 128,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "offset": 0,
// CHECK-NEXT: "contiguous": true,
// CHECK-NEXT: "memory_space": null,
// CHECK-NEXT: "global": true
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "memref",
// CHECK-NEXT: "type": "memref<?x128xf16, strided<[?, 1], offset: ?>>",
// CHECK-NEXT: "element": "f16",
// CHECK-NEXT: "element_bits": 16,
// CHECK-NEXT: "shape": [
// CHECK-NEXT: null,
// CHECK-NEXT: 128
// CHECK-NEXT: ],
// CHECK-NEXT: "strides": [
// CHECK-NEXT: null,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "offset": null,
// CHECK-NEXT: "contiguous": false,
// CHECK-NEXT: "memory_space": null,
// CHECK-NEXT: "global": true
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "type": "index"
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "type": "i32"
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "type": "i1"
// CHECK-NEXT: }
// CHECK-NEXT: ]

// CHECK: "module": "tma",
// CHECK-NEXT: "kernel": "load",
// CHECK-NEXT: "chip": "sm_90a",
// CHECK-NEXT: "cluster": [
// CHECK-NEXT: 2,
// CHECK: "param": 2,
// CHECK-NEXT: "arg": 0,
// CHECK: "dynamic_shared_memory": 0,
// 64x64xbf16 = 8192 bytes and the 8-byte barrier.
// CHECK-NEXT: "static_shared_memory": 8200,
// CHECK-NEXT: "block": null,
// CHECK-NEXT: "args": [
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "memref",
// CHECK-NEXT: "type": "memref<256x512xbf16>",
// CHECK: "global": true
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "scalar",
// CHECK-NEXT: "type": "index"
// CHECK-NEXT: }
// CHECK-NEXT: ]

// The furthest view of its own dynamic shared memory: 4096 + 16 x 8 bytes;
// static: 4 index (8 bytes each), 2 vectors of 8 f16, 3 complex<f32>, 5 i1
// (a byte each).
// CHECK: "kernel": "bounded",
// CHECK: "tensor_maps": [],
// CHECK-NEXT: "dynamic_shared_memory": 4224,
// CHECK-NEXT: "static_shared_memory": 93,
// A view at an argument's offset has no bound: no dynamic_shared_memory.
// CHECK: "kernel": "unbounded",
// CHECK: "tensor_maps": [],
// CHECK-NEXT: "static_shared_memory": 0,

// A module for two chips (no acopy ops) gives one entry per chip; a function
// that is not a kernel gives none.
// CHECK: "module": "plain",
// CHECK-NEXT: "kernel": "k",
// CHECK-NEXT: "chip": "sm_80",
// CHECK: "block": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 2,
// CHECK-NEXT: 1
// CHECK: "type": "f32"
// CHECK: "module": "plain",
// CHECK-NEXT: "kernel": "k",
// CHECK-NEXT: "chip": "sm_90",
// CHECK-NOT: "kernel":

gpu.module @cp [#nvvm.target<chip = "sm_80">] {
  memref.global "private" @scratch : memref<64xf32, 3>
  memref.global "private" @unused : memref<1024xf32, 3>
  gpu.func @copy(%src: memref<64x128xf32>, %view: memref<?x128xf16, strided<[?, 1], offset: ?>>, %n: index, %x: i32, %flag: i1)
      workgroup(%tile: memref<16x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @scratch : memref<64xf32, 3>
    %again = memref.get_global @scratch : memref<64xf32, 3>
    "acopy.copy_gmem_to_smem"(%src, %tile, %n, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<16x128xf32, 3>, index, index) -> ()
    "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
    %v = memref.load %tile[%c0, %c0] : memref<16x128xf32, 3>
    memref.store %v, %s[%c0] : memref<64xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @tma [#nvvm.target<chip = "sm_90a">] {
  gpu.func @load(%src: memref<256x512xbf16>, %i: index)
      workgroup(%tile: memref<64x64xbf16, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start} : (memref<256x512xbf16>, memref<64x64xbf16, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @own [#nvvm.target<chip = "sm_90">] {
  gpu.func @bounded(%out: memref<16xf32>) workgroup(%w: memref<4xindex, 3>, %v: memref<2xvector<2x4xf16>, 3>, %z: memref<3xcomplex<f32>, 3>, %bits: memref<5xi1, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
    %b = memref.view %base[%c4096][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf64, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @unbounded(%out: memref<16xf32>, %at: index) kernel {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %base[%at][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @plain [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @k(%x: f32) kernel attributes {nvvm.reqntid = array<i32: 32, 2, 1>} {
    gpu.return
  }
  gpu.func @helper() {
    gpu.return
  }
}
