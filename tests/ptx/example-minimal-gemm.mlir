// The minimal GEMM (examples/gemm/minimal.py): one generator, six named steps, the
// same text for both paths. The marked K loop becomes a 3-stage pipeline of cp.async
// copies on sm_80 and of TMA copies on sm_90; either way each of the 4 warps issues,
// per 32-wide K tile, 2 ldmatrix x4 of A, 16 ldmatrix x2 of B and 16 mma.sync, and
// ptxas assembles the module.
// RUN: %python %S/../../examples/gemm/minimal.py --chip=sm_80 > %t.80.mlir
// RUN: acopy-opt %t.80.mlir --acopy-lower --emit=ptx -o %t.80.ptx 2>&1 | FileCheck %s --check-prefix=REMARK80
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefixes=PTX,SM80 < %t.80.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t.80.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "ldmatrix.sync.aligned" %t.80.ptx | FileCheck %s --check-prefix=LDMATRIX
// RUN: %python %S/../../examples/gemm/minimal.py 128 192 512 --chip=sm_90 --stages=4 > %t.90.mlir
// RUN: acopy-opt %t.90.mlir --acopy-lower --emit=ptx -o %t.90.ptx 2>&1 | FileCheck %s --check-prefix=REMARK90
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: FileCheck %s --check-prefixes=PTX,SM90 < %t.90.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t.90.ptx | FileCheck %s --check-prefix=MMA
// RUN: grep -c "ldmatrix.sync.aligned" %t.90.ptx | FileCheck %s --check-prefix=LDMATRIX

// REMARK80: remark: acopy.pipeline: 3 stages, cp.async on sm_80; 3 slots of 4096 bytes
// REMARK90: remark: acopy.pipeline: 4 stages, TMA on sm_90; 4 slots of 4096 bytes

// PTX-LABEL: .visible .entry gemm(
// SM80: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// SM80: cp.async.wait_group 4;
// SM90: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SM90: mbarrier.try_wait.parity.shared.b64
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: st.global.v2.b32

// MMA: 16
// LDMATRIX: 18
