// A barrier under an `acopy.consumers` mark that names no whole warps (a
// hand-written or damaged mark; the pipeliner writes array<i32: 0, B> with B a
// multiple of 32) is refused at the barrier: the consumers' named barrier
// `bar.sync 1, B` needs B (docs/pipelining.md, "Warp specialization").
// RUN: acopy-opt %s --split-input-file --acopy-lower --verify-diagnostics

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    %c48 = arith.constant 48 : index
    %c = arith.cmpi ult, %tid, %c48 : index
    scf.if %c {
      // expected-error @+1 {{a barrier inside a region marked acopy.consumers = array<i32: 0, 48>: the mark must be array<i32: 0, B> with B a positive multiple of 32}}
      gpu.barrier
    } {acopy.consumers = array<i32: 0, 48>}
    gpu.return
  }
}

// -----

// A whole-block barrier in a region marked as a producer warp's is refused too.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 160, 1, 1>} {
    %tid = gpu.thread_id x
    %c128 = arith.constant 128 : index
    %p = arith.cmpi uge, %tid, %c128 : index
    scf.if %p {
      // expected-error @+1 {{'gpu.barrier' is a barrier of the whole block inside the producer warp's region of a loop marked acopy.pipeline with producer = "warp": the consumers never reach it, so the block would wait forever}}
      gpu.barrier
    } {acopy.issuers = array<i32: 128, 32>}
    gpu.return
  }
}
