// The GEMM example's split-K (examples/gemm/gen.py --split-k, the sweep's
// t128_ws_sk_ob16 build, for shapes with fewer tiles than SMs): each 128 x 128 tile's
// K steps are cut into ranges, one work unit each. A unit runs its range through the
// warp-specialized pipelined loop (the copies start at the range's first K step), then
// stores its f32 partial tile to a module workspace (st.global.v4), makes it visible
// (membar.gl) and counts its arrival on the tile's counter (atom.global.add) among the
// consumers' named barrier. The unit that arrives last reads every range's partial
// (ld.global.v4, unrolled so that the loads are in flight together) and sums them in K
// order, writes the bf16 tile and puts the counter back to 0 for the next launch; no
// unit waits for another. Ragged M, N and K (200 x 264 x 1000: six
// tiles, four ranges of four steps, the last past K and zero-filled); the launcher's
// grid has a block per tile and range (choose.py prints it). ptxas accepts the kernel.
// RUN: %python %S/../../examples/gemm/gen.py 200 264 1000 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=4 > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %python %S/../../examples/gemm/choose.py 512 512 16384 | FileCheck %s --check-prefix=CHOOSE
// RUN: %python %S/../../examples/gemm/gen.py 200 264 1000 6 warp --raster=16 --persistent=132 --out=bf16 --split-k=1 | FileCheck %s --check-prefix=NOSPLIT
// With --cluster=2 the pair of a cluster runs each K range of two neighbouring tiles
// (B's tile multicast): each block's own tile is the pair's tile 2 t + rank, its unit
// that tile's range, for the workspace and the counter. ptxas accepts it.
// RUN: %python %S/../../examples/gemm/gen.py 200 264 1000 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=4 --cluster=2 > %t.c2.mlir
// RUN: FileCheck %s --check-prefix=PAIR < %t.c2.mlir
// RUN: acopy-opt %t.c2.mlir --acopy-lower --emit=ptx -o %t.c2.ptx 2>/dev/null
// RUN: %check-ptxas %t.c2.ptx sm_90a
// PAIR: nvvm.cluster_dim = array<i32: 2, 1, 1>
// PAIR: collective_axes = ["x"]
// PAIR: %ptix = arith.muli %tix, %c2 : index
// PAIR-NEXT: %otix = arith.addi %ptix, %rank : index
// PAIR-NEXT: %osplit = arith.muli %otix, %csplit : index
// PAIR-NEXT: %ounit = arith.addi %osplit, %ks : index
// PAIR: %ubase = arith.muli %ounit, %cunit : index
// PAIR: memref.atomic_rmw addi %one32, %cnt[%otix]
// PAIR: %tbase = arith.muli %otix, %csplit : index
// --split-reduce=dsmem: a tile's K ranges are a cluster (here 4 x 1 x 1: 9 tiles x 4 = 36
// workers, a whole number of clusters) that sums its partials through distributed shared
// memory in two rounds of 64 columns: each block writes its half tile to %part (16-byte
// aligned for the vector reads), a cluster barrier, block r reads rows 32 r .. 32 r + 31 of
// every block's %part (mapa to each of the 4 ranks, in rank order) and stores them, a
// cluster barrier before %part is written again. No workspace, no counter. ptxas accepts it.
// RUN: %python %S/../../examples/gemm/gen.py 300 264 1000 4 block --raster=16 --persistent=132 --out=bf16 --split-k=4 --split-reduce=dsmem > %t.d.mlir
// RUN: FileCheck %s --check-prefix=DSMEM < %t.d.mlir
// RUN: grep -c "nvvm.mapa" %t.d.mlir | FileCheck %s --check-prefix=MAPA
// RUN: acopy-opt %t.d.mlir --acopy-lower --emit=ptx -o %t.d.ptx 2>/dev/null
// RUN: %check-ptxas %t.d.ptx sm_90a
// RUN: FileCheck %s --check-prefix=DSMEMPTX < %t.d.ptx
// RUN: %python %S/../../examples/gemm/choose.py 300 264 1000 --build=t128_skd_ob16 | FileCheck %s --check-prefix=DSMEMGRID
// RUN: not %python %S/../../examples/gemm/gen.py 300 264 1000 4 warp --tile=128x64 --persistent=132 --out=bf16 --split-k=4 --split-reduce=dsmem 2>&1 | FileCheck %s --check-prefix=DSMEMTILE
// RUN: not %python %S/../../examples/gemm/choose.py 8192 8192 8192 --build=t128_skd_ob16 2>&1 | FileCheck %s --check-prefix=DSMEMWAVE
// DSMEM-NOT: acopy_splitk
// DSMEM: %part: memref<128x64xf32, 3> {llvm.align = 16 : i64}) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>}
// DSMEM: %workers = arith.constant 36 : index
// DSMEM: %crank = nvvm.read.ptx.sreg.cluster.ctarank : i32
// DSMEM: %slice = arith.muli %rank_i, %c32 : index
// %part's 8-column chunks are swizzled by row (chunk ^ row mod 8, and a thread's rows are
// l/4 and l/4 + 8): a warp's 8-byte stores of one chunk fall in 8 different bank groups
// instead of one; the reads find each element at the same place.
// DSMEM: %dc4 = arith.constant 1 : index
// DSMEM-NEXT: %dk4 = arith.xori %dc4, %l4 : index
// DSMEM-NEXT: %dk8_4 = arith.muli %dk4, %c8 : index
// DSMEM-NEXT: %dcol4 = arith.addi %c2l, %dk8_4 : index
// DSMEM: vector.store %dp4, %part[%prow0, %dcol4] {alignment = 8}
// DSMEM: nvvm.cluster.arrive {aligned}
// DSMEM-NEXT: nvvm.cluster.wait {aligned}
// DSMEM: %dr640_0 = arith.muli %dr0_0, %c64 : index
// DSMEM-NEXT: %dch0_0 = arith.divui %dcl0_0, %c8 : index
// DSMEM-NEXT: %drm0_0 = arith.remui %dr0_0, %c8 : index
// DSMEM-NEXT: %dsw0_0 = arith.xori %dch0_0, %drm0_0 : index
// DSMEM-NEXT: %dsw80_0 = arith.muli %dsw0_0, %c8 : index
// DSMEM-NEXT: %dlo0_0 = arith.remui %dcl0_0, %c8 : index
// DSMEM-NEXT: %dpc0_0 = arith.addi %dsw80_0, %dlo0_0 : index
// DSMEM-NEXT: %del0_0 = arith.addi %dr640_0, %dpc0_0 : index
// DSMEM: %dpp0_0_0 = nvvm.mapa %dptr0_0, %dpr0_0_0 : !llvm.ptr<3> -> !llvm.ptr<7>
// DSMEM: %dsum0_0_3 = arith.addf %dsum0_0_2, %dld0_0_3 : vector<4xf32>
// DSMEM: memref.store %dx0_0_0, %out[%dgr0_0, %dco0_0_0]
// DSMEM: nvvm.cluster.arrive {aligned}
// DSMEM: %dcol32 = arith.addi %c2l, %dk8_32 : index
// DSMEM: nvvm.cluster.arrive {aligned}
// DSMEM: nvvm.cluster.arrive {aligned}
// MAPA: {{^}}16{{$}}
// DSMEMPTX: .reqnctapercluster 4, 1, 1
// DSMEMPTX: .shared .align 16 .b8
// DSMEMPTX: mapa.shared::cluster.u64
// DSMEMPTX: ld.shared::cluster.v4.b32
// DSMEMGRID: "grid": [36, 1, 1]
// DSMEMTILE: --split-reduce=dsmem: 2, 4 or 8 K ranges, 128 x 128 or 128 x 256 tiles, --persistent, no --cluster
// With a producer warp (choose.py's t128_ws_skd_ob16) the consumers sum the partials
// alone, beside the producer warp's next loads: a cluster barrier would wait for the
// producer warp, so the two barriers of a round are mbarriers of the consumers, %rdy
// (every block's %part written) and %dne (every block done reading this one's), one
// arrival per block (thread 0, after the consumers' barrier, on each of the 4 ranks'
// barrier through mapa, releasing at cluster scope), waited for at cluster scope. Round
// `half` of a tile is the block's round 2 i + half, so its parities are constants: %dne
// at 1 - half before %part is written (the first round's passes at once), %rdy at half;
// after the tile loop every consumer waits for the last round's %dne before the block
// leaves. The only cluster barrier is the one after the barriers' init.
// RUN: %python %S/../../examples/gemm/gen.py 300 264 1000 6 warp --raster=16 --persistent=132 --out=bf16 --split-k=4 --split-reduce=dsmem > %t.dw.mlir
// RUN: FileCheck %s --check-prefix=DSWS < %t.dw.mlir
// RUN: acopy-opt %t.dw.mlir --acopy-lower --emit=ptx -o %t.dw.ptx 2>/dev/null
// RUN: %check-ptxas %t.dw.ptx sm_90a
// RUN: FileCheck %s --check-prefix=DSWSPTX < %t.dw.ptx
// RUN: grep -c "mbarrier.arrive.release.cluster.shared::cluster" %t.dw.ptx | FileCheck %s --check-prefix=DSWSARRIVES
// RUN: grep -c "barrier.cluster.arrive" %t.dw.ptx | FileCheck %s --check-prefix=DSWSCLUSTER
// RUN: %python %S/../../examples/gemm/choose.py 300 264 1000 --build=t128_ws_skd_ob16 | FileCheck %s --check-prefix=DSMEMGRID
// DSWS: %rdy: memref<1xi64, 3>, %dne: memref<1xi64, 3>) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>}
// DSWS: acopy.barrier_init %rdy {arrival_count = 4 : i64}
// DSWS-NEXT: acopy.barrier_init %dne {arrival_count = 4 : i64}
// DSWS: scf.for %tile
// DSWS-NOT: nvvm.cluster.
// DSWS: %dw0par = arith.constant 1 : i32
// DSWS: nvvm.mbarrier.try_wait %dnep, %dw0par {scope = #nvvm.mem_scope<cluster>}
// DSWS: vector.store %dp0, %part[%prow0, %dcol0]
// DSWS: gpu.barrier
// DSWS-NEXT: %rs0t0 = arith.cmpi eq, %t, %c0 : index
// DSWS-NEXT: scf.if %rs0t0 {
// DSWS: %rs0p3 = nvvm.mapa %rdyp, %rs0r3
// DSWS-NEXT: nvvm.mbarrier.arrive %rs0p3 {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// DSWS: %rw0par = arith.constant 0 : i32
// DSWS: nvvm.mbarrier.try_wait %rdyp, %rw0par {scope = #nvvm.mem_scope<cluster>}
// DSWS: nvvm.mapa %dptr0_0
// DSWS: %ds0p3 = nvvm.mapa %dnep, %ds0r3
// DSWS: %dw1par = arith.constant 0 : i32
// DSWS: vector.store %dp32, %part[%prow0, %dcol32]
// DSWS: %rw1par = arith.constant 1 : i32
// DSWS: %ds1p3 = nvvm.mapa %dnep, %ds1r3
// DSWS: %dxpar = arith.constant 1 : i32
// DSWS-NEXT: scf.while
// DSWS-NEXT: nvvm.mbarrier.try_wait %dnex, %dxpar {scope = #nvvm.mem_scope<cluster>}
// DSWS-NOT: nvvm.cluster.
// DSWS: gpu.return
// DSWSPTX: .reqnctapercluster 4, 1, 1
// DSWSPTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// DSWSPTX: bar.sync {{.*}}1, 256;
// DSWSPTX: ld.shared::cluster.v4.b32
// Two rounds x (%rdy, %dne) x 4 ranks.
// DSWSARRIVES: {{^}}16{{$}}
// DSWSCLUSTER: {{^}}1{{$}}
// 128 x 256 tiles with a producer warpgroup (choose.py's g256_skd_ob16): four rounds of
// 64 columns a tile, so the parities alternate round by round (%dne at 1, 0, 1, 0 before
// each write of %part, %rdy at 0, 1, 0, 1) and the last round's %dne is still parity 1;
// the round's columns go to out at 64 r. ptxas accepts it with setmaxnreg.
// RUN: %python %S/../../examples/gemm/gen.py 300 520 1000 4 warpgroup --tile=128x256 --raster=16 --persistent=132 --out=bf16 --split-k=4 --split-reduce=dsmem > %t.d256.mlir
// RUN: FileCheck %s --check-prefix=DS256 < %t.d256.mlir
// RUN: acopy-opt %t.d256.mlir --acopy-lower --emit=ptx -o %t.d256.ptx 2>/dev/null
// RUN: %check-ptxas %t.d256.ptx sm_90a
// RUN: grep -c "mbarrier.arrive.release.cluster.shared::cluster" %t.d256.ptx | FileCheck %s --check-prefix=DS256ARRIVES
// RUN: FileCheck %s --check-prefix=DS256PTX < %t.d256.ptx
// DS256: nvvm.cluster_dim = array<i32: 4, 1, 1>
// DS256: %dw0par = arith.constant 1 : i32
// DS256: %rw0par = arith.constant 0 : i32
// DS256: %dh0_0 = arith.constant 0 : index
// DS256: %dw1par = arith.constant 0 : i32
// DS256: %rw1par = arith.constant 1 : i32
// DS256: %dh1_0 = arith.constant 64 : index
// DS256: %dw2par = arith.constant 1 : i32
// DS256: %rw2par = arith.constant 0 : i32
// DS256: %dh2_0 = arith.constant 128 : index
// DS256: %dw3par = arith.constant 0 : i32
// DS256: %rw3par = arith.constant 1 : i32
// DS256: %dh3_0 = arith.constant 192 : index
// DS256-NOT: %dw4par
// DS256: %dxpar = arith.constant 1 : i32
// Four rounds x (%rdy, %dne) x 4 ranks.
// DS256ARRIVES: {{^}}32{{$}}
// DS256PTX: .reqnctapercluster 4, 1, 1
// DS256PTX: setmaxnreg.dec.sync.aligned.u32{{[[:space:]]+}}40;
// DS256PTX: setmaxnreg.inc.sync.aligned.u32{{[[:space:]]+}}232;
// DS256PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// DSMEMWAVE: --split-reduce=dsmem needs 2, 4 or 8 K ranges, and 8192x8192x8192 fills a wave without splitting K
// The same with 128 x 256 tiles and a producer warpgroup (choose.py's g256_skc2_ob16):
// 384 threads, setmaxnreg 40 / 232, B's tile multicast; ptxas accepts it.
// RUN: %python %S/../../examples/gemm/gen.py 512 512 4096 4 warpgroup --tile=128x256 --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=4 --cluster=2 > %t.g2.mlir
// RUN: acopy-opt %t.g2.mlir --acopy-lower --emit=ptx -o %t.g2.ptx 2>/dev/null
// RUN: %check-ptxas %t.g2.ptx sm_90a
// RUN: FileCheck %s --check-prefix=G256 < %t.g2.ptx
// G256: .maxntid 384, 1, 1
// G256: setmaxnreg.dec.sync.aligned.u32{{[[:space:]]+}}40;
// G256: multicast::cluster
// G256: setmaxnreg.inc.sync.aligned.u32{{[[:space:]]+}}232;

// Six tiles x four ranges = 24 units, each a 64 KiB partial tile (256 threads x 64 f32).
// MLIR: memref.global "private" @acopy_splitk_ws : memref<393216xf32, 1>
// MLIR: memref.global "private" @acopy_splitk_count : memref<6xi32, 1> = dense<0>
// MLIR: workgroup({{.*}}%flag: memref<1xi32, 3>)
// MLIR: %ck = arith.constant 4 : index
// MLIR: %ntiles = arith.constant 24 : index
// MLIR: %kbase = arith.muli %ks, %ck : index
// MLIR: %ktk = arith.addi %kt, %kbase : index
// MLIR: oob_mode = "zeros"
// MLIR: acopy.pipeline = {stages = 6 : i64, producer = "warp"}
// MLIR: vector.store %pvec0, %ws[%po0] {alignment = 16}
// MLIR: nvvm.memory.barrier #nvvm.mem_scope<gpu>
// MLIR: memref.atomic_rmw addi %one32, %cnt[%tix]
// MLIR: %last = arith.cmpi eq, %seen, %lastcount : i32
// MLIR: %sn0_1 = arith.addf %sp0_0, %sp0_1 : vector<4xf32>
// MLIR: %sn0_3 = arith.addf %sn0_2, %sp0_3 : vector<4xf32>
// MLIR: memref.store %zero32, %cnt[%tix]
// MLIR: llvm.extractvalue %facc[0]

// PTX-LABEL: .entry gemm_bf16_200x264x1000_ob16
// PTX: .maxntid 288, 1, 1
// PTX: wgmma.mma_async
// PTX: st.global.v4.b32
// PTX: membar.gl;
// PTX-NEXT: bar.sync {{.*}}1, 256;
// PTX: atom.global.add.u32
// PTX: bar.sync {{.*}}1, 256;
// PTX: membar.gl;
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: st.global.b32 {{.*}}, 0;

// The chooser's pick at 512 x 512 x 16384: the spread split-K of 64 x 128 tiles (timed on
// the H100 of bench/RESULTS.md, 2026-12-07 fifth session, at 1.06x the 128 x 128 one), 32
// tiles x 4 ranges.
// CHOOSE: "build": "u128_ws_sks_ob16"
// CHOOSE-SAME: "--tile=64x128"
// CHOOSE-SAME: "--split-reduce=spread"
// CHOOSE-SAME: "grid": [128, 1, 1]

// NOSPLIT-NOT: acopy_splitk
// NOSPLIT-NOT: atomic_rmw

// --split-reduce=spread (t128_ws_sks_ob16): the tile's units sum a column band (slice)
// each instead of the last reading every partial. The arrival count is an i64 that runs
// on across launches (launch e's arrivals are e split .. (e + 1) split - 1), so a unit
// learns its place with no reset; a unit that is not last polls the count a bounded
// number of times (4096 atomic reads: no unit waits without bound for one that has not
// arrived), then claims its own slice with an atomic max of e + 1 on the slice's claim
// word; the last arrival sums the last slice (the one summation both roles share), then
// claims all the others at once (thread s slice s) and sums those it won. 200 x 264 x
// 1000, split 3: 16 vectors a thread, 6 a slice, so the third slice's vectors past 16 are
// skipped (the guard); split 4: 4 a slice, no guard.
// RUN: %python %S/../../examples/gemm/gen.py 200 264 1000 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=3 --split-reduce=spread > %t.s.mlir
// RUN: FileCheck %s --check-prefix=SPREAD < %t.s.mlir
// RUN: acopy-opt %t.s.mlir --acopy-lower --emit=ptx -o %t.s.ptx 2>/dev/null
// RUN: %check-ptxas %t.s.ptx sm_90a
// RUN: FileCheck %s --check-prefix=SPREADPTX < %t.s.ptx
// RUN: %python %S/../../examples/gemm/gen.py 512 512 4096 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=4 --split-reduce=spread | FileCheck %s --check-prefix=SPREAD4
// Split 20 over 16 vectors: 16 slices of one vector; arrivals 15 .. 18 have no slice.
// RUN: %python %S/../../examples/gemm/gen.py 256 256 16384 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=20 --split-reduce=spread | FileCheck %s --check-prefix=SPREAD20
// The spread split-K in pairs (--cluster=2; choose.py's t64_ws_sks_c2n_* and
// t128_ws_sks_c2_* builds): a unit is two tiles of one K range, sharing the range's copies
// by multicast, and each block sums the bands of its own tile, 2 %tix + %rank, whose
// counter, claim words and partials are its own: 300 x 296 in 128 x 64 tiles paired along
// N is 3 x 3 pairs, 18 tiles counted whole (the last pair's second tile past N), 4 ranges.
// RUN: %python %S/../../examples/gemm/gen.py 300 296 1000 6 warp --tile=128x64 --raster=8 --vstore=1 --persistent=132 --out=bf16 --split-k=4 --split-reduce=spread --cluster=2 --pair=n > %t.sp.mlir
// RUN: FileCheck %s --check-prefix=SPREADPAIR < %t.sp.mlir
// RUN: acopy-opt %t.sp.mlir --acopy-lower --emit=ptx -o %t.sp.ptx 2>/dev/null
// RUN: %check-ptxas %t.sp.ptx sm_90a
// RUN: FileCheck %s --check-prefix=SPREADPAIRPTX < %t.sp.ptx
// RUN: %python %S/../../examples/gemm/choose.py 512 512 16384 --build=t64_ws_sks_c2n_ob16 | FileCheck %s --check-prefix=SPREADPAIRGRID
// RUN: not %python %S/../../examples/gemm/gen.py 512 512 4096 6 warp --raster=16 --persistent=132 --out=bf16 --split-k=4 --split-reduce=spread --epilogue=tma 2>&1 | FileCheck %s --check-prefix=SPREADTMA
// RUN: %python %S/../../examples/gemm/choose.py 512 512 16384 --build=t128_ws_sks_ob16 | FileCheck %s --check-prefix=SPREADGRID
// SPREAD: memref.global "private" @acopy_splitk_count : memref<6xi64, 1> = dense<0>
// SPREAD: memref.global "private" @acopy_splitk_claim : memref<18xi64, 1> = dense<0>
// SPREAD: workgroup({{.*}}%flag: memref<3xi32, 3>, %epoch: memref<1xi64, 3>)
// SPREAD: vector.store %pvec15, %ws[%po15] {alignment = 16}
// SPREAD: nvvm.memory.barrier #nvvm.mem_scope<gpu>
// SPREAD-NEXT: gpu.barrier
// SPREAD: %cper = arith.constant 6 : index
// SPREAD: %polls = arith.constant 4096 : i32
// SPREAD: %lastslice = arith.constant 2 : i32
// SPREAD: %old = memref.atomic_rmw addi %one64, %cnt[%tix]
// SPREAD-NEXT: %place = arith.remui %old, %csplit64 : i64
// SPREAD-NEXT: %launch = arith.divui %old, %csplit64 : i64
// SPREAD-NEXT: %mark = arith.addi %launch, %one64 : i64
// SPREAD: %all = arith.muli %mark, %csplit64 : i64
// SPREAD: %role = scf.if %islast -> (i32) {
// SPREAD-NEXT: scf.yield %lastslice : i32
// SPREAD: %left = arith.cmpi ult, %polled, %polls : i32
// SPREAD: %read = memref.atomic_rmw addi %zero64, %cnt[%tix]
// SPREAD: %ready = arith.cmpi uge, %seen#0, %all : i64
// SPREAD: %before = memref.atomic_rmw maxs %mark, %claim[%slot]
// SPREAD-NEXT: %won = arith.cmpi slt, %before, %mark : i64
// SPREAD: %sumone = arith.cmpi sge, %role, %zero32 : i32
// SPREAD-NEXT: %sumlast = arith.cmpi eq, %role, %lastslice : i32
// SPREAD-NEXT: scf.if %sumone {
// SPREAD: %as0_1 = arith.addf %ap0_0, %ap0_1 : vector<4xf32>
// SPREAD: %as0_2 = arith.addf %as0_1, %ap0_2 : vector<4xf32>
// SPREAD-NOT: %ap0_3
// SPREAD: %ain5 = arith.cmpi ult, %aj5, %cnvec : index
// SPREAD: scf.if %sumlast {
// SPREAD-NOT: vector.load
// SPREAD: %cothers = arith.constant 2 : index
// SPREAD: %cbefore = memref.atomic_rmw maxs %markl, %claim[%cslot]
// SPREAD: gpu.barrier
// SPREAD: scf.for %sother = %c0 to %cothers step %c1 {
// SPREAD-NOT: %cnt[%tix] : i32
// SPREADPTX-LABEL: .entry gemm_bf16_200x264x1000_ob16
// SPREADPTX: atom.global.add.u64
// SPREADPTX: atom.global.{{or.b64|add.u64}} {{.*}}, 0;
// SPREADPTX: atom.global.max.s64
// SPREADPTX: atom.global.max.s64
// SPREAD4: %cper = arith.constant 4 : index
// SPREAD4-NOT: %cnvec : index
// SPREAD4: %lastslice = arith.constant 3 : i32
// SPREAD20: @acopy_splitk_claim : memref<64xi64, 1>
// SPREAD20: %cper = arith.constant 1 : index
// SPREAD20: %clast64 = arith.constant 19 : i64
// SPREAD20-NEXT: %cmine64 = arith.constant 15 : i64
// SPREAD20: %lastslice = arith.constant 15 : i32
// SPREAD20: %cothers = arith.constant 15 : index
// SPREADPAIR: memref.global "private" @acopy_splitk_ws : memref<589824xf32, 1>
// SPREADPAIR: memref.global "private" @acopy_splitk_count : memref<18xi64, 1>
// SPREADPAIR: memref.global "private" @acopy_splitk_claim : memref<72xi64, 1>
// SPREADPAIR: nvvm.cluster_dim = array<i32: 2, 1, 1>
// SPREADPAIR: %ntiles = arith.constant 36 : index
// SPREADPAIR: %tni = arith.addi %tni2, %rank : index
// SPREADPAIR: %ptix = arith.muli %tix, %c2 : index
// SPREADPAIR-NEXT: %otix = arith.addi %ptix, %rank : index
// SPREADPAIR-NEXT: %osplit = arith.muli %otix, %csplit : index
// SPREADPAIR-NEXT: %ounit = arith.addi %osplit, %ks : index
// SPREADPAIR: %ubase = arith.muli %ounit, %cunit : index
// SPREADPAIR: %stile = arith.muli %otix, %csplit : index
// SPREADPAIR: %cslice0 = arith.muli %otix, %cslices : index
// SPREADPAIR: memref.atomic_rmw addi %one64, %cnt[%otix]
// SPREADPAIR: memref.atomic_rmw addi %zero64, %cnt[%otix]
// SPREADPAIR-NOT: %cnt[%tix]
// SPREADPAIRPTX: .reqnctapercluster 2, 1, 1
// SPREADPAIRPTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// SPREADPAIRPTX: atom.global.max.s64
// SPREADPAIRGRID: "build": "t64_ws_sks_c2n_ob16"
// SPREADPAIRGRID-SAME: "grid": [128, 1, 1]
// SPREADTMA: gen.py: error: --split-reduce=spread: --epilogue=direct, --b-major=k
// SPREADGRID: "build": "t128_ws_sks_ob16"
// SPREADGRID-SAME: "grid": [128, 1, 1]

// The spread split-K's release without a fence per thread (examples/gemm/gen.py
// --split-sync=release; choose.py's *_sksr_ builds, timed level with their bases): every
// consumer stores its partial tile and meets the others (bar.sync 1, 256), then the
// leader alone fences (fence.acq_rel.gpu) before counting its arrival, and again after
// its atomics have read every arrival (acquire) before the barrier that lets the other
// threads read the partials; no membar.gl anywhere. The default (--split-sync=fence)
// fences every thread's stores with membar.gl and fences again before the reads, which
// pins what makes the two different. Refused without the spread fix-up.
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread --split-sync=release > %t.rel.mlir
// RUN: acopy-opt %t.rel.mlir --acopy-lower --emit=ptx -o %t.rel.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.rel.ptx sm_90a
// RUN: FileCheck %s --check-prefix=REL < %t.rel.ptx
// RUN: not grep "membar.gl" %t.rel.ptx
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread > %t.fence.mlir
// RUN: acopy-opt %t.fence.mlir --acopy-lower --emit=ptx -o %t.fence.ptx 2>/dev/null
// RUN: grep -c "membar.gl" %t.fence.ptx | FileCheck %s --check-prefix=SYNCTWO
// RUN: not grep "fence.acq_rel.gpu" %t.fence.ptx
// RUN: not %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --persistent=132 --split-k=auto --split-sync=release 2>&1 | FileCheck %s --check-prefix=SYNCREFUSE
// RUN: not %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --persistent=132 --split-k=auto --split-reduce=spread --split-sync=acquire 2>&1 | FileCheck %s --check-prefix=SYNCNAME

// REL: st.global.v4.b32
// REL: bar.sync 1, 256;
// REL-NOT: atom.global
// REL: fence.acq_rel.gpu;
// REL-NOT: ld.global
// REL: atom.global.add.u64
// REL: atom.global.or.b64
// REL: fence.acq_rel.gpu;
// REL-NEXT: // end inline asm
// REL-NEXT: st.shared
// REL: bar.sync 1, 256;
// REL: ld.global.v4

// SYNCTWO: 2
// SYNCREFUSE: gen.py: error: --split-sync=release: --split-reduce=spread
// SYNCNAME: gen.py: error: --split-sync: fence or release
