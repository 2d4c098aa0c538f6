// producer = "warp" keeps the kernel's meaning (docs/pipelining.md, "Warp
// specialization"): the pass grows the block by the producer warp, so
// - every `gpu.block_dim x` reads the declared block (128), never the grown one
//   (160), and `gpu.global_id x` is `block_id x * 128 + thread_id x`: a consumer
//   loop striding by the block size still covers every element;
// - the barriers the lowering adds among the consumers (a TMA store's, its
//   wait's) are the consumers' named barrier `bar.sync 1, 128`: a `bar.sync 0`
//   there would wait for the producer warp forever;
// - a swizzled index may sit in a loop nested in the consumers (on sm_80 too:
//   the differential GPU test builds such kernels for both chips, tests/gpu/ws_diff);
// - the native TMA form pipelines with a producer warp too: its barrier_init is
//   removed, not run by the producer, also inside a persistent loop.
// RUN: acopy-opt %s --split-input-file --chip=sm_90 --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=PIPE
// RUN: acopy-opt %s --split-input-file --chip=sm_90 --acopy-lower 2>/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: acopy-opt %s --split-input-file --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx 2>/dev/null
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90 sm_90 sm_90
// RUN: FileCheck %s --check-prefix=PTX < %t.90.ptx

// PIPE-LABEL: gpu.func @strided
// PIPE-SAME: known_block_size = array<i32: 160, 1, 1>
// PIPE-NOT: gpu.block_dim
// PIPE-NOT: gpu.global_id
// PIPE: } {acopy.issuers = array<i32: 128,
// PIPE: scf.if
// PIPE: %[[B:.*]] = arith.constant 128 : index
// PIPE-NEXT: %[[BID:.*]] = gpu.block_id x
// PIPE-NEXT: arith.muli %[[BID]], %[[B]] : index
// PIPE: } {acopy.consumers = array<i32: 0, 128>}
// PIPE-NOT: gpu.block_dim
// PIPE-LABEL: gpu.func @store
// PIPE-LABEL: gpu.func @nested_index
// PIPE: scf.for
// PIPE: scf.for
// PIPE: acopy.swizzled_index
// PIPE-LABEL: gpu.func @native
// PIPE-COUNT-6: acopy.barrier_init
// PIPE-NOT: acopy.barrier_init

// PTX-LABEL: .entry strided
// PTX-NOT: %ntid.x
// PTX-LABEL: .entry store
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-NEXT: bar.sync {{.*}}1, 128;
// PTX-NOT: bar.sync {{.*}}0;
// PTX: cp.async.bulk.wait_group 0;
// PTX-NEXT: bar.sync {{.*}}1, 128;
// PTX-NOT: bar.sync {{.*}}0;
// PTX-LABEL: .entry nested_index

// LOWER-LABEL: gpu.func @store
// LOWER: arith.cmpi ult
// LOWER-NOT: gpu.barrier
// LOWER: } {acopy.consumers = array<i32: 0, 128>}
// LOWER-LABEL: gpu.func @nested_index

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @strided(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %tid = gpu.thread_id x
    %bdx = gpu.block_dim x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      scf.for %e = %tid to %c1024 step %bdx {
        %r = arith.divui %e, %c128 : index
        %c = arith.remui %e, %c128 : index
        %v = memref.load %tile[%r, %c] : memref<8x128xf32, 3>
        %orow = arith.addi %row, %r : index
        memref.store %v, %out[%orow, %c] : memref<4096x128xf32>
      }
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    %g = gpu.global_id x
    %f = arith.index_cast %g : index to i32
    %ff = arith.sitofp %f : i32 to f32
    memref.store %ff, %out[%c0, %tid] : memref<4096x128xf32>
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @store(%x: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tx: memref<8x128xf32, 3>, %to: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %two = arith.constant 2.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %x[%row, %c0] -> %tx {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
      scf.for %r = %c0 to %c8 step %c1 {
        %v = memref.load %tx[%r, %tid] : memref<8x128xf32, 3>
        %w = arith.mulf %two, %v : f32
        memref.store %w, %to[%r, %tid] : memref<8x128xf32, 3>
      }
      acopy.copy_smem_to_gmem %to -> %out[%row, %c0] : memref<8x128xf32, 3> -> memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    acopy.wait_smem_to_gmem {pending = 0 : i64}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @nested_index(%src: memref<4096x64xf16>, %out: memref<4096x64xf16>, %n: index) workgroup(%tile: memref<8x64xf16, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %q = arith.divui %tid, %c64 : index
    %col = arith.remui %tid, %c64 : index
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<4096x64xf16> -> memref<8x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      scf.for %j = %c0 to %c4 step %c1 {
        %j2 = arith.muli %j, %c8 : index
        %r0 = arith.muli %q, %c4 : index
        %r = arith.addi %r0, %j : index
        %p:2 = acopy.swizzled_index %tile[%r, %col] : memref<8x64xf16, 3>
        %v = memref.load %tile[%p#0, %p#1] : memref<8x64xf16, 3>
        %orow = arith.addi %row, %r : index
        memref.store %v, %out[%orow, %col] : memref<4096x64xf16>
      }
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @native(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index, %m: index) workgroup(%tile: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %j = %c0 to %m step %c1 {
      acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
      scf.for %i = %c0 to %n step %c1 {
        %row = arith.muli %i, %c8 : index
        acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
        %parity = arith.index_cast %i : index to i1
        acopy.barrier_wait %bar, %parity : memref<1xi64, 3>
        %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
        memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
      } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    }
    gpu.return
  }
}
