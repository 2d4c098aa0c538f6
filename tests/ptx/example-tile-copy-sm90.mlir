// The sm_90 streaming tile copy in examples/ goes down to PTX: a TMA load
// tracked by the mbarrier, a TMA store, two __grid_constant__ tensor maps, and
// a manifest that names them.
// RUN: acopy-opt %S/../../examples/tile_copy_sm90.mlir --acopy-lower --emit=ptx --tma-manifest=%t.json -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: %check-ptxas %t.ptx sm_90

// CHECK: .visible .entry tile_copy(
// CHECK: .param .align 64 .b8 tile_copy_param_14[128],
// CHECK: .param .align 64 .b8 tile_copy_param_15[128]
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group 0;

// MANIFEST: "kernel": "tile_copy",
// MANIFEST: "param": 2,
// MANIFEST-NEXT: "arg": 0,
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 128
// MANIFEST: "param": 3,
// MANIFEST-NEXT: "arg": 1,
