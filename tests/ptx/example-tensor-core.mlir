// The tensor-core examples: the mma.sync K-loop compiles from one file for
// sm_80 (cp.async) and sm_90 (TMA), and the wgmma tile kernel for sm_90a, each
// to PTX that ptxas accepts.
// RUN: acopy-opt %S/../../examples/mma_kloop.mlir --chip=sm_80 --acopy-lower --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: acopy-opt %S/../../examples/mma_kloop.mlir --chip=sm_90 --acopy-lower --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90
// The wgmma example is the GPU suite's kernel wgmma_f16_s128_n64 (exact on an
// H200, bench/RESULTS.md) below its 6-line header, so the README's claim holds
// only while the two are the same module.
// RUN: tail -n +7 %S/../../examples/wgmma_tile_sm90a.mlir > %t.example
// RUN: tail -n +2 %S/../gpu/kernels/wgmma_f16_s128_n64.mlir > %t.kernel
// RUN: diff %t.example %t.kernel
// The pipelined wgmma K loop is the suite's wgmma_kloop_n64_t8_s3_w1 the same way.
// RUN: tail -n +7 %S/../../examples/wgmma_kloop_sm90a.mlir > %t.kloop.example
// RUN: tail -n +2 %S/../gpu/kernels/wgmma_kloop_n64_t8_s3_w1.mlir > %t.kloop.kernel
// RUN: diff %t.kloop.example %t.kloop.kernel
// RUN: acopy-opt %S/../../examples/wgmma_kloop_sm90a.mlir --acopy-lower --emit=ptx -o %t.kloop.ptx
// RUN: %check-ptxas %t.kloop.ptx sm_90a
// RUN: FileCheck %s --check-prefix=KLOOP < %t.kloop.ptx
// KLOOP: wgmma.wait_group.sync.aligned 1;
// KLOOP-NEXT: fence.proxy.async.shared::cta;
// KLOOP-NEXT: bar.sync 0;
// KLOOP: cp.async.bulk.tensor.2d.shared::cluster.global
// RUN: acopy-opt %S/../../examples/wgmma_tile_sm90a.mlir --acopy-lower --emit=ptx -o %t.90a.ptx
// RUN: FileCheck %s --check-prefix=WGMMA < %t.90a.ptx
// RUN: %check-ptxas %t.90a.ptx sm_90a
// SM80: cp.async.cg.shared.global
// SM80: ldmatrix.sync.aligned
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90: cp.async.bulk.tensor
// SM90: ldmatrix.sync.aligned
// SM90: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// WGMMA: cp.async.bulk.tensor
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
