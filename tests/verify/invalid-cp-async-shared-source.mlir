// Rule A35 (docs/verification.md): a cp.async copy's src that is shared memory
// cast to the global memory space. cp.async reads global addresses only, so
// each root of shared memory is refused: a workgroup attribution, a shared
// memref.global, gpu.dynamic_shared_memory (through a view too). A cast of a
// kernel argument stays a global source.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify

gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @attribution(%dst: memref<8x128xf32, 3>, %i: index) workgroup(%unused: memref<4xf32, 3>, %wg: memref<64x128xf32, 3>) kernel {
    %src = memref.memory_space_cast %wg : memref<64x128xf32, 3> to memref<64x128xf32>
    // RULE: A35
    // expected-error @+1 {{src must be global memory, but it is shared memory (workgroup attribution #1) seen through memref.memory_space_cast; cp.async reads global addresses only}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_86">] {
  memref.global "private" @table : memref<64x128xf32, 3>
  gpu.func @global(%dst: memref<8x128xf32, 3>, %i: index) kernel {
    %g = memref.get_global @table : memref<64x128xf32, 3>
    %src = memref.memory_space_cast %g : memref<64x128xf32, 3> to memref<64x128xf32, 1>
    // expected-error @+1 {{src must be global memory, but it is shared memory (the shared global @table) seen through memref.memory_space_cast; cp.async reads global addresses only}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32, 1>, memref<8x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_89">] {
  gpu.func @dynamic(%dst: memref<8x128xf32, 3>, %i: index) kernel {
    %c0 = arith.constant 0 : index
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf32, #gpu.address_space<workgroup>>
    %cast = memref.memory_space_cast %view : memref<64x128xf32, #gpu.address_space<workgroup>> to memref<64x128xf32, #gpu.address_space<global>>
    %src = memref.subview %cast[8, 0] [32, 128] [1, 1] : memref<64x128xf32, #gpu.address_space<global>> to memref<32x128xf32, strided<[128, 1], offset: 1024>, #gpu.address_space<global>>
    // expected-error @+1 {{src must be global memory, but it is shared memory (gpu.dynamic_shared_memory) seen through memref.memory_space_cast; cp.async reads global addresses only}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<32x128xf32, strided<[128, 1], offset: 1024>, #gpu.address_space<global>>, memref<8x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A global memref.global cast to the default space, and a kernel argument in
// memory space 1 cast to it: global sources, accepted.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  memref.global "private" @lut : memref<64x128xf32, 1>
  gpu.func @global_sources(%arg: memref<64x128xf32, 1>, %dst: memref<8x128xf32, 3>, %i: index) kernel {
    %g = memref.get_global @lut : memref<64x128xf32, 1>
    %a = memref.memory_space_cast %g : memref<64x128xf32, 1> to memref<64x128xf32>
    %b = memref.memory_space_cast %arg : memref<64x128xf32, 1> to memref<64x128xf32>
    "acopy.copy_gmem_to_smem"(%a, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
    "acopy.copy_gmem_to_smem"(%b, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<8x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}
