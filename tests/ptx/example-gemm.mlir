// The bf16 GEMM example (examples/gemm/gen.py): one 128 x 128 tile per block, two
// warpgroups, a K loop marked acopy.pipeline whose wgmma leave one group in flight.
// It compiles to PTX that ptxas accepts for sm_90a with no spills, and the pass
// releases each slot after the wgmma that read it (docs/pipelining.md,
// "Asynchronous consumers"); examples/gemm/bench_gemm.py runs it on the GPU.
// RUN: python3 %S/../../examples/gemm/gen.py 256 256 512 > %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s < %t.ptx
// RUN: python3 %S/../../examples/gemm/gen.py 256 256 512 auto | acopy-opt --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=AUTO
// RUN: not python3 %S/../../examples/gemm/gen.py 200 256 512 2>&1 | FileCheck %s --check-prefix=RAGGED
// REMARK: remark: acopy.pipeline: 4 stages, TMA on sm_90a; {{.*}}refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 3 tiles ahead; 4 mbarriers of 3 arrivals
// CHECK: .entry gemm_bf16_256x256x512(
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global
// AUTO: acopy.pipeline: 4 stages (auto: enough; 65536 bytes in flight for the 49152 bytes sm_90a wants)
// RAGGED: M, N multiples of 128; K of 64
