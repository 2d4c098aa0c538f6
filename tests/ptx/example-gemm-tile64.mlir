// The GEMM example's 64-row tiles (examples/gemm/gen.py --tile=64xBN; examples/gemm/
// choose.py's u*_ builds, timed in bench/RESULTS.md, 2026-12-07 fifth session): one
// consumer warpgroup (128 threads,
// the pass adds the producer warp: .maxntid 160) computes the tile with wgmma m64nBNk16
// straight from one 64 x 64 A tile (no second A tile, no select between warpgroups); the
// TMA epilogue's panels are 64 x 64. 300 x 296 with 64 x 128 tiles: 5 x 3 = 15 tiles (a
// 128-row tile would make 9), ragged in M, N and K. ptxas accepts it. With the spread
// split-K (the u128_ws_sks_ob16 build) each unit's partial is 128 threads x 16 vectors of
// 4 f32, thread-fastest: the workspace holds 64 x 128 f32 per unit (512 x 512 x 16384:
// 32 tiles x 4 ranges = 128 units, 1048576 f32), a vector index spans 512 f32 (the
// 128-row tile's 1024), and the fix-up reads unit r's slice at r x 16 x 512. Refused: a
// cluster, the dsmem fix-up.
// RUN: %python %S/../../examples/gemm/gen.py 300 296 200 4 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %python %S/../../examples/gemm/gen.py 300 296 200 4 warp --tile=64x64 --raster=8 --persistent=264 --out=bf16 > %t.64.mlir
// RUN: acopy-opt %t.64.mlir --acopy-lower --emit=ptx -o %t.64.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.64.ptx sm_90a
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n64k16" %t.64.ptx | FileCheck %s --check-prefix=FOUR
// RUN: %python %S/../../examples/gemm/choose.py 300 296 200 --build=u128_ws_p132_tma_s8_ob16 | FileCheck %s --check-prefix=GRID
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --tile=64x128 --raster=8 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread > %t.sk.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t.sk.mlir
// RUN: acopy-opt %t.sk.mlir --acopy-lower --emit=ptx -o %t.sk.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.sk.ptx sm_90a
// RUN: %python %S/../../examples/gemm/choose.py 512 512 16384 --build=u128_ws_sks_ob16 | FileCheck %s --check-prefix=SKGRID
// RUN: not %python %S/../../examples/gemm/gen.py 300 296 200 4 warp --tile=64x128 --persistent=132 --split-k=2 --split-reduce=dsmem 2>&1 | FileCheck %s --check-prefix=REFUSE
// Pairs along M (--cluster=2): the two blocks share B's tile (each issues half), not A's.
// RUN: %python %S/../../examples/gemm/gen.py 300 296 200 8 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma --release=warp --cluster=2 > %t.pm.mlir
// RUN: FileCheck %s --check-prefix=PAIRM < %t.pm.mlir
// RUN: acopy-opt %t.pm.mlir --acopy-lower --emit=ptx -o %t.pm.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.pm.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PAIRNPTX < %t.pm.ptx
// RUN: %python %S/../../examples/gemm/choose.py 300 296 200 --build=u128_ws_p132_tma_c2_s8_ob16 | FileCheck %s --check-prefix=PAIRMGRID
// Three 64-row tile rows (M = 192) make the last pair's second tile lie past M: the copies
// zero-fill and the direct epilogue guards its stores (with 128-row pairs M = 192 is even).
// RUN: %python %S/../../examples/gemm/gen.py 192 256 1024 6 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --cluster=2 | FileCheck %s --check-prefix=PAIRMRAGGED
// The spread split-K in such pairs: each block sums its own tile's bands (own_unit).
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --tile=64x128 --raster=8 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread --cluster=2 > %t.skc2.mlir
// RUN: FileCheck %s --check-prefix=PAIRMSPLIT < %t.skc2.mlir
// RUN: acopy-opt %t.skc2.mlir --acopy-lower --emit=ptx -o %t.skc2.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.skc2.ptx sm_90a
// RUN: %python %S/../../examples/gemm/choose.py 512 512 16384 --build=u128_ws_sks_c2_ob16 | FileCheck %s --check-prefix=SKGRID
// RUN: not %python %S/../../examples/gemm/gen.py 300 296 200 4 warp --tile=32x128 2>&1 | FileCheck %s --check-prefix=TILE
// Pairs along N (--cluster=2 --pair=n): the two blocks of a cluster take two neighbouring
// 64 x 128 tiles of one tile row and multicast the one A tile of each K step.
// RUN: %python %S/../../examples/gemm/gen.py 300 296 200 8 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma --cluster=2 --pair=n > %t.pn.mlir
// RUN: FileCheck %s --check-prefix=PAIRN < %t.pn.mlir
// RUN: acopy-opt %t.pn.mlir --acopy-lower --emit=ptx -o %t.pn.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.pn.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PAIRNPTX < %t.pn.ptx
// RUN: %python %S/../../examples/gemm/choose.py 300 296 200 --build=u128_ws_p132_tma_c2n_s8_ob16 | FileCheck %s --check-prefix=PAIRNGRID
// The chooser's 64 x 128 build releases slots a warp at a time (--release=warp): the mark
// asks for it, the PTX has lane 0's predicated arrive of 32; the default mark does not.
// RUN: %python %S/../../examples/gemm/choose.py 1024 1024 8192 --build=u128_ws_p132_tma_s8_ob16 | FileCheck %s --check-prefix=RELPICK
// RUN: %python %S/../../examples/gemm/gen.py 300 296 200 8 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma --release=warp > %t.rw.mlir
// RUN: FileCheck %s --check-prefix=RELMARK < %t.rw.mlir
// RUN: acopy-opt %t.rw.mlir --acopy-lower --emit=ptx -o %t.rw.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.rw.ptx sm_90a
// RUN: FileCheck %s --check-prefix=RELPTX < %t.rw.ptx
// RUN: FileCheck %s --check-prefix=NOREL < %t.mlir
// RUN: not %python %S/../../examples/gemm/gen.py 300 296 200 4 block --tile=64x128 --release=warp 2>&1 | FileCheck %s --check-prefix=RELBLOCK
// Programmatic dependent launch (--pdl=1): the kernel lets the next one start from its
// own start and waits for the one before it before its first global access (every
// thread, the producer warp too, before the tile loop); the manifest says so.
// RUN: %python %S/../../examples/gemm/gen.py 1000 1000 1000 8 warp --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma --release=warp --pdl=1 > %t.pdl.mlir
// RUN: FileCheck %s --check-prefix=PDL < %t.pdl.mlir
// RUN: acopy-opt %t.pdl.mlir --acopy-lower --emit=ptx -o %t.pdl.ptx --tma-manifest=%t.pdl.json 2>/dev/null
// RUN: %check-ptxas --no-spill %t.pdl.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PDLPTX < %t.pdl.ptx
// RUN: FileCheck %s --check-prefix=PDLMAP < %t.pdl.json
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.nopdl.ptx --tma-manifest=%t.nopdl.json 2>/dev/null
// RUN: not grep -q programmatic_launch %t.nopdl.json
// RUN: %python %S/../../examples/gemm/choose.py 1000 1000 1000 --build=u128_ws_p132_tma_s8_pdl_ob16 | FileCheck %s --check-prefix=PDLARGS
// Without a tile loop the wait stands before the K loop, which every thread reaches
// before the roles split: the producer warp's copies wait too.
// RUN: %python %S/../../examples/gemm/gen.py 256 256 256 3 warp --pdl=1 | acopy-opt --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=PDLLOOP
// RUN: not %python %S/../../examples/gemm/gen.py 256 256 256 3 warp --chip=sm_80 --pdl=1 2>&1 | FileCheck %s --check-prefix=PDL80
// RUN: not %python %S/../../examples/gemm/gen.py 300 296 200 4 warp --chip=sm_80 --release=warp 2>&1 | FileCheck %s --check-prefix=REL80

// MLIR: Generated by examples/gemm/gen.py 300 296 200 4 warp --dtype=bf16 --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma.
// MLIR: workgroup(%ta0: memref<64x64xbf16, 3>, %tb: memref<128x64xbf16, 3>, %te0: memref<64x64xbf16, 3>, %te1: memref<64x64xbf16, 3>)
// MLIR-SAME: array<i32: 128, 1, 1>
// MLIR: %ntiles = arith.constant 15 : index
// MLIR: %cbm = arith.constant 64 : index
// MLIR: acopy.copy_gmem_to_smem %src[%m0, %col] -> %ta0 {oob_mode = "zeros", swizzle = 128 : i64}
// MLIR-NOT: %ta1
// MLIR: acopy.copy_gmem_to_smem %src[%nb, %col] -> %tb
// MLIR: %da0 = acopy.wgmma_descriptor %ta0[%c0] : memref<64x64xbf16, 3>
// MLIR-NOT: arith.select %second
// MLIR: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol0] {assume_aligned_start, swizzle = 128 : i64} : memref<64x64xbf16, 3> -> memref<300x296xbf16>
// MLIR: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol1]

// PTX: .maxntid 160, 1, 1
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// FOUR: 4
// The grid: 15 tiles, a worker each.
// GRID: "grid": [15, 1, 1]
// SPLIT: memref.global "private" @acopy_splitk_ws : memref<1048576xf32, 1>
// SPLIT: memref.global "private" @acopy_splitk_count : memref<32xi64, 1>
// SPLIT: %cunit = arith.constant 8192 : index
// SPLIT: %pj1 = arith.constant 512 : index
// SPLIT: %c512 = arith.constant 512 : index
// SPLIT: %sr1 = arith.constant 8192 : index
// SPLIT: %sr3 = arith.constant 24576 : index
// SPLIT-NOT: %sr4 =
// SPLIT: %ajo0 = arith.muli %aj0, %c512 : index
// SKGRID: "grid": [128, 1, 1]
// REFUSE: gen.py: error: --tile=64xBN: no --b-major=n or --split-reduce=dsmem
// TILE: gen.py: error: --tile: 64x64, 64x128, 64x256, 128x64, 128x128, 128x192 or 128x256 on sm_90a

// PAIRN: nvvm.cluster_dim = array<i32: 2, 1, 1>
// PAIRN: %tni2 = arith.muli %tnip, %c2 : index
// PAIRN-NEXT: %tni = arith.addi %tni2, %rank : index
// PAIRN: acopy.copy_gmem_to_smem %src[%m0, %col] -> %ta0 {{.*}}collective_axes = ["x"]
// PAIRN-NOT: %ta1
// PAIRN: acopy.copy_gmem_to_smem %src[%nb, %col] -> %tb
// PAIRN-NOT: collective_axes
// PAIRN: acopy.copy_smem_to_gmem

// PAIRNPTX: .reqnctapercluster 2, 1, 1
// PAIRNPTX: multicast::cluster
// PAIRNPTX: mbarrier.arrive.shared::cluster.b64
// PAIRNPTX: barrier.cluster.arrive;

// PAIRM: nvvm.cluster_dim = array<i32: 2, 1, 1>
// PAIRM: %tmi2 = arith.muli %tmip, %c2 : index
// PAIRM-NEXT: %tmi = arith.addi %tmi2, %rank : index
// PAIRM: acopy.copy_gmem_to_smem %src[%m0, %col] -> %ta0 {oob_mode = "zeros", swizzle = 128 : i64} :
// PAIRM: acopy.copy_gmem_to_smem %src[%nb, %col] -> %tb {{.*}}collective_axes = ["x"]
// PAIRM: acopy.copy_smem_to_gmem
// 3 pairs of the 5 tile rows x 3 tile columns: 9 units, a pair of blocks each.
// PAIRMGRID: "grid": [18, 1, 1]
// PAIRMRAGGED: acopy.copy_gmem_to_smem %src[%m0, %col] -> %ta0 {oob_mode = "zeros"
// PAIRMRAGGED: %in0 = arith.cmpi ult, %row0, %rows : index
// PAIRMSPLIT: acopy.copy_gmem_to_smem %src[%nb, %col] -> %tb {{.*}}collective_axes = ["x"]
// PAIRMSPLIT: %otix = arith.addi %ptix, %rank : index
// 5 tile rows x 2 pairs of the 3 tile columns: 10 units, a pair of blocks each.
// PAIRNGRID: "grid": [20, 1, 1]
// RELPICK: "gen_args": ["1024", "1024", "8192", "8", "warp", "--tile=64x128", "--raster=8", "--persistent=132", "--out=bf16", "--epilogue=tma", "--release=warp"]
// RELMARK: Generated by examples/gemm/gen.py 300 296 200 8 warp --dtype=bf16 --tile=64x128 --raster=8 --persistent=132 --out=bf16 --epilogue=tma --release=warp.
// RELMARK: {acopy.pipeline = {stages = 8 : i64, producer = "warp", release = "warp"}}
// RELPTX: bar.warp.sync -1;
// RELPTX: @%p{{[0-9]+}} mbarrier.arrive.shared.b64 _, [%r{{[0-9]+}}], 32;
// NOREL: {acopy.pipeline = {stages = 4 : i64, producer = "warp"}}
// RELBLOCK: gen.py: error: --release=warp: PRODUCER warp or warpgroup
// REL80: gen.py: error: --release=warp: sm_90a only
// PDL: %c128 = arith.constant 128 : index
// PDL-NEXT: nvvm.griddepcontrol launch_dependents
// PDL: %bm = gpu.block_id y
// PDL-NEXT: nvvm.griddepcontrol wait
// PDL-NOT: acopy.copy_gmem_to_smem
// PDL: scf.for %tile
// PDLPTX: griddepcontrol.launch_dependents;
// PDLPTX-NOT: cp.async.bulk.tensor
// PDLPTX: griddepcontrol.wait;
// PDLPTX: cp.async.bulk.tensor
// PDLMAP: "programmatic_launch": true
// PDLARGS: "gen_args": ["1000", "1000", "1000", "8", "warp", "--tile=64x128", "--raster=8", "--persistent=132", "--out=bf16", "--epilogue=tma", "--release=warp", "--pdl=1"]
// PDLLOOP: nvvm.griddepcontrol {{ *}}wait
// PDLLOOP-NOT: acopy.copy_gmem_to_smem
// PDLLOOP: %[[PT:.*]] = arith.cmpi uge, %{{.*}}, %c256{{.*}} : index
// PDLLOOP-NEXT: scf.if %[[PT]] {
// PDL80: gen.py: error: --pdl=1: sm_90a only
