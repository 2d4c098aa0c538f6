// Slots that do not fit the 48 KiB of static shared memory go to
// gpu.dynamic_shared_memory (docs/pipelining.md, "Shared memory"): 3 slots of a
// 32 KiB tile are 96 KiB. The tile's attribution is removed, the kernel records
// acopy.dynamic_shared_memory (the slots, plus on TMA 128 - 16 bytes to round the
// 16-byte aligned base up to the slot alignment at run time), and each host
// gpu.launch_func of the kernel passes at least that many bytes. The barriers stay
// static; the lowered PTX declares the dynamic bytes extern, after static memory.
// RUN: acopy-opt %s --acopy-verify --split-input-file
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | FileCheck %s
// RUN: acopy-opt %s --acopy-pipeline --split-input-file | acopy-opt --acopy-verify --split-input-file
// RUN: acopy-opt %s --acopy-lower --split-input-file | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --acopy-lower --emit=ptx --split-input-file -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90 sm_80 sm_90
// The manifest lists each such kernel with its bytes, a cp.async one too.
// RUN: acopy-opt %s --acopy-lower --split-input-file --tma-manifest=%t.json -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// MANIFEST: "kernel": "copy",
// MANIFEST: "dynamic_shared_memory": 98416
// MANIFEST: "kernel": "axpy",
// MANIFEST: "chip": "sm_80",
// MANIFEST: "tensor_maps": [],
// MANIFEST-NEXT: "dynamic_shared_memory": 147456
// MANIFEST: "kernel": "swizzled",
// MANIFEST: "dynamic_shared_memory": 74736

// TMA, S = 3: 3 x 32768 bytes + 112 of alignment reserve.
// CHECK-LABEL: gpu.module @tma
// CHECK: memref.global "private" @__acopy_pipeline_0 : memref<32xi8, 3>
// CHECK: gpu.func @copy(%arg0: memref<4096x128xf32>, %arg1: memref<4096x128xf32>, %arg2: index) kernel attributes {acopy.dynamic_shared_memory = 98416 : i64} {
// CHECK: %[[DYN:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BUF:.+]] = memref.memory_space_cast %[[DYN]] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi8, 3>
// CHECK-NEXT: %[[ADDR:.+]] = memref.extract_aligned_pointer_as_index %[[DYN]]
// CHECK: %[[NEG:.+]] = arith.subi %{{.+}}, %[[ADDR]] : index
// CHECK-NEXT: %[[C127:.+]] = arith.constant 127 : index
// CHECK-NEXT: %[[PAD:.+]] = arith.andi %[[NEG]], %[[C127]] : index
// CHECK: %[[SHIFT:.+]] = arith.muli %{{.+}}, %c32768 : index
// CHECK-NEXT: %[[AT:.+]] = arith.addi %[[PAD]], %[[SHIFT]] : index
// CHECK-NEXT: %[[SLOT:.+]] = memref.view %[[BUF]][%[[AT]]][] : memref<?xi8, 3> to memref<64x128xf32, 3>
// CHECK-NEXT: memref.assume_alignment %[[SLOT]], 128
// CHECK: scf.for
// CHECK: memref.view %[[BUF]][%{{.+}}][] : memref<?xi8, 3> to memref<64x128xf32, 3>
// CHECK: memref.load
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .entry copy(
// PTX: .shared .align 8 .b8 __acopy_pipeline_0[32];
module {
  gpu.module @tma [#nvvm.target<chip = "sm_90">] {
    gpu.func @copy(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c64 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<64x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 3 : i64}}
      gpu.return
    }
  }
}

// -----

// cp.async, S = 3, two tiles (an axpy): the base is 16-byte aligned as it is, so
// no rounding; the tiles lie one after the other, by falling alignment.
// CHECK-LABEL: gpu.module @cp
// CHECK: gpu.func @axpy(%arg0: memref<4096x128xf32>, %arg1: memref<4096x128xf32>, %arg2: memref<4096x128xf32>, %arg3: index) kernel attributes {acopy.dynamic_shared_memory = 147456 : i64} {
// CHECK: %[[DYN:.+]] = gpu.dynamic_shared_memory
// CHECK-NEXT: %[[BUF:.+]] = memref.memory_space_cast %[[DYN]]
// CHECK-NOT: extract_aligned_pointer
// CHECK: memref.view %[[BUF]][%{{.+}}][] : memref<?xi8, 3> to memref<64x128xf32, 3>
// CHECK: %[[C98304:.+]] = arith.constant 98304 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[C98304]]][] : memref<?xi8, 3> to memref<32x128xf32, 3>
// The host launches (of a cp.async kernel: rule A26 keeps TMA kernels off gpu.launch_func): none given gets the bytes; a dynamic size gets the maximum;
// a constant at least as large stays.
// CHECK-LABEL: func.func @launch
// CHECK: %[[N:.+]] = arith.constant 147456 : i32
// CHECK-NEXT: gpu.launch_func {{ *}}@cp::@axpy blocks in (%{{.+}}) threads in (%{{.+}}) {{ *}}dynamic_shared_memory_size %[[N]] args(
// CHECK: %[[NEED:.+]] = arith.constant 147456 : i32
// CHECK-NEXT: %[[MAX:.+]] = arith.maxui %arg3, %[[NEED]] : i32
// CHECK-NEXT: gpu.launch_func {{ *}}@cp::@axpy {{.+}} dynamic_shared_memory_size %[[MAX]] args(
// CHECK-NOT: arith.constant 147456
// CHECK-NEXT: arith.constant 200000 : i32
// CHECK-NEXT: gpu.launch_func {{ *}}@cp::@axpy {{.+}} dynamic_shared_memory_size %c200000_i32 args(
// LOWER-LABEL: func.func @launch
// LOWER-COUNT-2: arith.constant 147456 : i32
// LOWER-NOT: arith.constant 147456
// LOWER: return
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .entry axpy(
// PTX: cp.async.cg.shared.global
module attributes {gpu.container_module} {
  gpu.module @cp [#nvvm.target<chip = "sm_80">] {
    gpu.func @axpy(%x: memref<4096x128xf32>, %y: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tx: memref<64x128xf32, 3>, %ty: memref<32x128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c64 : index
        %yrow = arith.muli %i, %c32 : index
        acopy.copy_gmem_to_smem %x[%row, %c0] -> %tx {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<64x128xf32, 3>
        acopy.copy_gmem_to_smem %y[%yrow, %c0] -> %ty {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<32x128xf32, 3>
        acopy.wait_gmem_to_smem {pending = 0 : i64}
        %a = memref.load %tx[%c0, %tid] : memref<64x128xf32, 3>
        %b = memref.load %ty[%c0, %tid] : memref<32x128xf32, 3>
        %s = arith.addf %a, %b : f32
        memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 3 : i64}}
      gpu.return
    }
  }
  func.func @launch(%x: memref<4096x128xf32>, %n: index, %g: index, %size: i32) {
    gpu.launch_func @cp::@axpy blocks in (%g, %g, %g) threads in (%g, %g, %g) args(%x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %n : index)
    gpu.launch_func @cp::@axpy blocks in (%g, %g, %g) threads in (%g, %g, %g) dynamic_shared_memory_size %size args(%x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %n : index)
    %big = arith.constant 200000 : i32
    gpu.launch_func @cp::@axpy blocks in (%g, %g, %g) threads in (%g, %g, %g) dynamic_shared_memory_size %big args(%x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %x : memref<4096x128xf32>, %n : index)
    return
  }
}

// -----

// A 32 KiB tile with a 128-byte swizzle on TMA and a second 4 KiB tile: the base is
// rounded up to 1024 bytes (1008 bytes reserved), and slots of the 1024-aligned tile
// come first. The other attribution (%keep) stays static.
// CHECK-LABEL: gpu.func @swizzled
// CHECK-SAME: workgroup(%{{.+}} : memref<16xf32, 3>)
// CHECK-SAME: acopy.dynamic_shared_memory = 74736 : i64
// CHECK: %[[C1023:.+]] = arith.constant 1023 : index
// CHECK-NEXT: %[[PAD:.+]] = arith.andi %{{.+}}, %[[C1023]] : index
// CHECK: %[[C65536:.+]] = arith.constant 65536 : index
// CHECK-NEXT: %[[AT:.+]] = arith.addi %[[PAD]], %[[C65536]] : index
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .entry swizzled(
// PTX: .shared .align 8 .b8 __acopy_pipeline_0[24];
gpu.module @swz [#nvvm.target<chip = "sm_90">] {
  gpu.func @swizzled(%src: memref<4096x128xf32>, %v: memref<4096x32xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<256x32xf32, 3>, %keep: memref<16xf32, 3>, %tv: memref<32x32xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c256 : index
      %vrow = arith.muli %i, %c32 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x128xf32> -> memref<256x32xf32, 3>
      acopy.copy_gmem_to_smem %v[%vrow, %c0] -> %tv {oob_mode = "promise_in_bounds"} : memref<4096x32xf32> -> memref<32x32xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %a = memref.load %tile[%c0, %c0] : memref<256x32xf32, 3>
      %b = memref.load %tv[%c0, %c0] : memref<32x32xf32, 3>
      %s = arith.addf %a, %b : f32
      memref.store %s, %keep[%c0] : memref<16xf32, 3>
      memref.store %s, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 2 : i64}}
    gpu.return
  }
}
