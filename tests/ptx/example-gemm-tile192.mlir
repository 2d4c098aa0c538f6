// The GEMM example's 128 x 192 block tile (examples/gemm/gen.py --tile=128x192, the
// sweep's t192_* and g192_* builds): for shapes whose 128 x 256 tiles leave the last
// wave of a persistent grid part empty. Each K step copies B's 192 x 64 window into one
// 128-byte swizzled tile and each warpgroup issues wgmma m64n192k16 (96 f32
// accumulators a thread). The TMA epilogue stores three 64-column panels through the
// two buffers: the first two as one round, the third after waiting for the first
// round's stores to read theirs (two read waits, three stores); with --ring=1 each
// panel waits only for the store that last read its buffer. In a 2 x 1 x 1 cluster
// each block multicasts half of B's window (96 rows). Ragged M, N and K (200 x 264 x
// 136: N's second tile has 72 columns) are clipped by TMA; the direct epilogue
// guards them.
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x192 --raster=16 --persistent=2 --out=bf16 --epilogue=tma > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: grep -c "cp.async.bulk.tensor.2d.global.shared::cta" %t.ptx | FileCheck %s --check-prefix=THREE
// RUN: grep -cE "cp.async.bulk.wait_group.read[[:space:]]+0;" %t.ptx | FileCheck %s --check-prefix=TWO
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x192 --raster=16 --persistent=2 --out=bf16 --epilogue=tma --ring=1 > %t.ring.mlir
// RUN: FileCheck %s --check-prefix=RING < %t.ring.mlir
// RUN: acopy-opt %t.ring.mlir --acopy-lower --emit=ptx -o %t.ring.ptx 2>/dev/null
// RUN: %check-ptxas %t.ring.ptx sm_90a
// RUN: grep -cE "cp.async.bulk.wait_group.read[[:space:]]+1;" %t.ring.ptx | FileCheck %s --check-prefix=THREE
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x192 --raster=16 --persistent=2 --out=bf16 --epilogue=tma --cluster=2 > %t.c2.mlir
// RUN: acopy-opt %t.c2.mlir --acopy-lower --emit=ptx -o %t.c2.ptx --tma-manifest=%t.c2.json 2>/dev/null
// RUN: %check-ptxas %t.c2.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PAIR < %t.c2.json
// RUN: %python %S/../../examples/gemm/gen.py 200 264 136 4 warpgroup --tile=128x192 --raster=16 --persistent=2 --out=bf16 > %t.direct.mlir
// RUN: acopy-opt %t.direct.mlir --acopy-lower --emit=ptx -o %t.direct.ptx 2>/dev/null
// RUN: %check-ptxas %t.direct.ptx sm_90a
// RUN: FileCheck %s --check-prefix=DIRECT < %t.direct.ptx
// RUN: not %python -O %S/../../examples/gemm/gen.py 200 264 136 4 warp --tile=128x160 2>&1 | FileCheck %s --check-prefix=REFUSE --implicit-check-not=Traceback

// MLIR: workgroup(%ta0: memref<64x64xbf16, 3>, %ta1: memref<64x64xbf16, 3>, %tb: memref<192x64xbf16, 3>, %te0: memref<128x64xbf16, 3>, %te1: memref<128x64xbf16, 3>)
// MLIR: %cbn = arith.constant 192 : index
// MLIR: <m = 64, n = 192, k = 16>
// MLIR: acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
// MLIR: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol0]
// MLIR: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol1]
// MLIR-NEXT: acopy.wait_smem_to_gmem {pending = 0 : i64, read_only = true}
// MLIR: %v95 = llvm.extractvalue %acc[95]
// MLIR: vector.store %hpair94, %te0
// MLIR: %sc2 = arith.constant 128 : index
// MLIR: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol2]
// MLIR-NOT: %scol3
// MLIR: gpu.return

// PTX: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16

// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol0]
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: acopy.copy_smem_to_gmem %te1 -> %out[%m0, %scol1]
// RING: acopy.wait_smem_to_gmem {pending = 1 : i64, read_only = true}
// RING: acopy.copy_smem_to_gmem %te0 -> %out[%m0, %scol2]

// B's window split between the pair: a 96 x 64 box each.
// PAIR: "cluster": [
// PAIR-NEXT: 2,
// PAIR: "param": 3,
// PAIR: "box": [
// PAIR-NEXT: 96,
// PAIR-NEXT: 64
// PAIR-NEXT: ],

// DIRECT: setmaxnreg
// DIRECT: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// DIRECT: st.global.b16

// THREE: 3
// TWO: 2
// REFUSE: gen.py: error: --tile: 64x64, 64x128, 64x256, 128x64, 128x128, 128x192 or 128x256 on sm_90a
