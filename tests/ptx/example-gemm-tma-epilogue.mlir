// The GEMM example's bf16 epilogue through shared memory and a TMA store
// (examples/gemm/gen.py --epilogue=tma, the sweep's *_tma_ob16 builds): in a
// warp-specialized persistent kernel the consumers wait until the previous tile's
// store has read the two 128 x 64 epilogue panels (cp.async.bulk.wait_group.read),
// write the bf16 tile into them at 128-byte swizzled positions (st.shared, no
// st.global), fence the async proxy and TMA-store each panel (swizzle 128 in the
// store's tensor map), all among the consumers' named barrier (bar.sync 1, 256),
// while the producer warp starts the next tile's loads. Ragged M, N and K (200 x 264
// x 136, three workers over six tiles) need no guard: TMA clips the store. A 128 x 256
// tile stores in two rounds of 128 columns, four stores; with --ring=1 each of its
// four panels waits only for the store that last read its buffer (pending 1). The
// kernel's PTX bounds its block (.maxntid 288: the 256 consumers and the producer
// warp), so ptxas keeps registers within what 288 threads launch with. N not a
// multiple of 8 is refused by the generator with the limit named.
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 3 warp --raster=16 --persistent=3 --out=bf16 --epilogue=tma > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx --tma-manifest=%t.json 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MAP < %t.json
// RUN: grep -c "cp.async.bulk.tensor.2d.global.shared::cta" %t.ptx | FileCheck %s --check-prefix=STORES2
// PRODUCER = warpgroup (the sweep's g256_* builds): the 128 x 256 tile with a producer
// warpgroup that hands its registers to the two consumer warpgroups (384 threads,
// setmaxnreg 40 and 232, .minnctapersm 1); ptxas takes it without C7508.
// RUN: %python %S/../../examples/gemm/gen.py 300 264 136 4 warpgroup --tile=128x256 --raster=16 --persistent=4 --out=bf16 --epilogue=tma --ring=1 > %t.wg.mlir
// RUN: acopy-opt %t.wg.mlir --acopy-lower --emit=ptx -o %t.wg.ptx 2>/dev/null
// RUN: %check-ptxas %t.wg.ptx sm_90a
// RUN: FileCheck %s --check-prefix=WARPGROUP < %t.wg.ptx
// WARPGROUP: .maxntid 384, 1, 1
// WARPGROUP-NEXT: .minnctapersm 1
// WARPGROUP: setmaxnreg.dec.sync.aligned.u32 40;
// WARPGROUP: setmaxnreg.inc.sync.aligned.u32 232;
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x256 --raster=16 --persistent=2 --out=bf16 --epilogue=tma > %t.256.mlir
// RUN: acopy-opt %t.256.mlir --acopy-lower --emit=ptx -o %t.256.ptx 2>/dev/null
// RUN: %check-ptxas %t.256.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.256.ptx
// RUN: grep -c "cp.async.bulk.tensor.2d.global.shared::cta" %t.256.ptx | FileCheck %s --check-prefix=STORES4
// RUN: grep -c "cp.async.bulk.wait_group.read" %t.256.ptx | FileCheck %s --check-prefix=READWAITS2
// RUN: grep -cE "cp.async.bulk.wait_group.read[[:space:]]+0;" %t.256.ptx | FileCheck %s --check-prefix=READWAITS2
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x256 --raster=16 --persistent=2 --out=bf16 --epilogue=tma --ring=1 > %t.ring.mlir
// RUN: FileCheck %s --check-prefix=RING < %t.ring.mlir
// RUN: acopy-opt %t.ring.mlir --acopy-lower --emit=ptx -o %t.ring.ptx 2>/dev/null
// RUN: %check-ptxas %t.ring.ptx sm_90a
// RUN: FileCheck %s --check-prefix=RPTX < %t.ring.ptx
// RUN: grep -cE "cp.async.bulk.wait_group.read[[:space:]]+1;" %t.ring.ptx | FileCheck %s --check-prefix=READWAITS4
// RUN: grep -c "cp.async.bulk.wait_group.read" %t.ring.ptx | FileCheck %s --check-prefix=READWAITS4
// RUN: not %python %S/../../examples/gemm/gen.py 512 500 64 2 warp --persistent=132 --out=bf16 --epilogue=tma 2>&1 | FileCheck %s --check-prefix=REFUSE

// MLIR: workgroup({{.*}}%te0: memref<128x64xbf16, 3>, %te1: memref<128x64xbf16, 3>)
// MLIR: scf.for %tile
// MLIR: acopy.pipeline = {stages = 3 : i64, producer = "warp"}
// MLIR: acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
// MLIR: vector.store %hpair0, %te0[%prow0, %pc0] : memref<128x64xbf16, 3>, vector<2xbf16>
// MLIR: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol0] {assume_aligned_start, swizzle = 128 : i64}
// MLIR: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol1] {assume_aligned_start, swizzle = 128 : i64}
// MLIR-NEXT: }
// MLIR-NEXT: acopy.wait_smem_to_gmem {pending = 0 : i64}
// MLIR-NEXT: gpu.return

// PTX-LABEL: .entry gemm_bf16_200x264x136_ob16
// PTX: .maxntid 288, 1, 1
// PTX: wgmma.mma_async
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-NEXT: bar.sync {{.*}}1, 256;
// PTX-NOT: st.global
// PTX: st.shared.b32
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync {{.*}}1, 256;
// PTX-NOT: st.global
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-NOT: st.global
// PTX: cp.async.bulk.wait_group 0;
// PTX-NEXT: bar.sync {{.*}}1, 256;
// PTX-NOT: st.global

// The store's map: out (argument 1), a 128 x 64 box, 128-byte swizzle.
// MAP: "arg": 1,
// MAP: "box": [
// MAP-NEXT: 128,
// MAP-NEXT: 64
// MAP-NEXT: ],
// MAP-NEXT: "swizzle": 128,

// The ring: panel q goes to buffer q mod 2 and is stored before panel q + 1 is written.
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: vector.store %hpair0, %te0
// RING: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol0]
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: vector.store %hpair32, %te1
// RING: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol1]
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: vector.store %hpair64, %te0
// RING: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol2]
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: vector.store %hpair96, %te1
// RING: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol3]

// RPTX: .maxntid 288, 1, 1
// RPTX: cp.async.bulk.wait_group.read 1;
// RPTX-NEXT: bar.sync {{.*}}1, 256;
// RPTX-NOT: st.global
// RPTX: st.shared.b32
// RPTX: fence.proxy.async.shared::cta;
// RPTX-NEXT: bar.sync {{.*}}1, 256;
// RPTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// RPTX: cp.async.bulk.wait_group.read 1;

// STORES2: 2
// STORES4: 4
// READWAITS2: 2
// READWAITS4: 4
// REFUSE: gen.py: error: N = 500: the TMA store of out (--epilogue=tma) needs 16-byte row strides
