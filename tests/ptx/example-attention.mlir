// The attention example (examples/attention/gen.py, FlashAttention-2 style forward)
// from one frontend for sm_80 (cp.async) and sm_90 (TMA): K and V tiles in a loop
// marked acopy.pipeline, Q once, ldmatrix + mma.sync for Q Kᵀ and P V, the online
// softmax's row max across the 4 lanes of a row by shuffles, exp2 as ex2.approx;
// causal, and a ragged sequence (200: zero-filled tiles, fallback mode on cp.async).
// Every module assembles with ptxas. Per 64 keys a warp issues 8 x D/16 mma.sync for
// S and 4 x D/8 for P V: 64 at D = 64.
// RUN: %python %S/../../examples/attention/gen.py 2 256 64 2 > %t.80.mlir
// RUN: acopy-opt %t.80.mlir --acopy-lower --emit=ptx -o %t.80.ptx 2>/dev/null
// RUN: %check-ptxas %t.80.ptx sm_80
// RUN: FileCheck %s --check-prefix=PTX < %t.80.ptx
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" %t.80.ptx | FileCheck %s --check-prefix=MMA64
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal > %t.80c.mlir
// RUN: acopy-opt %t.80c.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.80c.ptx 2>/dev/null
// RUN: %check-ptxas %t.80c.ptx sm_80
// RUN: %python %S/../../examples/attention/gen.py 2 256 128 2 --causal --chip=sm_90 > %t.90.mlir
// RUN: acopy-opt %t.90.mlir --acopy-lower --emit=ptx -o %t.90.ptx 2>/dev/null
// RUN: %check-ptxas %t.90.ptx sm_90
// RUN: FileCheck %s --check-prefix=TMA < %t.90.ptx
// Causal: the last query block (the most key blocks) first: 256 / 64 = 4 query blocks.
// RUN: FileCheck %s --check-prefix=REVERSED < %t.90.mlir
// REVERSED: %qlast = arith.constant 3 : index
// REVERSED-NEXT: %qb = arith.subi %qlast, %bx : index
// RUN: %python %S/../../examples/attention/gen.py 1 200 64 2 --chip=sm_90 > %t.90r.mlir
// RUN: acopy-opt %t.90r.mlir --acopy-lower --emit=ptx -o %t.90r.ptx 2>/dev/null
// RUN: %check-ptxas %t.90r.ptx sm_90
// bf16 (nvvm.mma.sync on the fragments' registers: MLIR 22's nvgpu.mma.sync has no bf16).
// RUN: %python %S/../../examples/attention/gen.py 2 256 64 2 --causal --dtype=bf16 > %t.80b.mlir
// RUN: acopy-opt %t.80b.mlir --acopy-lower --emit=ptx -o %t.80b.ptx 2>/dev/null
// RUN: %check-ptxas %t.80b.ptx sm_80
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" %t.80b.ptx | FileCheck %s --check-prefix=MMA64
// Swizzled tiles (--swizzle=128: every ldmatrix through acopy.swizzled_index; a D = 128
// row is two column panels, written in fallback mode), 8 warps of 16 rows (--rows=128),
// and on sm_90a S = Q Kᵀ by wgmma (--qk=wgmma: D/16 = 4 wgmma per 64 keys, P V's 32
// mma.sync left; the Q tile is never ldmatrix-loaded).
// RUN: %python %S/../../examples/attention/gen.py 2 256 128 2 --causal --dtype=bf16 --swizzle=128 --rows=128 > %t.80s.mlir
// RUN: acopy-opt %t.80s.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.80s.ptx --tma-manifest=%t.80s.json 2>/dev/null
// RUN: FileCheck %s --check-prefix=ROWS128 < %t.80s.json
// RUN: %check-ptxas %t.80s.ptx sm_80
// RUN: FileCheck %s --check-prefix=SWZ < %t.80s.ptx
// --warp-rows=32 (the mma.sync path): each warp computes two 16-row m-tiles, so a block of
// 128 rows is 4 warps (128 threads) and every K and V fragment it loads by ldmatrix feeds
// two mma.sync: twice the one-m-tile kernel's 64 (MMA64) from the same 32 K and 32 V
// ldmatrix, the Q fragments loaded per step (2 m-tiles x D/16 = 8 ldmatrix.x4).
// RUN: %python %S/../../examples/attention/gen.py 2 256 64 2 --causal --dtype=bf16 --rows=128 --warp-rows=32 > %t.80w.mlir
// RUN: FileCheck %s --check-prefix=WR32 < %t.80w.mlir
// RUN: acopy-opt %t.80w.mlir --acopy-lower --emit=ptx -o %t.80w.ptx 2>/dev/null
// RUN: %check-ptxas %t.80w.ptx sm_80
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" %t.80w.ptx | FileCheck %s --check-prefix=MMA128
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x2.shared" %t.80w.ptx | FileCheck %s --check-prefix=LD32
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x2.trans" %t.80w.ptx | FileCheck %s --check-prefix=LD32
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x4" %t.80w.ptx | FileCheck %s --check-prefix=LD8
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal --dtype=bf16 --swizzle=128 --rows=128 --warp-rows=32 > %t.80w2.mlir
// RUN: acopy-opt %t.80w2.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.80w2.ptx 2>/dev/null
// RUN: %check-ptxas %t.80w2.ptx sm_80
// RUN: not %python %S/../../examples/attention/gen.py 2 256 64 2 --chip=sm_90 --swizzle=128 --qk=wgmma --warp-rows=32 2>&1 | FileCheck %s --check-prefix=WRALONE
// 32 keys a step (--keys=32, the mma.sync path): per step half the S and P V mma.sync (64)
// from half the K and V ldmatrix (16 each); at D = 128 no spill where 64 keys spill.
// RUN: %python %S/../../examples/attention/gen.py 2 256 64 2 --causal --dtype=bf16 --rows=128 --warp-rows=32 --keys=32 > %t.80k32.mlir
// RUN: acopy-opt %t.80k32.mlir --acopy-lower --emit=ptx -o %t.80k32.ptx 2>/dev/null
// RUN: %check-ptxas %t.80k32.ptx sm_80
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" %t.80k32.ptx | FileCheck %s --check-prefix=MMA64
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x2.shared" %t.80k32.ptx | FileCheck %s --check-prefix=LD16
// RUN: grep -c "ldmatrix.sync.aligned.m8n8.x2.trans" %t.80k32.ptx | FileCheck %s --check-prefix=LD16
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal --dtype=bf16 --swizzle=128 --rows=128 --warp-rows=32 --keys=32 > %t.80k32d.mlir
// RUN: acopy-opt %t.80k32d.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.80k32d.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.80k32d.ptx sm_80
// RUN: not %python %S/../../examples/attention/gen.py 2 256 64 2 --chip=sm_90 --swizzle=128 --qk=wgmma --keys=32 2>&1 | FileCheck %s --check-prefix=K32ALONE
// LD16: {{^}}16{{$}}
// K32ALONE: gen.py: error: {{.*}}32 on the mma.sync path
// WR32: gpu.known_block_size = array<i32: 128, 1, 1>
// MMA128: {{^}}128{{$}}
// LD32: {{^}}32{{$}}
// LD8: {{^}}8{{$}}
// WRALONE: --warp-rows=32: --qk=mma --pv=mma, not --persistent
// RUN: %python %S/../../examples/attention/gen.py 3 200 64 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma > %t.90w.mlir
// RUN: acopy-opt %t.90w.mlir --acopy-lower --emit=ptx -o %t.90w.ptx 2>/dev/null
// RUN: %check-ptxas %t.90w.ptx sm_90a
// RUN: FileCheck %s --check-prefix=WGMMA < %t.90w.ptx
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" %t.90w.ptx | FileCheck %s --check-prefix=WG4
// RUN: grep -c "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" %t.90w.ptx | FileCheck %s --check-prefix=MMA32
// RUN: not grep "ldmatrix.sync.aligned.m8n8.x4" %t.90w.ptx
// --pv=wgmma: P V by wgmma too, P from registers (an inline wgmma with register A; V read MN-major
// through acopy.wgmma_descriptor {major = "mn"}, transpose flag 1): per 64 keys at D = 128
// 8 wgmma for Q Kᵀ and 4 m64n128k16 for P V, no mma.sync and no ldmatrix left; D = 128's
// V tile is two column panels (fallback mode).
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma > %t.90p.mlir
// RUN: acopy-opt %t.90p.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90p.ptx 2>/dev/null
// RUN: %check-ptxas %t.90p.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PV < %t.90p.ptx
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" %t.90p.ptx | FileCheck %s --check-prefix=WG8
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" %t.90p.ptx | FileCheck %s --check-prefix=WG4
// RUN: not grep -E "ldmatrix|mma.sync.aligned.m16n8k16" %t.90p.ptx
// --rows=128 with wgmma: two warpgroups (256 threads), each with its own 64-row Q tile
// (two copies on one barrier of 2 arrivals), reading the same K and V slots; --keys=128:
// S is m64n128k16 (D/16 = 4 per 128 keys at D = 64) and P V 128/16 = 8 m64n64k16;
// --out=bf16: each pair of outputs one 32-bit store (D/8 = 8 per row half, 2 halves).
// RUN: %python %S/../../examples/attention/gen.py 3 300 64 2 --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 > %t.90k.mlir
// RUN: FileCheck %s --check-prefix=HALVES < %t.90k.mlir
// RUN: acopy-opt %t.90k.mlir --acopy-lower --emit=ptx -o %t.90k.ptx --tma-manifest=%t.90k.json 2>/dev/null
// RUN: %check-ptxas %t.90k.ptx sm_90a
// RUN: FileCheck %s --check-prefix=ROWS128 < %t.90k.json
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" %t.90k.ptx | FileCheck %s --check-prefix=WG4
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" %t.90k.ptx | FileCheck %s --check-prefix=WG8
// RUN: grep -c "st.global.b32" %t.90k.ptx | FileCheck %s --check-prefix=ST32
// RUN: not grep "st.global.b16" %t.90k.ptx
// --overlap: S(j+1) is issued before the softmax of S(j) and P V stays in flight (the body
// ends with wgmma.wait_group 1, and the pass keeps 2 tiles ahead at 3 stages); ptxas
// must not serialize the wgmma (%check-ptxas fails on its "Potential Performance Loss").
// S(0) before the loop and S(j+1) in it: 2 x 8 m64n64k16 at D = 128; P V 4 m64n128k16.
// With 128 rows the Q tiles and K(0) (48 KiB) move to dynamic shared memory beside the
// slots (rule P11, docs/pipelining.md).
// RUN: %python %S/../../examples/attention/gen.py 2 200 128 3 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --overlap --out=bf16 > %t.90o.mlir
// RUN: acopy-opt %t.90o.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90o.ptx 2>&1 >/dev/null | FileCheck %s --check-prefix=OVREMARK
// RUN: %check-ptxas %t.90o.ptx sm_90a
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" %t.90o.ptx | FileCheck %s --check-prefix=WG16
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" %t.90o.ptx | FileCheck %s --check-prefix=WG4
// RUN: FileCheck %s --check-prefix=OVERLAP < %t.90o.ptx
// --producer=warp --pingpong: the pass's producer warp issues K and V (288 threads), the
// Q tiles load before the split; the two warpgroups take turns issuing Q Kᵀ on named
// barriers 2 and 3 of 256 threads (bar.sync on its own, bar.arrive on the other's; the
// consumers' own barrier is 1).
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --producer=warp --pingpong --out=bf16 > %t.90pp.mlir
// RUN: acopy-opt %t.90pp.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90pp.ptx --tma-manifest=%t.90pp.json 2>/dev/null
// RUN: %check-ptxas %t.90pp.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PINGPONG < %t.90pp.ptx
// RUN: FileCheck %s --check-prefix=BLOCK288 < %t.90pp.json
// --producer=warpgroup with 128 keys a step and --pv-in-flight: a 128-thread producer
// warpgroup gives its registers to the consumers (setmaxnreg 40 and 232; the block is 384
// and ptxas launches at 168, .minnctapersm 1), ptxas keeps every wgmma asynchronous with
// P V left in flight (check-ptxas fails on a performance loss): one wait_group 1 (after
// P V), two wait_group 0 (after Q Kᵀ, which waits for the P V before it too, and after the
// loop).
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 3 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --producer=warpgroup --pingpong --pv-in-flight --out=bf16 > %t.90wg.mlir
// RUN: acopy-opt %t.90wg.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90wg.ptx --tma-manifest=%t.90wg.json 2>/dev/null
// RUN: %check-ptxas %t.90wg.ptx sm_90a
// RUN: FileCheck %s --check-prefix=WARPGROUP < %t.90wg.ptx
// RUN: FileCheck %s --check-prefix=BLOCK384 < %t.90wg.json
// RUN: grep -cE "wgmma.wait_group.sync.aligned[[:space:]]+1;" %t.90wg.ptx | FileCheck %s --check-prefix=INFLIGHT
// RUN: grep -cE "wgmma.wait_group.sync.aligned[[:space:]]+0;" %t.90wg.ptx | FileCheck %s --check-prefix=WAITALL
// --persistent=W: the launched blocks loop over the (query block, head) tiles, causal ones
// heaviest first over all heads (tile t: query block 4 - 1 - t / 6 of head t mod 6); each
// tile meets at a barrier (the last tile's wgmma have read Q), loads its Q on the same
// barrier and waits for the phase of its turn (the block's n-th tile: phase n).
// RUN: %python %S/../../examples/attention/gen.py 6 500 64 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --out=bf16 --persistent=4 > %t.90ps.mlir
// RUN: FileCheck %s --check-prefix=PERSIST < %t.90ps.mlir
// RUN: acopy-opt %t.90ps.mlir --acopy-lower --emit=ptx -o %t.90ps.ptx 2>/dev/null
// RUN: %check-ptxas %t.90ps.ptx sm_90a
// With a producer warpgroup the persistent tile loop's barrier, Q load and wait run on
// the consumers alone (docs/pipelining.md, "Code only the consumers run"): ptxas takes
// it, and with --overlap (K(0) and S(0) per tile, on the consumers too), keeping every
// wgmma asynchronous; the producer's copy of the tile loop has no wgmma and no Q copy.
// RUN: %python %S/../../examples/attention/gen.py 6 500 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --pingpong --persistent=4 > %t.90pgw.mlir
// RUN: acopy-opt %t.90pgw.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90pgw.ptx 2>/dev/null
// RUN: %check-ptxas %t.90pgw.ptx sm_90a
// RUN: %python %S/../../examples/attention/gen.py 6 500 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=64 --out=bf16 --producer=warpgroup --overlap --persistent=4 > %t.90qo.mlir
// RUN: acopy-opt %t.90qo.mlir --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=QOPRODUCER
// RUN: acopy-opt %t.90qo.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90qo.ptx 2>/dev/null
// RUN: %check-ptxas %t.90qo.ptx sm_90a
// QOPRODUCER: nvvm.setmaxregister decrease 40
// QOPRODUCER-NOT: nvvm.wgmma
// QOPRODUCER-NOT: acopy.copy_gmem_to_smem %arg0
// QOPRODUCER: } {acopy.issuers = array<i32: 256, 1>}
// QOPRODUCER: nvvm.setmaxregister increase 232
// QOPRODUCER: acopy.copy_gmem_to_smem %arg0
// QOPRODUCER: nvvm.wgmma.mma_async
// --overlap with --pingpong (FlashAttention-3's forward schedule): each warpgroup's turn
// issues its P V(j) and, after the loop's back edge, its S(j+2); iteration 0 opens the
// first turn (warpgroup 1 lets warpgroup 0 go), and warpgroup 0 closes its last after
// the loop, on the consumers alone (a named barrier with a thread count). ptxas keeps
// every wgmma asynchronous; in persistent blocks too.
// RUN: %python %S/../../examples/attention/gen.py 6 500 128 3 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=64 --out=bf16 --producer=warpgroup --overlap --pingpong --persistent=4 > %t.90op.mlir
// RUN: acopy-opt %t.90op.mlir --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=OPTURNS
// RUN: acopy-opt %t.90op.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90op.ptx 2>/dev/null
// RUN: %check-ptxas %t.90op.ptx sm_90a
// OPTURNS: } {acopy.issuers = array<i32: 256, 1>}
// OPTURNS: nvvm.setmaxregister increase 232
// OPTURNS: scf.for
// OPTURNS: scf.if
// OPTURNS-NEXT: nvvm.barrier.arrive id = %[[FIRST:.+]] number_of_threads = %[[N:.+]]
// OPTURNS: scf.if
// OPTURNS-NEXT: nvvm.barrier id = %[[MINE:.+]] number_of_threads = %[[N]]
// OPTURNS: nvvm.wgmma.mma_async
// OPTURNS: nvvm.wgmma.commit.group.sync.aligned
// OPTURNS-NEXT: nvvm.barrier.arrive id = %[[OTHER:.+]] number_of_threads = %[[N]]
// OPTURNS: nvvm.wgmma.wait.group.sync.aligned 0
// The slot of tile j - 1 is released right after that wait, before the turn's P V(j).
// OPTURNS-NOT: nvvm.barrier id
// OPTURNS: nvvm.mbarrier.arrive
// OPTURNS-NOT: nvvm.wgmma.commit
// OPTURNS: nvvm.barrier id = %[[MINE]] number_of_threads = %[[N]]
// OPTURNS: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async
// OPTURNS: nvvm.wgmma.wait.group.sync.aligned 1
// OPTURNS: scf.yield
// OPTURNS-NOT: nvvm.wgmma.mma_async
// OPTURNS: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %[[N]]
// OPTURNS: } {acopy.consumers = array<i32: 0, 256>}
// At 2 stages a turn waits for the tile whose slot (tile j - 1's) the other warpgroup
// released at its iteration j's wait_group 0, between its turns: the pass releases
// there, not at the body's end (docs/pipelining.md, "Asynchronous consumers").
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap --pingpong > %t.90op2.mlir
// RUN: acopy-opt %t.90op2.mlir --acopy-fallback --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=OPSTAGES
// RUN: acopy-opt %t.90op2.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90op2.ptx 2>/dev/null
// RUN: %check-ptxas %t.90op2.ptx sm_90a
// OPSTAGES: remark: acopy.pipeline: 2 stages, TMA on sm_90a; {{.*}}; the consumers release each slot at the next iteration's first wgmma.wait_group 0 (1 wgmma group in flight at the body's end); a producer warpgroup
// --overlap=pv (FlashAttention-3's order): S(j+1) and P V(j) are issued back to back in the
// warpgroup's turn (O rescaled between them), wait_group 1 lets S(j+1)'s softmax run
// while P V(j) computes, and wait_group 0 ends the body; P(j+1) is rounded after it. The
// pass bounds the groups in flight at the body's end by its last wait, 0, so it releases
// each slot there (not one iteration later); at D = 128 with 128 keys ptxas keeps every
// wgmma asynchronous and spills nothing (with --overlap, S(j) and S(j+1) live together,
// it spills: bench/RESULTS.md).
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --pingpong > %t.90fp.mlir
// RUN: acopy-opt %t.90fp.mlir --acopy-fallback --acopy-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=FPSTAGES
// RUN: acopy-opt %t.90fp.mlir --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=FPBODY
// RUN: acopy-opt %t.90fp.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90fp.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.90fp.ptx sm_90a
// FPSTAGES: remark: acopy.pipeline: 2 stages, TMA on sm_90a; {{.*}}; the consumers release each slot after the body's wgmma.wait_group 0 (0 wgmma groups in flight); a producer warpgroup
// FPBODY: nvvm.setmaxregister increase 232
// FPBODY: scf.for
// FPBODY: nvvm.barrier id = %[[MINE:.+]] number_of_threads = %[[N:.+]]
// FPBODY: nvvm.wgmma.mma_async
// FPBODY: nvvm.wgmma.commit.group.sync.aligned
// FPBODY-NOT: nvvm.wgmma.wait
// FPBODY: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async
// FPBODY: nvvm.wgmma.commit.group.sync.aligned
// FPBODY-NOT: nvvm.wgmma.wait
// FPBODY: scf.if
// FPBODY-NEXT: nvvm.barrier.arrive id = %[[OTHER:.+]] number_of_threads = %[[N]]
// FPBODY: nvvm.wgmma.wait.group.sync.aligned 1
// FPBODY-NEXT: scf.if
// FPBODY: llvm.inline_asm "ex2.approx.ftz.f32
// FPBODY: nvvm.wgmma.wait.group.sync.aligned 0
// FPBODY-NOT: nvvm.wgmma.mma_async
// FPBODY: arith.truncf
// FPBODY: nvvm.mbarrier.arrive
// FPBODY: scf.yield
// FPBODY: } {acopy.consumers = array<i32: 0, 256>}
// --peel-last: the loop stops one key block short, so no iteration issues an S it never
// uses; the last P V follows the loop, from the V tile loaded with Q and K(0) (231,400
// bytes of shared memory at D = 128, under 227 KiB). ptxas keeps every wgmma
// asynchronous and spills nothing.
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --peel-last --pingpong > %t.90fl.mlir
// RUN: acopy-opt %t.90fl.mlir --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=FLBODY
// RUN: acopy-opt %t.90fl.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90fl.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.90fl.ptx sm_90a
// RUN: not %python %S/../../examples/attention/gen.py 2 300 128 2 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --peel-last 2>&1 | FileCheck %s --check-prefix=FLALONE
// FLBODY: nvvm.setmaxregister increase 232
// FLBODY: scf.for
// FLBODY: nvvm.wgmma.wait.group.sync.aligned 1
// FLBODY: nvvm.wgmma.wait.group.sync.aligned 0
// FLBODY: nvvm.mbarrier.arrive
// FLBODY: scf.yield
// FLBODY-NOT: nvvm.wgmma.mma_async
// FLBODY: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async
// FLBODY: nvvm.wgmma.commit.group.sync.aligned
// FLBODY-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// FLBODY: vector.store
// FLBODY: } {acopy.consumers = array<i32: 0, 256>}
// FLALONE: --peel-last: --overlap=pv
// --prefetch-q (persistent): a tile's Q, K(0) and last V are loaded after the previous
// tile's K loop and last P V, before its epilogue (the block's first tile's before the
// tile loop), so a tile starts with the wait alone and the load runs beside the epilogue.
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --peel-last --persistent=132 --prefetch-q --producer-registers=24 > %t.90qn.mlir
// RUN: FileCheck %s --check-prefix=QNGEN < %t.90qn.mlir
// RUN: acopy-opt %t.90qn.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90qn.ptx 2>/dev/null
// RUN: %check-ptxas %t.90qn.ptx sm_90a
// RUN: not %python %S/../../examples/attention/gen.py 2 300 128 2 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --producer=warpgroup --prefetch-q 2>&1 | FileCheck %s --check-prefix=QNALONE
// QNGEN: acopy.barrier_init %qbar {arrival_count = 4 : i64}
// QNGEN-COUNT-4: acopy.copy_gmem_to_smem {{.*}}[%h_f, {{.*}} barrier(%qbar
// QNGEN-NEXT: scf.for %tile = %bx to %ntiles step %gx {
// QNGEN-NOT: acopy.copy_gmem_to_smem
// QNGEN: acopy.barrier_wait %qbar, %qpar
// QNGEN: } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup", producer_registers = 24 : i64}}
// QNGEN: nvvm.wgmma.wait.group.sync.aligned 0
// QNGEN-NOT: vector.store
// QNGEN: gpu.barrier
// QNGEN-NEXT: %tnext = arith.addi %tile, %gx : index
// QNGEN-NEXT: %more = arith.cmpi ult, %tnext, %ntiles : index
// QNGEN-NEXT: scf.if %more {
// QNGEN-COUNT-4: acopy.copy_gmem_to_smem {{.*}}[%h_n, {{.*}} barrier(%qbar
// QNGEN-NEXT: {{^ *}}}{{$}}
// QNGEN: vector.store
// QNALONE: --prefetch-q: --persistent
// --spread-loads (with --prefetch-q --peel-last): each of the next tile's inputs on a
// barrier of its own, loaded once this tile has read its own: K(0) after both
// warpgroups' S(0) (a consumers' barrier, then the copy where there is a next tile), Q
// after the K loop (before the last P V, which first waits for this tile's last V), the
// last V after the last P V. A tile waits for Q and K(0) before S(0); nothing is loaded
// after the epilogue's first store.
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --peel-last --persistent=132 --prefetch-q --spread-loads --producer-registers=24 --pingpong > %t.90qs.mlir
// RUN: FileCheck %s --check-prefix=QSGEN < %t.90qs.mlir
// RUN: acopy-opt %t.90qs.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90qs.ptx 2>/dev/null
// RUN: %check-ptxas %t.90qs.ptx sm_90a
// RUN: not %python %S/../../examples/attention/gen.py 2 300 128 2 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --producer=warpgroup --overlap=pv --persistent=132 --prefetch-q --spread-loads 2>&1 | FileCheck %s --check-prefix=QSALONE
// QSGEN: %qbar: memref<1xi64, 3>, %kbar: memref<1xi64, 3>, %vbar: memref<1xi64, 3>)
// QSGEN: acopy.barrier_init %qbar {arrival_count = 2 : i64}
// QSGEN-NEXT: acopy.barrier_init %kbar {arrival_count = 1 : i64}
// QSGEN-NEXT: acopy.barrier_init %vbar {arrival_count = 1 : i64}
// QSGEN-COUNT-2: acopy.copy_gmem_to_smem %q[%h_f, {{.*}} barrier(%qbar
// QSGEN-NEXT: acopy.copy_gmem_to_smem %k[%h_f, %c0, %c0] -> %tk0 barrier(%kbar
// QSGEN: acopy.copy_gmem_to_smem %v[%h_f, %vlast_f, %c0] -> %tvl barrier(%vbar
// QSGEN-NEXT: scf.for %tile = %bx to %ntiles step %gx {
// QSGEN: %tnext = arith.addi %tile, %gx : index
// QSGEN-NEXT: %more = arith.cmpi ult, %tnext, %ntiles : index
// QSGEN: acopy.barrier_wait %qbar, %qpar
// QSGEN-NEXT: acopy.barrier_wait %kbar, %qpar
// QSGEN: nvvm.wgmma.wait.group.sync.aligned 0
// QSGEN-NEXT: gpu.barrier
// QSGEN-NEXT: scf.if %more {
// QSGEN-NEXT: acopy.copy_gmem_to_smem %k[%h_n, %c0, %c0] -> %tk0 barrier(%kbar
// QSGEN-NEXT: {{^ *}}}{{$}}
// QSGEN: } {acopy.pipeline = {stages = 2 : i64, producer = "warpgroup", producer_registers = 24 : i64}}
// QSGEN-NEXT: gpu.barrier
// QSGEN-NEXT: scf.if %more {
// QSGEN-NEXT: acopy.copy_gmem_to_smem %q[%h_n, %q0_n, %c0] -> %tq0 barrier(%qbar
// QSGEN-NEXT: arith.addi %q0_n, %c64
// QSGEN-NEXT: acopy.copy_gmem_to_smem %q[%h_n, {{.*}}] -> %tq1 barrier(%qbar
// QSGEN-NEXT: {{^ *}}}{{$}}
// QSGEN-NEXT: acopy.barrier_wait %vbar, %qpar
// QSGEN: wgmma.mma_async
// QSGEN: nvvm.wgmma.wait.group.sync.aligned 0
// QSGEN-NOT: vector.store
// QSGEN: gpu.barrier
// QSGEN-NEXT: scf.if %more {
// QSGEN: acopy.copy_gmem_to_smem %v[%h_n, %vlast_n, %c0] -> %tvl barrier(%vbar
// QSGEN-NEXT: {{^ *}}}{{$}}
// QSGEN-NOT: acopy.copy_gmem_to_smem
// QSGEN: vector.store
// QSGEN-NOT: acopy.copy_gmem_to_smem
// QSALONE: --spread-loads: --prefetch-q --peel-last
// An --overlap other than qk or pv is refused, naming the two.
// RUN: not %python -O %S/../../examples/attention/gen.py 2 200 128 2 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --overlap=xyz 2>&1 | FileCheck %s --check-prefix=OVKIND --implicit-check-not=Traceback
// OVKIND: gen.py: error: overlap: --overlap (qk) or --overlap=pv
// The same with --overlap (qk) at the same shape spills.
// RUN: %python %S/../../examples/attention/gen.py 2 300 128 2 --causal --dtype=bf16 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --rows=128 --keys=128 --out=bf16 --producer=warpgroup --overlap --pingpong > %t.90fq.mlir
// RUN: acopy-opt %t.90fq.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.90fq.ptx 2>/dev/null
// RUN: not %check-ptxas --no-spill %t.90fq.ptx sm_90a 2>&1 | FileCheck %s --check-prefix=FQSPILL
// FQSPILL: ptxas spills
// The same at 2 stages keeps only 1 tile ahead; a P V kept in flight needs 2 stages.
// RUN: not %python %S/../../examples/attention/gen.py 2 200 128 1 --chip=sm_90 --swizzle=128 --qk=wgmma --pv=wgmma --overlap 2>&1 | FileCheck %s --check-prefix=OVSTAGES

// PTX: cp.async.cg.shared.global
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx.ftz.f32
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// MMA64: {{^}}64{{$}}
// TMA: cp.async.bulk.tensor.3d
// TMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// ROWS128: "block": [
// ROWS128-NEXT: 256,
// SWZ: cp.async.cg.shared.global
// SWZ: xor.b64
// SWZ: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// WGMMA: .target sm_90a
// WGMMA: cp.async.bulk.tensor.3d
// WGMMA: wgmma.fence.sync.aligned
// WGMMA: wgmma.commit_group.sync.aligned
// WGMMA: wgmma.wait_group.sync.aligned 0
// WG4: {{^}}4{{$}}
// MMA32: {{^}}32{{$}}
// PV: wgmma.fence.sync.aligned
// PV: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// WG8: {{^}}8{{$}}
// HALVES: %second = arith.cmpi eq, %wg, %c1 : index
// HALVES: acopy.barrier_init %qbar {arrival_count = 2 : i64}
// HALVES: copy_gmem_to_smem %q[%h, %q0, %c0] -> %tq0 barrier(%qbar
// HALVES: copy_gmem_to_smem %q[%h, %qh{{[0-9]+}}, %c0] -> %tq1 barrier(%qbar
// HALVES: arith.select %second
// ST32: {{^}}16{{$}}
// WG16: {{^}}16{{$}}
// OVREMARK: refills after the body's wgmma.wait_group 1 (1 wgmma group in flight), 2 tiles ahead
// OVERLAP: wgmma.wait_group.sync.aligned 0
// OVERLAP: wgmma.wait_group.sync.aligned 0
// OVERLAP: wgmma.wait_group.sync.aligned 1
// OVSTAGES: overlap: P V stays in flight, so stages >= 2
// PINGPONG: .maxntid 288, 1, 1
// PINGPONG: bar.arrive {{.+}}, 256;
// PINGPONG: bar.sync %{{.+}}, 256;
// PINGPONG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PINGPONG: bar.arrive {{.+}}, 256;
// BLOCK288: "block": [
// BLOCK288-NEXT: 288,
// WARPGROUP: .maxntid 384, 1, 1
// WARPGROUP-NEXT: .minnctapersm 1
// WARPGROUP: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// WARPGROUP: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;
// WARPGROUP: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// INFLIGHT: {{^}}1{{$}}
// WAITALL: {{^}}2{{$}}
// BLOCK384: "block": [
// BLOCK384-NEXT: 384,
// PERSIST: acopy.barrier_init %qbar {arrival_count = 2 : i64}
// PERSIST-NEXT: scf.for %tile = %bx to %ntiles step %gx {
// PERSIST-NEXT: %tq_rank = arith.divui %tile, %c6 : index
// PERSIST-NEXT: %qlast = arith.constant 3 : index
// PERSIST-NEXT: %qb = arith.subi %qlast, %tq_rank : index
// PERSIST-NEXT: %h = arith.remui %tile, %c6 : index
// PERSIST: %qpar = arith.cmpi eq, %todd, %c1 : index
// PERSIST: gpu.barrier
// PERSIST-NEXT: acopy.copy_gmem_to_smem %q[%h, %q0, %c0] -> %tq0 barrier(%qbar
// PERSIST: acopy.barrier_wait %qbar, %qpar
// PERSIST: acopy.pipeline

// Programmatic dependent launch (--pdl=1, choose.py's *_pdl builds): the kernel signals
// launch_dependents after its constants and waits (griddepcontrol.wait) after its index
// computations and before its first global access. With a producer warp (the block of
// fw_r64_k64_c2) the wait stays at the top level, before the role split, so the
// producer's K and V copies also wait; in a persistent build (qnflpgw24) it follows the
// Q barrier's init and precedes the first tile's prefetched loads and the tile loop. The
// PTX waits before any TMA copy, and the manifest asks the launcher for programmatic
// stream serialization. sm_80 is refused (griddepcontrol is sm_90's).
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal --chip=sm_90 --dtype=bf16 --swizzle=128 --rows=64 --qk=wgmma --pv=wgmma --keys=64 --out=bf16 --ctas-per-sm=2 --producer=warp --overlap=pv --pdl=1 > %t.pdlw.mlir
// RUN: FileCheck %s --check-prefix=PDLW < %t.pdlw.mlir
// RUN: acopy-opt %t.pdlw.mlir --acopy-fallback --acopy-pipeline 2>/dev/null | FileCheck %s --check-prefix=PDLSPLIT
// RUN: acopy-opt %t.pdlw.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.pdlw.ptx --tma-manifest=%t.pdlw.json 2>/dev/null
// RUN: %check-ptxas --no-spill %t.pdlw.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PDLPTX < %t.pdlw.ptx
// RUN: FileCheck %s --check-prefix=PDLMAP < %t.pdlw.json
// RUN: %python %S/../../examples/attention/gen.py 3 200 128 2 --causal --chip=sm_90 --dtype=bf16 --swizzle=128 --rows=128 --qk=wgmma --pv=wgmma --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --pingpong --persistent=132 --producer-registers=24 --peel-last --prefetch-q --pdl=1 | FileCheck %s --check-prefix=PDLQ
// RUN: %python %S/../../examples/attention/choose.py 1 512 128 --causal --build=fw_r64_k64_c2_o16_pdl | FileCheck %s --check-prefix=PDLARGS
// RUN: not %python %S/../../examples/attention/gen.py 2 256 64 2 --pdl=1 2>&1 | FileCheck %s --check-prefix=PDL80

// PDLW: Generated by examples/attention/gen.py 3 200 128 2 --causal {{.*}} --pdl=1.
// PDLW: %zacc = arith.constant
// PDLW-NEXT: nvvm.griddepcontrol launch_dependents
// PDLW: %h = gpu.block_id y
// PDLW-NOT: acopy.copy_gmem_to_smem
// PDLW: nvvm.griddepcontrol wait
// PDLW: acopy.barrier_init %qbar
// PDLW-NEXT: acopy.copy_gmem_to_smem %q
// PDLSPLIT: nvvm.griddepcontrol {{ *}}wait
// PDLSPLIT-NOT: acopy.copy_gmem_to_smem
// PDLSPLIT: acopy.copy_gmem_to_smem %arg0
// PDLSPLIT: %[[PT:.*]] = arith.cmpi uge, %{{.*}}, %c128{{.*}} : index
// PDLSPLIT-NEXT: scf.if %[[PT]] {
// PDLPTX: griddepcontrol.launch_dependents;
// PDLPTX-NOT: cp.async.bulk.tensor
// PDLPTX: griddepcontrol.wait;
// PDLPTX: cp.async.bulk.tensor
// PDLMAP: "programmatic_launch": true
// PDLQ: nvvm.griddepcontrol launch_dependents
// PDLQ: %bx = gpu.block_id x
// PDLQ: acopy.barrier_init %qbar
// PDLQ-NEXT: nvvm.griddepcontrol wait
// PDLQ-NOT: acopy.copy_gmem_to_smem
// PDLQ: %h_f = arith.remui %bx
// PDLQ: acopy.copy_gmem_to_smem %q[%h_f
// PDLQ: scf.for %tile = %bx to %ntiles step %gx {
// PDLARGS: "build": "fw_r64_k64_c2_o16_pdl"
// PDLARGS-SAME: "--wide-stores", "--pdl=1", "--causal"]
// PDL80: gen.py: error: --pdl=1: sm_90 only

// The causal order over groups of heads (--lpt, choose.py's *_lpt builds): a
// one-dimensional grid whose block x is a tile of tile_coords' causal order (the
// persistent builds' order) in groups of lpt_heads heads: 6 x 8192 x 128 takes two
// groups of 3 (K and V of 4 MiB a head), 64 query blocks each, so block x is group
// x / 192, level (x mod 192) / 3 from the last query block down and head 3 group +
// x mod 3: within a group every head's heaviest block starts before its lighter ones.
// ptxas takes it without spilling. Refused without --causal and with --persistent.
// bench/tc_sweep_test.py (test_lpt_order) runs these ops for every block of the grid.
// RUN: %python %S/../../examples/attention/gen.py 6 8192 128 2 --causal --chip=sm_90 --dtype=bf16 --swizzle=128 --rows=128 --qk=wgmma --pv=wgmma --keys=128 --out=bf16 --producer=warpgroup --overlap=pv --pingpong --peel-last --lpt > %t.lpt.mlir
// RUN: FileCheck %s --check-prefix=LPT < %t.lpt.mlir
// RUN: acopy-opt %t.lpt.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.lpt.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.lpt.ptx sm_90a
// RUN: not %python %S/../../examples/attention/gen.py 3 200 128 2 --chip=sm_90 --dtype=bf16 --swizzle=128 --rows=128 --qk=wgmma --pv=wgmma --keys=128 --out=bf16 --lpt 2>&1 | FileCheck %s --check-prefix=LPTREFUSED
// RUN: %python %S/../../examples/attention/choose.py 64 2048 128 --causal --build=flpgw_r128_k128_lpt | FileCheck %s --check-prefix=LPTGRID

// LPT-DAG: %c3 = arith.constant 3 : index
// LPT-DAG: %c192 = arith.constant 192 : index
// LPT: %bx = gpu.block_id x
// LPT-NEXT: %tgrp = arith.divui %bx, %c192 : index
// LPT-NEXT: %tin = arith.remui %bx, %c192 : index
// LPT-NEXT: %tq_rank = arith.divui %tin, %c3 : index
// LPT-NEXT: %qlast = arith.constant 63 : index
// LPT-NEXT: %qb = arith.subi %qlast, %tq_rank : index
// LPT-NEXT: %thg = arith.remui %tin, %c3 : index
// LPT-NEXT: %th0 = arith.muli %tgrp, %c3 : index
// LPT-NEXT: %h = arith.addi %th0, %thg : index
// LPT-NEXT: %q0 = arith.muli %qb, %c128 : index
// LPT-NOT: gpu.block_id
// LPTREFUSED: gen.py: error: --lpt: --causal, not --persistent
// LPTGRID: "grid": [1024, 1, 1]
