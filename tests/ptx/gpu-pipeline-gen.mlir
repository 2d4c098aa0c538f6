// tests/gpu/pipeline/gen.py, which writes the pipelined GPU kernels: with
// --known-block-size the bandwidth kernels' consumers run constant rounds (vector
// tid + 128 j in round j) and the copies unroll in the PTX; the other kernels, the
// warp-specialized ones included, keep their block-size loops whatever the flag.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../gpu/pipeline/gen.py --out-dir %t --reduce-rows 16 --axpy-rows 8 --known-block-size 128
// RUN: FileCheck %s --check-prefix=KNOWN < %t/pipe_bw_reduce_r16_s3.mlir
// RUN: FileCheck %s --check-prefix=WS < %t/pipe_ws_reduce_s3.mlir
// RUN: acopy-opt %t/pipe_bw_reduce_r16_s3.mlir --acopy-lower --emit=ptx -o %t/known.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/known.ptx
// KNOWN: gpu.known_block_size = array<i32: 128, 1, 1>
// KNOWN: %rounds = arith.constant 4 : index
// KNOWN: %part = scf.for %round = %c0 to %rounds step %one_round iter_args(%a = %acc) -> (vector<4xi32>) {
// KNOWN-NEXT: %vstep = arith.muli %round, %bdim : index
// KNOWN-NEXT: %v = arith.addi %tid, %vstep : index
// WS: %part = scf.for %v = %tid to %c256 step %bdim iter_args(%a = %acc) -> (vector<4xi32>) {
// WS-NOT: %round
// PTX-COUNT-4: cp.async.cg.shared.global
// PTX-COUNT-4: ld.shared.v4.b32
