// The GEMM example's clusters with a tile loop and a producer warp
// (examples/gemm/gen.py --cluster=2 --tile=128x256 --persistent, the sweep's
// t256_ws_p132_tma_c2_ob16): the two blocks of a 2x1x1 cluster (%rank = block x
// mod 2) take two neighbouring 128-row tiles of one 256-column N tile, so they
// share B's 256 x 64 tile: B's copy multicasts (collective_axes = ["x"], each block
// issues 128 of its rows), A's two halves stay each block's own. The pipeliner
// releases each slot to both blocks (docs/pipelining.md, "Multicast slots with a
// producer warp"): empty barriers of 512 arrivals, a per-warp remote arrive, a
// cluster barrier before the kernel returns. Both blocks loop over the same pairs
// of tiles (3 x 2 = 6 tiles: tile rows 0-1, then 2 and a second row past M,
// zero-filled and clipped by the TMA store). ptxas accepts it.
// RUN: %python %S/../../examples/gemm/gen.py 300 264 136 3 warp --tile=128x256 --raster=16 --persistent=4 --out=bf16 --epilogue=tma --cluster=2 > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: acopy-opt %t.mlir --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=PIPE
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %python %S/../../examples/gemm/choose.py 300 264 136 --build=t256_ws_p132_tma_c2_ob16 | FileCheck %s --check-prefix=GRID
// RUN: not %python %S/../../examples/gemm/choose.py 300 264 136 --build=nonesuch 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// MLIR: nvvm.cluster_dim = array<i32: 2, 1, 1>
// MLIR: %gx = gpu.grid_dim x
// MLIR: %ntiles = arith.constant 4 : index
// MLIR: %worker = arith.divui %lin, %c2 : index
// MLIR: %rank = arith.remui %lin, %c2 : index
// MLIR: %workers = arith.constant 2 : index
// MLIR: %tmi2 = arith.muli %tmip, %c2 : index
// MLIR: %tmi = arith.addi %tmi2, %rank : index
// MLIR: acopy.copy_gmem_to_smem %src[%m0, %col] -> %ta0 {oob_mode = "zeros", swizzle = 128 : i64}
// MLIR: acopy.copy_gmem_to_smem %src[%m1, %col] -> %ta1 {oob_mode = "zeros", swizzle = 128 : i64}
// MLIR: acopy.copy_gmem_to_smem %src[%nb, %col] -> %tb {oob_mode = "zeros", swizzle = 128 : i64, collective_axes = ["x"]}

// PIPE-COUNT-3: acopy.barrier_init %{{.+}} {arrival_count = 512 : i64}
// PIPE: nvvm.bar.warp.sync
// PIPE: nvvm.mapa
// PIPE: nvvm.cluster.arrive
// PIPE-NEXT: nvvm.cluster.wait
// PIPE-NEXT: gpu.return

// PTX: .maxntid 288, 1, 1
// PTX: .reqnctapercluster 2, 1, 1
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mbarrier.arrive.shared::cluster.b64
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX-NEXT: ret;

// The grid: the persistent build's workers only, whole clusters: 4 pairs of tiles
// (2 pair rows x 2 N tiles), 8 blocks.
// GRID: "grid": [8, 1, 1]
// UNKNOWN: choose.py: error: 300x264x136: unknown build 'nonesuch'
