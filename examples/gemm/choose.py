#!/usr/bin/env python3
"""Picks the build of examples/gemm/gen.py for a GEMM shape, as a frontend would: the
fastest build timed once on this card at this shape (a cache file, as Triton's
autotuner keeps one per key), else the lowest time of a cost model.

A *build* is one row of BUILDS: gen.py's STAGES, PRODUCER and options (sm_90a, bf16 in).
The kernel is specialized to M, N and K, so a frontend generates the chosen build at
its shape (`gen_args`) and compiles it with acopy-opt.

- `choose(m, n, k, out='bf16', cache=None, card=None)` -> (build, source): `source` is
  'timed' when the cache holds this card and shape (the build it timed fastest), else
  'model' (the cost model's pick among the builds that can take the shape). Shapes no
  build can take raise ValueError naming the limit (gen.refuse: K a multiple of 8; the
  --epilogue=tma builds also N a multiple of 8).
- A build marked `untimed` (built and through ptxas, never run on a card yet) is swept
  by bench/tc_sweep.py like any other but never the model's pick; a timed cache entry
  may still name it once the sweep has timed it. So is one marked `model=False` (timed,
  and slower than the build the model scores it as: the dsmem split-K builds and
  g256_sks_ob16).
- `record(cache, card, m, n, k, out, times_ms)` adds one shape's timings to the cache
  (bench/tc_sweep.py writes them for every swept shape: `gemm-choices.json`).
- `model_ms(m, n, k, build, sms=132)`: the cost model. Per SM, tiles run one after the
  other (BLOCKS_PER_SM of them side by side); a tile costs its K steps at the tensor
  rate (EFFICIENCY of the H100/H200 dense bf16 peak, 989 TFLOP/s over 132 SMs) plus an
  epilogue that writes the tile at the SM's share of DRAM bandwidth (scalar stores on
  ragged shapes at half that; with --epilogue=tma only the shared-memory writes, and for
  a 128 x 256 tile one wait for the first half's store, the rest running under the
  next tile); two blocks per SM hide little of each other's epilogue; K rows off the
  32-byte sector (K = 8 mod 16) slow a K loop that no multicast relieves; a cluster of
  two pays per tile. The busiest SM's tiles (wave quantization) set the time. Its
  constants are fitted to the H100 sweep of 2026-12-06 (call 7 of bench/RESULTS.md):
  scored there (`python3 bench/choose_score.py`), its pick runs at 0.985 of the best
  build's speed (geomean; min 0.936), where the model before the fit reached 0.819 (min
  0.317). On the next session's sweep (another H100 lease; bench/RESULTS.md, 2026-12-06
  (evening)), with the 128 x 64 builds added, its pick runs at 0.982 (min 0.922). On the
  sweep of all 19 builds (2026-12-06 evening session, another H100 lease; that
  bench/results/gemm-sweep.json is in the repository's history), with the producer-warpgroup builds' rate fitted there, 0.995 (min 0.929; 0.962
  before the fit). On the H200 sweep of 2026-12-06 (late night; bench/results/gemm-sweep-h200-small-tiles.json,
  10 builds) with the 128 x 64 TMA-epilogue and dsmem split-K builds timed, 0.994 (min
  0.943). On the H100 sweep of every build (2026-12-06 (near midnight), another lease;
  bench/results/gemm-sweep-h100-2026-12-06-near-midnight.json) 0.960 (min 0.844): there the producer-warp 128 x 256 builds
  with the TMA epilogue ran ahead of the producer-warpgroup ones the model prefers (the
  evening lease measured the opposite order), and no one rate fits both records better;
  the timed cache (`record`) is what picks the fastest build on a given card. On the
  five few-tile shapes with the spread split-K builds (H100, 2026-12-07, third session;
  bench/results/gemm-few-tile-spread-h100-2026-12-07.json) 0.962 (min 0.836, 1000^3),
  with g256_sks_ob16 kept from the pick (before, with the spread builds untimed and the
  serial t128_ws_sk_ob16 its pick at 512 x 512 x 16384, 0.942). On the H100 sweep of all
  31 builds (2026-12-07, fourth session; bench/results/gemm-sweep-h100-2026-12-07-31-builds.json) 0.983 (min 0.877
  at 1024 x 1024 x 8192, where it picks t128_ws_sks_ob16 over t64_ws_p132_tma_s8_ob16;
  0.899 at 1000^3, t64_ws_p132_tma_c2_ob16 over t128_ws_p132_tma_ob16). With the 64-row
  builds timed (H100, fifth session; bench/results/gemm-sweep-two-compilers-h100-2026-12-07.json,
  15 builds; --tags=old,new,pf: each build's row of the compiler on main where timed) 0.988 (min 0.929,
  1000^3, u128_ws_p132_tma_s8_ob16 over t128_ws_p132_tma_ob16). On the H100 sweep of all
  41 builds (2026-12-07, sixth session; bench/results/gemm-sweep.json) 0.986 (min 0.916 at
  4096 x 4096 x 16384, g256_p132_tmar_ob16 over t256_ws_p132_tmar_ob16). Fitted and scored on
  the same records: a new card or shape family may differ. It ranks builds; it is
  not a prediction to report. Split-K builds add each unit's partial tile written to L2
  and the last unit's reads of all of them (--split-reduce=spread: every unit's reads of
  its slice of them).
- `grid(build, m, n, k)`: the launch grid of the build at that shape (split-K builds
  launch a block per tile and K range).

Usage: python3 examples/gemm/choose.py M N K [--out=bf16|f32] [--cache=FILE] [--card=NAME] [--build=NAME]
prints the build, where the pick came from, gen.py's arguments for it and its launch grid (--build: that build's)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402  (gen.refuse: the shapes no sm_90a build takes)

def _tile64(bn, stages, persistent, extra=(), **marks):
    """A 64 x bn build (--tile=64xBN, one consumer warpgroup) with the TMA epilogue and a
    producer warp, `persistent` workers (264: two blocks an SM); `extra`: more gen.py options."""
    return dict(stages=stages, producer='warp', out='bf16', bm=64, bn=bn, per_sm=persistent // 132, epilogue='tma',
                options=[f'--tile=64x{bn}', '--raster=8', f'--persistent={persistent}', '--out=bf16',
                         '--epilogue=tma', *extra], **marks)


def _spread(bm, bn, stages, producer, raster, extra=(), persistent=132, **marks):
    """A bm x bn build with the spread split-K (--split-k=auto --split-reduce=spread:
    gen.spread_fixup), `persistent` workers (264: two an SM, and 'auto' fills them), bf16
    out; `extra`: more gen.py options."""
    tile = [] if (bm, bn) == (128, 128) else [f'--tile={bm}x{bn}']
    return dict(stages=stages, producer=producer, out='bf16', bm=bm, bn=bn, per_sm=persistent // 132, split='auto',
                reduce='spread',
                options=tile + [f'--raster={raster}', '--vstore=1', f'--persistent={persistent}', '--out=bf16',
                                '--split-k=auto', '--split-reduce=spread', *extra], **marks)


# name: gen.py STAGES PRODUCER options; out dtype; block tile; blocks per SM side by side.
BUILDS = {
    't256_ws_p132_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1,
                              options=['--tile=128x256', '--raster=16', '--vstore=1', '--persistent=132', '--out=bf16']),
    't128_ws_p264_ob16': dict(stages=3, producer='warp', out='bf16', bm=128, bn=128, per_sm=2,
                              options=['--raster=16', '--vstore=1', '--persistent=264', '--out=bf16']),
    't128_s3_ob16': dict(stages=3, producer='block', out='bf16', bm=128, bn=128, per_sm=2,
                         options=['--raster=16', '--vstore=1', '--out=bf16']),
    't256_ws_p132': dict(stages=4, producer='warp', out='f32', bm=128, bn=256, per_sm=1,
                         options=['--tile=128x256', '--raster=16', '--vstore=1', '--persistent=132']),
    # --epilogue=tma: the tile through 32 KiB of swizzled shared memory and a TMA store that
    # runs under the next tile's K loop (gen.epilogue_tma); N a multiple of 8. The stages
    # are what fits 227 KiB beside the 32 KiB tile (two blocks per SM: 2 stages each).
    't256_ws_p132_tma_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, epilogue='tma',
                                  options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                           '--epilogue=tma']),
    't128_ws_p132_tma_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=128, per_sm=1, epilogue='tma',
                                  options=['--raster=16', '--persistent=132', '--out=bf16', '--epilogue=tma']),
    # Two stages keep one tile ahead of the K loop: the K steps' rate is fitted to the
    # sweep (below the three-stage builds').
    't128_ws_p264_tma_ob16': dict(stages=2, producer='warp', out='bf16', bm=128, bn=128, per_sm=2, epilogue='tma',
                                  efficiency=0.50,
                                  options=['--raster=16', '--persistent=264', '--out=bf16', '--epilogue=tma']),
    # --ring=1: the epilogue's two panels as a ring, one panel's store under the next
    # panel's writes (gen.epilogue_tma).
    't256_ws_p132_tmar_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, epilogue='tma',
                                   options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                            '--epilogue=tma', '--ring=1']),
    # --split-k=auto: shapes with fewer tiles than SMs cut each tile's K steps into
    # ranges, one block each, the last to finish summing them (gen.split_fixup); its
    # launch grid is gen.launch_grid (grid() below).
    # --cluster=2 with a tile loop: the two blocks of a cluster take neighbouring tile rows
    # and multicast B's tile (each loads half; a producer warp releases slots to both):
    # a third less L2 traffic per K step, for shapes bound by it.
    't256_ws_p132_tma_c2_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, epilogue='tma',
                                     cluster=2, options=['--tile=128x256', '--raster=16', '--persistent=132',
                                                         '--out=bf16', '--epilogue=tma', '--cluster=2']),
    # The same pairs and clusters without the multicast (each block loads all of B's
    # tile): what the multicast is measured against.
    't256_ws_p132_tma_c2u_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, epilogue='tma',
                                      cluster=2, options=['--tile=128x256', '--raster=16', '--persistent=132',
                                                          '--out=bf16', '--epilogue=tma', '--cluster=2',
                                                          '--multicast=0']),
    't128_ws_sk_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=128, per_sm=1, split='auto',
                            options=['--raster=16', '--vstore=1', '--persistent=132', '--out=bf16', '--split-k=auto']),
    't256_ws_sk_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, split='auto',
                            options=['--tile=128x256', '--raster=16', '--vstore=1', '--persistent=132', '--out=bf16',
                                     '--split-k=auto']),
    # 128 x 64 tiles: twice the tiles of 128 x 128 where one wave of those leaves SMs idle
    # (M x N up to about 1024 x 1024).
    't64_ws_p132_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=64, per_sm=1,
                             options=['--tile=128x64', '--raster=8', '--vstore=1', '--persistent=132', '--out=bf16']),
    't64_ws_sk_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=64, per_sm=1, split='auto',
                           options=['--tile=128x64', '--raster=8', '--vstore=1', '--persistent=132', '--out=bf16',
                                    '--split-k=auto']),
    # The split-K build in 2 x 1 x 1 clusters: the pair runs each K range of two
    # neighbouring tiles and multicasts B's tile, so its K loop reads a quarter less
    # through L2 (few-tile shapes with long K are L2-bound: bench/RESULTS.md). Built and
    # through ptxas, not yet timed; the model scores it as t128_ws_sk_ob16 (which stays
    # first on ties).
    't128_ws_skc2_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=128, per_sm=1, split='auto',
                              cluster=2, options=['--raster=16', '--vstore=1', '--persistent=132', '--out=bf16',
                                                  '--split-k=auto', '--cluster=2']),
    # The split-K builds with 128 x 256 tiles and a producer warpgroup (the consumers'
    # 232 registers hold the 128 x 256 accumulator and the fix-up without the spills of
    # t256_ws_sk_ob16), alone and in 2 x 1 x 1 clusters that multicast B's tile: for
    # few-tile shapes with long K, half the tiles of 128 x 128 each read through L2 once
    # per pair. Built and through ptxas, not yet timed; the model scores them as
    # t256_ws_sk_ob16.
    'g256_sk_ob16': dict(stages=4, producer='warpgroup', out='bf16', bm=128, bn=256, per_sm=1, split='auto',
                         options=['--tile=128x256', '--raster=16', '--vstore=1', '--persistent=132', '--out=bf16',
                                  '--split-k=auto']),
    'g256_skc2_ob16': dict(stages=4, producer='warpgroup', out='bf16', bm=128, bn=256, per_sm=1, split='auto',
                           cluster=2, options=['--tile=128x256', '--raster=16', '--vstore=1', '--persistent=132',
                                               '--out=bf16', '--split-k=auto', '--cluster=2']),
    # 128 x 64 tiles with the TMA epilogue (one 64-column panel): for ragged few-tile shapes,
    # where the direct epilogue's scalar stores cost the 128 x 64 builds (1000^3: 148 TFLOP/s
    # against 209 for t128_ws_p132_tma_ob16 on the evening session's H100). Built and through
    # On the H200 (bench/RESULTS.md, 2026-12-06 (late night)) best at 512^3 and 1024^3 (0.895 and
    # 0.925 of cuBLAS; the direct-epilogue t64_ws_p132_ob16 0.751 and 0.777).
    # Since 2026-12-07 (fourth session) swept, not the model's pick: the eight-stage build
    # below takes its place (model=False).
    't64_ws_p132_tma_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=64, per_sm=1, epilogue='tma',
                                 model=False,
                                 options=['--tile=128x64', '--raster=8', '--persistent=132',
                                          '--out=bf16', '--epilogue=tma']),
    # The 128 x 128 and 128 x 64 TMA-epilogue builds in multicast pairs: for the few-tile
    # and ragged shapes (1000^3: 0.805 of cuBLAS on the H200 with t128_ws_p132_tma_ob16),
    # where K rows off the 32-byte sector make the K loop L2-bound. Timed on the H100 of
    # 2026-12-06 (near midnight): exact; best at 8192 x 8192 x 512 (1.076 of cuBLAS), behind the
    # unclustered tiles at 1000^3 (0.778 and 0.840 against 0.923).
    't128_ws_p132_tma_c2_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=128, per_sm=1, epilogue='tma',
                                     cluster=2,
                                     options=['--raster=16', '--persistent=132', '--out=bf16', '--epilogue=tma',
                                              '--cluster=2']),
    't64_ws_p132_tma_c2_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=64, per_sm=1, epilogue='tma',
                                    cluster=2,
                                    options=['--tile=128x64', '--raster=8', '--persistent=132', '--out=bf16',
                                             '--epilogue=tma', '--cluster=2']),
    # The same tiles in eight stages, as cuBLAS's 128 x 64 kernel at the one-wave shapes
    # keeps (nvjet_sm90_tst_128x64_64x8_1x2: 213 KB of shared memory under Nsight Compute,
    # bench/RESULTS.md 2026-12-07 (fourth session)): on that session's H100, 1.03-1.06 of
    # the six-stage build at 1024^3 and 1024 x 1024 x 8192, level at 1000^3; the model
    # scores them alike and picks this one (t64_ws_p132_tma_ob16 is model=False).
    't64_ws_p132_tma_s8_ob16': dict(stages=8, producer='warp', out='bf16', bm=128, bn=64, per_sm=1, epilogue='tma',
                                    options=['--tile=128x64', '--raster=8', '--persistent=132', '--out=bf16',
                                             '--epilogue=tma']),
    # Pairs along N (--pair=n) that multicast A's tile, two thirds of a 128 x 64 tile's
    # K-step reads (cuBLAS's kernel runs in 1 x 2 clusters), where the --cluster=2 pairs
    # above share B's third. On the same H100 slower than the unclustered tiles at every
    # shape but 1000^3 (0.946 and 0.903 of cuBLAS there, t128_ws_p132_tma_ob16 0.951 and
    # 0.920): swept, not the model's pick (model=False).
    't64_ws_p132_tma_c2n_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=64, per_sm=1,
                                     epilogue='tma', cluster=2, model=False,
                                     options=['--tile=128x64', '--raster=8', '--persistent=132', '--out=bf16',
                                              '--epilogue=tma', '--cluster=2', '--pair=n']),
    # The same pairs with eight stages (213 KB of shared memory with the epilogue's panel):
    # cuBLAS's kernel at 1000^3 and 1024 x 1024 x 8192 (nvjet_sm90_tst_128x64_64x8_1x2: 128 x 64
    # tiles in 1 x 2 clusters, eight stages of 64 K). Timed once (bench/RESULTS.md, 2026-12-07,
    # seventh session, item 6): 0.91 of cuBLAS at 1000^3 (the six-stage pair 0.93), 0.77-0.79 at
    # 1024^3 and 1024 x 1024 x 8192 where the unpaired 64 x 128 tile ran 1.07-1.09: model=False.
    't64_ws_p132_tma_c2n_s8_ob16': dict(stages=8, producer='warp', out='bf16', bm=128, bn=64, per_sm=1,
                                        epilogue='tma', cluster=2, model=False,
                                        options=['--tile=128x64', '--raster=8', '--persistent=132', '--out=bf16',
                                                 '--epilogue=tma', '--cluster=2', '--pair=n']),
    # 64-row tiles (--tile=64xBN: one consumer warpgroup, wgmma m64nBNk16; cuBLAS runs 64 x 48
    # tiles at 512^3): twice the tiles of the 128-row builds, each wgmma as wide. Timed on the
    # H100 (bench/RESULTS.md, 2026-12-07, fifth session): 64 x 64 best at 512^3 (1.11-1.13 of
    # cuBLAS, where the 128 x 64 tile ran 0.91), 64 x 128 best at 1024^3 (1.06-1.08) and
    # 1024 x 1024 x 8192 (0.97-1.03; 0.86 before). Their two-blocks-an-SM and 64 x 256
    # twins were slower everywhere (model=False).
    'u64_ws_p132_tma_s8_ob16': _tile64(64, 8, 132),
    'u64_ws_p264_tma_s6_ob16': _tile64(64, 6, 264, model=False),
    # With --release=warp since the sixth session (consumers release each slot a warp at a
    # time): 1.06 of the thread-by-thread release at 1024 x 1024 x 8192 (1.03 net of an
    # identical-kernel control timed beside it), 1.01-1.02 at 512^3 and 1024^3 (controls 1.00)
    # (bench/RESULTS.md, 2026-12-07, sixth session, item 3).
    'u128_ws_p132_tma_s8_ob16': _tile64(128, 8, 132, ['--release=warp']),
    'u128_ws_p264_tma_s4_ob16': _tile64(128, 4, 264, model=False),
    'u256_ws_p132_tma_s4_ob16': _tile64(256, 4, 132, model=False),
    # The 64 x 128 tile in pairs along N (--cluster=2 --pair=n), multicasting A's tile: for
    # the shapes whose K rows sit off the 32-byte sector (1000^3: the 128 x 64 pairs gained
    # 7-17 % there over the unpaired tile, fourth session item 5b). Timed on the H100
    # (bench/RESULTS.md, 2026-12-07, sixth session): 0.86 of cuBLAS at 1000^3, level with the
    # unpaired 64 x 128 tile and below the 128 x 64 pair (0.94); 0.73-0.81 at the 1024 and 512
    # shapes where the unpaired tile runs 0.97-1.08: model=False.
    'u128_ws_p132_tma_c2n_s8_ob16': _tile64(128, 8, 132, ['--cluster=2', '--pair=n'], cluster=2, model=False),
    # The 64 x 128 tile in pairs along M (--cluster=2), sharing B's 128 x 64 tile of each K
    # step (two thirds of the pair's K-step reads through L2 where --pair=n shares A's
    # third), as cuBLAS's 128 x 64 pairs share their larger operand: with the TMA epilogue
    # and, for the few-tile shapes with long K, the spread split-K. Built and through
    # ptxas, not yet timed.
    'u128_ws_p132_tma_c2_s8_ob16': _tile64(128, 8, 132, ['--release=warp', '--cluster=2'], cluster=2, untimed=True),
    # The 64 x 128 tile with the spread split-K: at 512 x 512 x 16384 32 tiles x 4 ranges
    # fill the SMs (128 x 128: 16 x 8), each unit's partial half the bytes (32 KiB) and a
    # tile's fix-up waiting on 4 units instead of 8: 0.84 of cuBLAS there, the best (the
    # 128 x 128 spread build 0.79-0.80 in the same runs).
    'u128_ws_sks_ob16': _spread(64, 128, 6, 'warp', 8),
    # Its eight-stage twin (196736 bytes of shared memory, 93 registers, no spills): timed on
    # the H100 (bench/RESULTS.md, 2026-12-07, seventh session), 0.74-0.76 of cuBLAS at 512 x
    # 512 x 16384 where the six-stage build ran 0.87-0.89 in the same three runs: model=False.
    'u128_ws_sks_s8_ob16': _spread(64, 128, 8, 'warp', 8, model=False),
    # The 64 x 64 tile with the spread split-K: at 512^3 its 64 tiles x 2 ranges of 4 K steps
    # fill 128 SMs, each loading 64 KiB; timed slower than u64_ws_p132_tma_s8_ob16 there and
    # than u128_ws_sks_ob16 at 512 x 512 x 16384 (0.61-0.62 of cuBLAS): model=False.
    'u64_ws_sks_ob16': _spread(64, 64, 8, 'warp', 8, model=False),
    # Split-K whose K ranges of a tile are a cluster (2, 4 or 8 blocks) that sums its
    # partials through distributed shared memory (gen.dsmem_fixup), instead of the last
    # unit reading every partial from a workspace in global memory (at split 8, 512 KB
    # read by one block: about 4 us of the 27 us t128_ws_sk_ob16 takes at 512 x 512 x 16384
    # on the H100). The block schedule: cluster barriers after a warp-specialized loop
    # are refused (P18). On the H200 (2026-12-06 (late night)) exact, and best at 1024 x 1024 x
    # 8192 (0.858 of cuBLAS; the serial fix-up's t128_ws_sk_ob16 0.814), behind it at
    # 512 x 512 x 16384 (0.575 against 0.812: its K loop has no producer warp).
    't128_skd_ob16': dict(stages=4, producer='block', out='bf16', bm=128, bn=128, per_sm=1, split='auto',
                          reduce='dsmem',
                          options=['--raster=16', '--persistent=132', '--out=bf16', '--split-k=auto',
                                   '--split-reduce=dsmem']),
    # The dsmem split-K with a producer warp: its K loop is t128_ws_sk_ob16's, and the
    # cluster sums the partials through distributed shared memory with mbarriers of the
    # consumers (gen.dsmem_signal, dsmem_await) instead of cluster barriers, so the
    # producer warp loads the next unit's tiles meanwhile. On the H100 of 2026-12-07
    # (bench/RESULTS.md) exact and slower than t128_ws_sk_ob16 at 4 of the 5 few-tile
    # shapes: a split of 8 is a cluster of 8, of which at most 15 are active at once (two
    # waves at 512 x 512 x 16384); in clusters of 2 still 0.82 of it at 1024 x 1024 x 8192.
    # Swept, never picked by the model (model=False).
    't128_ws_skd_ob16': dict(stages=6, producer='warp', out='bf16', bm=128, bn=128, per_sm=1, split='auto',
                             reduce='dsmem', model=False,
                             options=['--raster=16', '--persistent=132', '--out=bf16', '--split-k=auto',
                                      '--split-reduce=dsmem']),
    # The same with 128 x 256 tiles (four rounds of 64 columns), a producer warp or
    # warpgroup: at 1024 x 1024 x 8192, 32 tiles x 4 ranges fill the SMs and each K step
    # reads 48 KiB for twice the multiplies of a 128 x 128 step (32 KiB), a third less
    # through L2 for the chip. On the H100 of 2026-12-07 exact and half the serial
    # fix-up's rate there (its 32 clusters of 4 do not all fit at once either).
    't256_ws_skd_ob16': dict(stages=4, producer='warp', out='bf16', bm=128, bn=256, per_sm=1, split='auto',
                             reduce='dsmem', model=False,
                             options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                      '--split-k=auto', '--split-reduce=dsmem']),
    'g256_skd_ob16': dict(stages=4, producer='warpgroup', out='bf16', bm=128, bn=256, per_sm=1, split='auto',
                          reduce='dsmem', model=False,
                          options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                   '--split-k=auto', '--split-reduce=dsmem']),
    # Split-K whose tile's units each sum a column band of it (--split-reduce=spread,
    # gen.spread_fixup) instead of the last unit reading every partial: at 512 x 512 x
    # 16384 (split 8) the serial fix-up leaves one block of each tile reading 512 KiB while
    # the rest of the chip idles (Nsight Compute, 2026-12-07: SMs active 66 % of the
    # kernel's cycles, cuBLAS's 76 %). A unit waits for the others a bounded time only
    # (4096 polls), so any grid is correct. Timed on the H100 of 2026-12-07 (third
    # session, bench/RESULTS.md): t128_ws_sks_ob16 1.12-1.13 of the serial t128_ws_sk_ob16
    # at 512 x 512 x 16384 (SMs active 88 % of the cycles instead of 65 %), level with it
    # where the split is 2 (1024 x 1024 x 8192, 1000^3); t64_ws_sks_ob16 level with
    # t64_ws_sk_ob16. g256_sks_ob16, which the model ranks first at the few-tile shapes,
    # ran 0.82-0.85 of t128_ws_sks_ob16 there: not the model's pick (model=False).
    't128_ws_sks_ob16': _spread(128, 128, 6, 'warp', 16),
    # Two blocks an SM of the spread split-K (264 workers; 'auto' then fills 264): at 512 x
    # 512 x 16384 the 64 x 128 tile in 32 x 8 units of 32 K steps, the 128 x 128 tile in
    # 16 x 16 units of 16, each SM with a second block's copies in flight while one waits:
    # where the inputs sit in L2 (the sweep's loop reads the same 32 MB), latency rather than
    # bandwidth bounds a unit. Built and through ptxas, not yet timed.
    'u128_ws_sks_p264_s4_ob16': _spread(64, 128, 4, 'warp', 8, persistent=264, untimed=True),
    't128_ws_sks_p264_s3_ob16': _spread(128, 128, 3, 'warp', 16, persistent=264, untimed=True),
    't64_ws_sks_ob16': _spread(128, 64, 6, 'warp', 8),
    'g256_sks_ob16': _spread(128, 256, 4, 'warpgroup', 16, model=False),
    # The spread split-K in 2 x 1 x 1 clusters (pairs of tiles sharing a K range's copies by
    # multicast): cuBLAS's kernel at 512 x 512 x 16384 is a split-K of 128 x 64 tiles in
    # pairs (nvjet_sm90_tst_128x64_64x8_1x2_h_bz_splitK, eight stages), which reads a third
    # less through L2 for the chip than the unpaired 64 x 128 tile (128 MB against 192 MB
    # there), where the loop waits on loads. 128 x 64 tiles paired along N (sharing A's 128
    # rows) and 128 x 128 tiles paired along M (sharing B's). Timed on the H100 (bench/RESULTS.md,
    # 2026-12-07, seventh session, three runs on one lease), all exact: at 512 x 512 x 16384
    # the 128 x 128 pairs 0.85-0.88 of cuBLAS (their unpaired build 0.82-0.85), the 128 x 64
    # pairs 0.83-0.85 with eight stages and 0.77-0.80 with six, the unpaired 64 x 128
    # u128_ws_sks_ob16 0.87-0.89: never the best, model=False.
    't64_ws_sks_c2n_ob16': _spread(128, 64, 6, 'warp', 8, ['--cluster=2', '--pair=n'], cluster=2, model=False),
    't64_ws_sks_c2n_s8_ob16': _spread(128, 64, 8, 'warp', 8, ['--cluster=2', '--pair=n'], cluster=2, model=False),
    't128_ws_sks_c2_ob16': _spread(128, 128, 6, 'warp', 16, ['--cluster=2'], cluster=2, model=False),
    'u128_ws_sks_c2_ob16': _spread(64, 128, 6, 'warp', 8, ['--cluster=2'], cluster=2, untimed=True),
    # (A 128 x 192 tile, gen.py --tile=128x192, was timed in four builds at all 28 shapes on
    # the H100 of 2026-12-07, third session: slower than the 128 x 256 builds at every
    # shape, 0.64-0.98 of the best, even where its tiles fill the last wave better;
    # bench/RESULTS.md. Not swept.)
    # g256_*: the t256_* builds with a producer warpgroup that gives the consumers its
    # registers (setmaxnreg: 232 a consumer thread instead of 168), CUTLASS's split.
    # Their K steps' rate: 1.03 of the t256 builds' in geomean on the H100 sweep of the
    # 2026-12-06 (evening session) call (bench/RESULTS.md), where they are best at 19 of
    # 28 shapes.
    'g256_p132_tmar_ob16': dict(stages=4, producer='warpgroup', out='bf16', bm=128, bn=256, per_sm=1, epilogue='tma',
                                efficiency=0.875,
                                options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                         '--epilogue=tma', '--ring=1']),
    'g256_p132_tma_c2_ob16': dict(stages=4, producer='warpgroup', out='bf16', bm=128, bn=256, per_sm=1,
                                  epilogue='tma', cluster=2, efficiency=0.875,
                                  options=['--tile=128x256', '--raster=16', '--persistent=132', '--out=bf16',
                                           '--epilogue=tma', '--cluster=2']),
}
def _twins(names, rename, option, **marks):
    """Each build of `names` again with one more gen.py option, named by `rename` (old, new)
    applied to its name and marked with `marks`: a build to time beside its base."""
    return {name.replace(*rename): dict(BUILDS[name], **marks, options=BUILDS[name]['options'] + [option])
            for name in names}


# *_sksr_: the spread split-K builds with --split-sync=release: the leader fences once
# (fence.acq_rel.gpu) after the consumers' barrier, where each thread fenced its partial
# stores (membar.gl: 7 % of the stall samples at 512 x 512 x 16384, bench/RESULTS.md
# 2026-12-07 (fourth session)). Each is its base build with that option. Timed (fifth
# session): within 0.98-1.01 of its base build at 512 x 512 x 16384, so not the pick.
BUILDS.update(_twins(('t128_ws_sks_ob16', 'u128_ws_sks_ob16'), ('_sks_', '_sksr_'), '--split-sync=release',
                     model=False))
# *_rw_: builds with --release=warp (the consumers release each K step's slot a warp at a
# time, lane 0 arriving for its 32 lanes): 3-11 % for the 64 x 128 tile at long K on the
# H100 (sixth session). Each is its base build with that option. Timed beside their bases
# on the H100 (bench/RESULTS.md, 2026-12-07, seventh session: all 28 shapes once, eight
# few-tile shapes twice more): per base 0.94-1.03 of it in geomean (at single shapes
# 0.80-1.17 either way); ahead in every run at 1024 x 1024 x 8192 and 512 x 512 x 16384 for
# about half of them, where the best build already has the option or gains nothing from it;
# the best build at seven large shapes in the one 28-shape run, by 1-5 %, on a lease where
# their bases ran below the sixth session's. Not the model's pick until a second lease
# repeats that (model=False).
BUILDS.update(_twins(('t256_ws_p132_tmar_ob16', 't256_ws_p132_tma_ob16', 't256_ws_p132_tma_c2_ob16',
                      'g256_p132_tmar_ob16', 'g256_p132_tma_c2_ob16', 't128_ws_p132_tma_ob16',
                      't128_ws_p132_tma_c2_ob16', 't64_ws_p132_tma_c2n_ob16', 'u64_ws_p132_tma_s8_ob16',
                      'u128_ws_p264_tma_s4_ob16', 'u128_ws_sks_ob16', 'u128_ws_sks_s8_ob16',
                      'u128_ws_sksr_ob16', 't128_ws_sks_ob16', 't64_ws_sks_c2n_ob16', 't64_ws_sks_c2n_s8_ob16',
                      't128_ws_sks_c2_ob16'), ('_ob16', '_rw_ob16'), '--release=warp', model=False))

# *_pdl_: builds with --pdl=1 (programmatic dependent launch: each kernel lets the next
# one of the stream start as it ends, and waits for the one before it only before its
# first global access; gen.gemm's docstring). Each is its base build with that option,
# for the shapes where a kernel lasts a few microseconds and its start and end are a
# tenth of it. Built and through ptxas, not yet timed.
BUILDS.update(_twins(('u64_ws_p132_tma_s8_ob16', 'u128_ws_p132_tma_s8_ob16', 'u128_ws_p264_tma_s4_ob16',
                      't128_ws_p132_tma_ob16', 't128_ws_p132_tma_c2_ob16', 't64_ws_p132_tma_c2n_ob16',
                      'u128_ws_sks_ob16', 'u128_ws_sksr_ob16', 'g256_p132_tmar_ob16',
                      't256_ws_p132_tma_c2_ob16'), ('_ob16', '_pdl_ob16'), '--pdl=1', untimed=True))

PEAK_TFLOPS = 989.4          # dense bf16 tensor peak of an H100/H200 SXM (132 SMs)
DRAM_TBPS = 3.35             # H100 SXM HBM3 (an H200's 4.8 only makes epilogues cheaper)
# Of the tensor peak a K step reaches, by block tile N. 64: set on the H100 sweep of the
# 2026-12-06 (evening) session (bench/RESULTS.md), where any value from 0.30 to 0.45 gives
# the same picks and 0.50 picks the 128 x 64 tile at 1000^3, at 0.69 of the best build.
EFFICIENCY = {64: 0.45, 128: 0.70, 256: 0.85}
LAUNCH_US = 4.0
SMEM_TBPS = 0.25             # one SM's shared-memory stores, 128 B per clock at 1.98 GHz (--epilogue=tma)
L2_SM_TBPS = 0.1             # one SM's share of L2 reads and writes (split-K's partial tiles): a guess
# Fitted to the H100 sweeps of 2026-12-06 (bench/RESULTS.md, calls 5 and 7; bench/README.md
# says how the chooser is scored): the direct epilogue's stores from registers run well
# below the SM's DRAM share; 2 x 1 x 1 clusters pay per tile; two blocks per SM hide
# little of each other's epilogue; K rows off the 32-byte sector slow the K loop.
DIRECT_STORE_TBPS = 0.012
CLUSTER_US = 0.6
OVERLAP_LEFT = 0.8
MISALIGNED_ROWS = 1.4


def splits(name, m, n, k, sms=132):
    """The K ranges per tile build `name` cuts M x N x K into (1: no split-K); a persistent
    build's 'auto' fills its workers, as gen.py's does."""
    build = BUILDS[name]
    workers = int(option(name, 'persistent', 0)) or sms
    return gen.split_count(m, n, k, build['bn'], build.get('split', '1'), workers, build.get('reduce', 'serial'),
                           build['bm'])


def grid(name, m, n, k):
    """The launch grid (x, y, z) of build `name` at M x N x K."""
    build = BUILDS[name]
    return gen.launch_grid(m, n, splits(name, m, n, k), build.get('cluster', 1), int(option(name, 'persistent', 0)),
                           build['bn'], build.get('reduce', 'serial'), option(name, 'pair', 'm'), build['bm'])


def option(name, flag, default):
    """The value of gen.py's --flag=value among build `name`'s options, or `default`."""
    return next((arg.split('=', 1)[1] for arg in BUILDS[name]['options'] if arg.startswith(f'--{flag}=')), default)


def gen_args(name, m, n, k):
    """gen.py's command-line arguments for build `name` at M x N x K."""
    build = BUILDS[name]
    return [str(m), str(n), str(k), str(build['stages']), build['producer']] + build['options']


def refusal(name, m, n, k):
    """Why build `name` cannot take M x N x K (gen.refuse's message), or None."""
    if name not in BUILDS:
        return f'unknown build {name!r} (builds: {", ".join(BUILDS)})'
    try:
        gen.refuse(m, n, k, BUILDS[name].get('epilogue', 'direct'))
    except ValueError as error:
        return str(error)
    if BUILDS[name].get('reduce') == 'dsmem' and splits(name, m, n, k) < 2:
        return f'{name}: --split-reduce=dsmem needs 2, 4 or 8 K ranges, and {m}x{n}x{k} fills a wave without splitting K'
    return None


def candidates(m, n, k, out='bf16'):
    """The builds of out dtype `out` that can take M x N x K; ValueError naming the
    limit when none can."""
    names = [name for name, build in BUILDS.items() if build['out'] == out]
    if not names:
        raise ValueError(f'no build writes out dtype {out!r}')
    why = [refusal(name, m, n, k) for name in names]
    if all(why):
        raise ValueError(f'{m}x{n}x{k}: {why[0]}')
    return [name for name, reason in zip(names, why) if reason is None]


def model_ms(m, n, k, name, sms=132):
    """The cost model's milliseconds for build `name` (see the module's docstring)."""
    b = BUILDS[name]
    bm, bn, per_sm = b['bm'], b['bn'], b['per_sm']
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    ragged = m % bm or n % bn or k % 64
    sm_flops = PEAK_TFLOPS * 1e12 / sms
    split = splits(name, m, n, k, sms)
    ksteps = math.ceil(math.ceil(k / 64) / split)
    compute_us = ksteps * 2 * bm * bn * 64 / (sm_flops * b.get('efficiency', EFFICIENCY[bn])) * 1e6
    if (2 * k) % 32 and b.get('cluster', 1) == 1:
        # K rows off the 32-byte sector: each 128-byte box row reads five sectors, and
        # the K loop is L2-bound (bench/RESULTS.md: 0.70x at 6000 x 10000 x 3000);
        # multicast halves B's reads and keeps its rate.
        compute_us *= MISALIGNED_ROWS
    out_bytes = 2 if b['out'] == 'bf16' else 4
    sm_bw = DIRECT_STORE_TBPS * 1e12 * (0.5 if ragged else 1.0)
    epilogue_us = bm * bn * out_bytes / sm_bw * 1e6
    if b.get('epilogue') == 'tma':
        # The consumers only write the tile to shared memory (any shape: TMA clips the
        # ragged edges) and, with bn = 256, wait once for the first 128 columns' store to
        # read its panels (drained at the SM's share of DRAM bandwidth); the store's
        # traffic runs under the next tile's K loop.
        drain_us = (-(-bn // 128) - 1) * bm * 128 * out_bytes / (DRAM_TBPS * 1e12 / sms) * 1e6
        epilogue_us = bm * bn * out_bytes / (SMEM_TBPS * 1e12) * 1e6 + drain_us
    fill_us = 1.0   # the first stages' loads of each tile
    if split > 1:
        # Each unit writes its partial f32 tile; the tile's last unit reads all of them.
        partial_us = bm * bn * 4 / (L2_SM_TBPS * 1e12) * 1e6
        units = tiles * split
        if b.get('reduce') == 'spread':
            # Each of the tile's units reads every partial's slice and stores the slice.
            slices = gen.spread_slices(split, bn)[0]
            return (LAUNCH_US + math.ceil(units / sms) * (compute_us + fill_us + partial_us)
                    + (split * partial_us + epilogue_us) / slices) / 1e3
        return (LAUNCH_US + math.ceil(units / sms) * (compute_us + fill_us + partial_us)
                + split * partial_us + epilogue_us) / 1e3
    if b.get('cluster', 1) > 1:
        # A cluster's pair of tiles waits for the slower block, and its raster runs over
        # pairs of tile rows: a wave needs twice the tiles to fill the SMs.
        fill_us += CLUSTER_US
    if per_sm == 1:
        per_tile = compute_us + epilogue_us + fill_us
        busiest = math.ceil(tiles / sms) * per_tile
    else:
        # Two blocks share the SM's tensor cores; measured, each one's epilogue and fill
        # mostly add to the other's K loop rather than hide under it (bench/RESULTS.md:
        # the 264-block builds trail the 132-block ones at every swept shape but one).
        pair = 2 * compute_us + OVERLAP_LEFT * (epilogue_us + fill_us)
        busiest = math.ceil(tiles / (sms * per_sm)) * pair
        if tiles <= sms:   # one tile per SM: nothing to pair with
            busiest = compute_us + epilogue_us + fill_us
    return (LAUNCH_US + busiest) / 1e3


def load_cache(path):
    if path and os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {'version': 1, 'cards': {}}


def key(m, n, k, out):
    return f'{m}x{n}x{k}:{out}'


def record(path, card, m, n, k, out, times_ms):
    """Adds one shape's timed builds ({build: ms}) to the cache file at `path` and returns
    the fastest build."""
    cache = load_cache(path)
    times = {name: ms for name, ms in times_ms.items() if ms is not None and name in BUILDS}
    if not times:
        raise ValueError(f'{m}x{n}x{k}: no timed build to record')
    best = min(times, key=times.get)
    cache['cards'].setdefault(card, {})[key(m, n, k, out)] = {'build': best, 'ms': times}
    with open(path, 'w') as f:
        json.dump(cache, f, indent=1, sort_keys=True)
    return best


def choose(m, n, k, out='bf16', cache=None, card=None, sms=132, among=None):
    """(build, 'timed' | 'model') for M x N x K with out dtype `out` (`among`: only those
    builds, as bench/choose_score.py scores the pick among a record's builds)."""
    names = [name for name in candidates(m, n, k, out) if among is None or name in among]
    entry = load_cache(cache)['cards'].get(card or '', {}).get(key(m, n, k, out))
    if entry and entry.get('build') in names:
        return entry['build'], 'timed'
    # A build not yet timed on a card is swept, never picked by the model; nor is one the
    # records show slower than the build the model scores it as (model=False).
    modelled = [name for name in names if not BUILDS[name].get('untimed') and BUILDS[name].get('model', True)] or names
    return min(modelled, key=lambda name: model_ms(m, n, k, name, sms)), 'model'


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    flags = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    if len(args) != 3:
        sys.exit(__doc__.strip().splitlines()[-2])
    m, n, k = (int(v) for v in args)
    try:
        if 'build' in flags:
            # A build named by the caller: its arguments and grid, or why it cannot.
            name, source = flags['build'], 'named'
            why = refusal(name, m, n, k)
            if why:
                raise ValueError(f'{m}x{n}x{k}: {why}')
        else:
            name, source = choose(m, n, k, flags.get('out', 'bf16'), flags.get('cache'), flags.get('card'))
    except ValueError as error:
        sys.exit(f'choose.py: error: {error}')
    print(json.dumps({'build': name, 'source': source, 'gen_args': gen_args(name, m, n, k), 'grid': grid(name, m, n, k),
                      'model_ms': {b: round(model_ms(m, n, k, b), 4) for b in candidates(m, n, k, flags.get('out', 'bf16'))}}))


if __name__ == '__main__':
    main()
