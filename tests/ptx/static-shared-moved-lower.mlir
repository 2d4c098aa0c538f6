// Static shared memory over the 48 KiB ptxas accepts, in kernels with acopy
// ops: acopy-lower moves the workgroup attributions to dynamic shared memory
// (docs/kernel-abi.md, "Shared memory"), so the manifest records the bytes,
// and ptxas accepts the PTX (static-shared-moved.mlir: the same move in
// acopy-prepare-emit). (A marked loop whose other static shared memory alone
// passes 48 KiB is refused by the pipeliner, so the move never has
// to place bytes after the pipeliner's slots.)
// RUN: acopy-opt %s --acopy-lower | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: acopy-opt %s --acopy-lower --tma-manifest=%t.json -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// MANIFEST: "kernel": "tma_tile",
// MANIFEST: "dynamic_shared_memory": 66552

// A TMA tile with swizzle = 128 needs 1024-byte alignment: the 16-byte
// aligned base is rounded up at run time, and 1008 bytes are reserved for it.
// Tile 8192 at 0, 56 KiB at 8192, the barrier at 65536: 1008 + 65544 bytes.
// LOWER-LABEL: gpu.func @tma_tile
// LOWER-SAME: acopy.dynamic_shared_memory = 66552 : i64
// LOWER: %[[DYN:.+]] = gpu.dynamic_shared_memory
// LOWER: %[[ADDR:.+]] = memref.extract_aligned_pointer_as_index %[[DYN]]
// LOWER: %[[C1023:.+]] = arith.constant 1023 : index
// LOWER: arith.andi %{{.+}}, %[[C1023]] : index
// LOWER-COUNT-3: memref.view
// PTX-LABEL: .entry tma_tile(
// PTX-NOT: .shared .align
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
gpu.module @t [#nvvm.target<chip = "sm_90a">] {
  gpu.func @tma_tile(%src: memref<256x256xf16>, %out: memref<256xf16>)
      workgroup(%tile: memref<64x64xf16, 3>, %big: memref<28672xf16, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %parity = arith.constant false
    acopy.barrier_init %bar : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<256x256xf16> -> memref<64x64xf16, 3>
    acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
    %t = gpu.thread_id x
    %v = memref.load %tile[%c0, %t] : memref<64x64xf16, 3>
    memref.store %v, %big[%t] : memref<28672xf16, 3>
    %w = memref.load %big[%c0] : memref<28672xf16, 3>
    memref.store %w, %out[%t] : memref<256xf16>
    gpu.return
  }
}

