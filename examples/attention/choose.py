#!/usr/bin/env python3
"""Which attention build to use at a shape: what a frontend calls before it generates and
launches examples/attention/gen.py's kernel on sm_90a.

- `BUILDS`: the named builds (gen.py flags). The ones with bf16 out mask only the steps
  that can need it; they differ in query rows per block (64: one warpgroup; 128: two
  sharing each K and V tile), keys per step (64 or 128), a producer warp, ping-pong
  turns, the intra-warpgroup overlap and O's stores (`*_o16`: 16 bytes a lane). `wgmma_pv` is the kernel of issue 39's first
  table (f32 out, every step masked), kept for comparison.
- `choose(bh, s, d, causal)`: the sm_90a build by a rule read off the H100 sweep of
  bench/RESULTS.md, 2026-12-06 (near midnight; now
  bench/results/attention-sweep-h100-2026-12-06-near-midnight.json): S <= 512,
  64-row blocks several an SM (`e_r64_k64`; D = 128 causal `fw_r64_k64_c2`; D = 64
  non-causal, since 2026-12-07 (third session), `qnflw_r64_k128_c2`); causal,
  FlashAttention-3's order in ping-pong turns with the loop one key block short
  (`flpgw_r128_k128`; D = 64 below S = 4096 `e_r64_k64`); non-causal, the same order in
  persistent blocks that load the next tile's Q during this one's epilogue
  (`qnflpgw24_r128_k128`). Scored with `python3 bench/choose_score.py RECORD`: its pick at
  0.998 of the best build (geomean), min 0.966, on the record it was read off, and 0.993,
  min 0.927, on the next full sweep (2026-12-07, another H100 lease, 33 builds:
  bench/results/attention-sweep-h100-2026-12-07-33-builds.json; with the D = 64 short-sequence pick of 2026-12-07,
  third session, that record leaves 1 x 128 x 512 x 64 unscored, not having timed it);
  on that session's two runs of six D = 64 shapes
  (bench/results/attention-d64-k128-h100-2026-12-07.json and
  bench/results/attention-d64-k128-repeat-h100-2026-12-07.json) 0.971 and 0.970, min 0.912
  (0.965 with the pick before). Since 2026-12-07 (fourth session) below S = 4096 the
  pick's twin with 16-byte O stores (`*_o16`, gen.py --wide-stores), and at D = 64
  non-causal below 4096 e_r64_k64: on that session's three runs of the picks and their
  twins (bench/results/attention-wide-stores-h100-2026-12-07.json and its -repeat1-,
  -repeat2-) 0.992-0.994 of the best of those ten builds, 1.040-1.044 of cuDNN in geomean
  (the rule before: 1.022 over the three); on the sweep of 21 builds after them (another start of the
  machine; bench/results/attention-sweep.json) 0.970 of the best, 0.992 of cuDNN (min
  0.900: there the 4-byte qnflpgw24_r128_k128 ran 0.88-0.91 of its twin at S >= 4096,
  where the three runs had it ahead). Since 2026-12-07 (seventh session) at D = 64
  non-causal from S = 513 to 4096 e_r128_k128_c2 (128 x 128 tiles two an SM): the pick at
  0.975 of the best on attention-sweep.json, 0.991-0.993 on that session's two runs
  (bench/results/attention-tma-out-h100-2026-12-07.json, -repeat-) and 0.985 on its
  second lease's (attention-d64-picks-lease2-h100-2026-12-07.json). Another card or shape family may differ, and
  timing the builds once per shape (bench/tc_sweep.py) is the way to know.
- `choose(bh, s, d, causal, chip='sm_80')`: the sm_80 build (cp.async and mma.sync from
  the same source; `choose_sm80` says the rule and the record it was read off).
- `gen_args(build, bh, s, d, causal)`: gen.py's arguments; `grid(build, bh, s)`: the
  launch grid (a block per `rows` queries per head; the block is the manifest's).

Usage: python3 examples/attention/choose.py BH S D [--causal] [--chip=sm_90|sm_80] [--build=NAME]
prints the build, gen.py's arguments and the launch grid as JSON.
"""
import json
import sys

_BASE = dict(stages=2, chip='sm_90', swizzle=128, qk='wgmma', pv='wgmma', out='bf16', overlap=False, mask='edge',
             ctas_per_sm=0, producer='block', pingpong=False, persistent=0, softmax='fma',
             pv_in_flight=False, producer_registers=0, peel_last=False, prefetch_q=False, warp_rows=16,
             spread_loads=False, wide_stores=False, tma_out=False, pdl=0, lpt=False)
# name: gen.py's options. e_*: rows x keys; _c2: ptxas asked for 2 blocks per SM; w_*: a
# producer warp issues the copies; ppw_*: ping-pong with a producer warp; ov_*: --overlap;
# p_*: persistent (--persistent=W); _s3: 3 stages; _mul: the softmax with the scale
# multiplied into each score first (--softmax=mul: the kernel before the fused FMA, timed
# beside it).
BUILDS = {
    'wgmma_pv': dict(_BASE, rows=64, keys=64, out='f32', mask='all'),
    'e_r64_k64': dict(_BASE, rows=64, keys=64),
    'e_r64_k128': dict(_BASE, rows=64, keys=128),
    'e_r128_k64': dict(_BASE, rows=128, keys=64),
    'e_r128_k64_c2': dict(_BASE, rows=128, keys=64, ctas_per_sm=2),
    'e_r128_k128': dict(_BASE, rows=128, keys=128),
    'w_r64_k64': dict(_BASE, rows=64, keys=64, producer='warp'),
    'ppw_r128_k64': dict(_BASE, rows=128, keys=64, producer='warp', pingpong=True),
    'ppw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warp', pingpong=True),
    'ov_r128_k64_s3': dict(_BASE, stages=3, rows=128, keys=64, overlap=True),
    # The sm_80 build from the same source (cp.async and mma.sync; the sweep runs it on the
    # sm_90 card): one and two groups of 4 warps.
    # p_*: persistent, W blocks looping over the (query block, head) tiles.
    'p_r64_k64': dict(_BASE, rows=64, keys=64, persistent=396),
    'p_r128_k64': dict(_BASE, rows=128, keys=64, persistent=264),
    'p_r128_k128': dict(_BASE, rows=128, keys=128, persistent=264),
    'p_r64_k128': dict(_BASE, rows=64, keys=128, persistent=264),
    'e_r128_k128_c2': dict(_BASE, rows=128, keys=128, ctas_per_sm=2),
    'p_r128_k128_c2': dict(_BASE, rows=128, keys=128, ctas_per_sm=2, persistent=264),
    'ppw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warp', pingpong=True),
    # pgw_*: ping-pong with a producer warpgroup that hands its registers to the
    # consumers (setmaxnreg), FlashAttention-3's warpgroups.
    'pgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', pingpong=True),
    'pgw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', pingpong=True),
    'gw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup'),
    # *f_*: P V left in flight into the next iteration (--pv-in-flight).
    'pgwf_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', pingpong=True, pv_in_flight=True),
    'pgwf_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', pingpong=True,
                              pv_in_flight=True),
    'ef_r128_k64_c2': dict(_BASE, rows=128, keys=64, ctas_per_sm=2, pv_in_flight=True),
    'ef_r64_k64': dict(_BASE, rows=64, keys=64, pv_in_flight=True),
    # q*gw_*: persistent blocks of two consumer warpgroups and a producer warpgroup
    # (cuDNN's Hopper kernel's shape: one block per SM, 384 threads), the Q load on the
    # consumers alone; qpgw_*: in ping-pong turns. ogw_*: --overlap (S(j+1) issued
    # before S(j)'s softmax, S(0) before the loop on the consumers alone) with a
    # producer warpgroup; qogw_*: the same in persistent blocks (S(0) per tile).
    'qgw_r128_k64': dict(_BASE, rows=128, keys=64, producer='warpgroup', persistent=132),
    'qgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', persistent=132),
    'qpgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', pingpong=True, persistent=132),
    'qpgw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', pingpong=True,
                              persistent=132),
    'ogw_r128_k64': dict(_BASE, rows=128, keys=64, producer='warpgroup', overlap=True),
    'ogw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap=True),
    'qogw_r128_k64': dict(_BASE, rows=128, keys=64, producer='warpgroup', overlap=True, persistent=132),
    # opgw_*: --overlap and --pingpong together with a producer warpgroup (FlashAttention-3's
    # forward kernel: each warpgroup's turn issues P V(j) and S(j+2) back to back while the
    # other runs its softmax); qopgw_*: in persistent blocks.
    'opgw_r128_k64': dict(_BASE, rows=128, keys=64, producer='warpgroup', overlap=True, pingpong=True),
    'opgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap=True, pingpong=True),
    'opgw_r128_k64_s3': dict(_BASE, stages=3, rows=128, keys=64, producer='warpgroup', overlap=True, pingpong=True),
    'opgw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', overlap=True,
                              pingpong=True),
    # More stages for the 64-key producer-warpgroup builds (3 stages ran the overlapped
    # ping-pong build 1.39x faster than 2 in the evening session's sweep).
    'opgw_r128_k64_s4': dict(_BASE, stages=4, rows=128, keys=64, producer='warpgroup', overlap=True, pingpong=True),
    'ogw_r128_k64_s4': dict(_BASE, stages=4, rows=128, keys=64, producer='warpgroup', overlap=True),
    'qgw_r128_k64_s4': dict(_BASE, stages=4, rows=128, keys=64, producer='warpgroup', persistent=132),
    'qgw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', persistent=132),
    'qopgw_r128_k64_s4': dict(_BASE, stages=4, rows=128, keys=64, producer='warpgroup', overlap=True, pingpong=True,
                              persistent=132),
    # f*: --overlap=pv, FlashAttention-3's order (S(j+1) and P V(j) issued together, the
    # softmax of S(j+1) while P V(j) computes): 128 keys at D = 128 without spilling.
    'fgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv'),
    'fpgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True),
    'qfpgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                            persistent=132),
    'fpgw_r128_k128_s3': dict(_BASE, stages=3, rows=128, keys=128, producer='warpgroup', overlap='pv',
                              pingpong=True),
    # One warpgroup of 64 rows a block in FlashAttention-3's order, several blocks an SM
    # (ptxas told of 2, 3 or 4): one block's Q load, S(0) and epilogue run beside the
    # other's K loop, which a single 128-row block per SM leaves exposed at short S.
    # ...24: the producer warpgroup keeps 24 registers (FlashAttention-3's split), the
    # consumers 240: the persistent build's K loop then spills nothing.
    'qfpgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                              persistent=132, producer_registers=24),
    'fgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', producer_registers=24),
    # fl*: --peel-last, the loop one key block short and the last P V after it (no S
    # computed and dropped; up to a fifth of a short causal block's tensor work).
    'flgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', peel_last=True),
    'flpgw_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                            peel_last=True),
    'qflpgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                               persistent=132, producer_registers=24, peel_last=True),
    # qn*: persistent with --prefetch-q, the next tile's Q, K(0) (and last V) loaded during
    # this tile's epilogue rather than at the next tile's start.
    'qnfpgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                               persistent=132, producer_registers=24, prefetch_q=True),
    'qnflpgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                                persistent=132, producer_registers=24, peel_last=True, prefetch_q=True),
    'qnflgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv',
                               persistent=132, producer_registers=24, peel_last=True, prefetch_q=True),
    # qs*: qn* with --spread-loads: the next tile's K(0) loaded once S(0) has read this
    # tile's, its Q before the last P V, its last V after it, each on a barrier of its own,
    # so a tile starts waiting for Q alone (32 KiB issued a P V earlier, not 96 KiB after
    # it). Not what the chooser picks: on the H100 lease of 2026-12-07 call a
    # (bench/RESULTS.md) qsflpgw24 ran 1.027 of qnflpgw24 in geomean (4 x 32 x 1024 x 128:
    # 0.949 of cuDNN against 0.852), on the lease of calls c and d 0.973 (0.94-0.98 at the
    # four shapes run twice more): not reproduced. Without ping-pong (qsflgw24) slower at
    # every shape.
    'qsflpgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv', pingpong=True,
                                persistent=132, producer_registers=24, peel_last=True, prefetch_q=True,
                                spread_loads=True),
    'qsflgw24_r128_k128': dict(_BASE, rows=128, keys=128, producer='warpgroup', overlap='pv',
                               persistent=132, producer_registers=24, peel_last=True, prefetch_q=True,
                               spread_loads=True),
    # The 64-row persistent builds with --spread-loads (K(0) on its own barrier after S(0),
    # Q before the last P V): for the short sequences. On the H100 of 2026-12-07 (calls c,
    # bench/results/attention-sweep-h100-2026-12-07-33-builds.json) 0.965 and 1.015 of qnflw_r64_k64_c2/_c3 in
    # geomean; neither is the best build at any shape.
    'qsflw_r64_k64_c2': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=2,
                             persistent=264, prefetch_q=True, spread_loads=True),
    'qsflw_r64_k64_c3': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=3,
                             persistent=396, prefetch_q=True, spread_loads=True),
    # f_r128_k64_c2 / fp_*: FlashAttention-3's order in 128-row blocks of two consumer
    # warpgroups, 64 keys, two blocks an SM (118-122 registers at D = 64; for D = 64,
    # where the 128-key builds hold S, P and O in more than 128 registers).
    'f_r128_k64_c2': dict(_BASE, rows=128, keys=64, overlap='pv', ctas_per_sm=2),
    'fp_r128_k64_c2': dict(_BASE, rows=128, keys=64, overlap='pv', pingpong=True, ctas_per_sm=2),
    # 64-row blocks with --peel-last, and persistent with --prefetch-q (two or three an SM):
    # for the short sequences where the 128-row builds miss (1 x 128 x 512 x 128 causal).
    'flw_r64_k64_c2': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=2),
    'qnflw_r64_k64_c2': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=2,
                             persistent=264, prefetch_q=True),
    'qnflw_r64_k64_c3': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=3,
                             persistent=396, prefetch_q=True),
    # 64-row blocks with 128 keys a step (two an SM): half the steps of the 64-key builds,
    # for the short D = 64 sequences; at D = 128 ptxas spills (the sweep's build refuses
    # them). On the H100 of 2026-12-07 (third session, two runs; bench/RESULTS.md) the
    # persistent one ran 1.03 of e_r64_k64 at 1 x 128 x 512 x 64 (1.034-1.037 of cuDNN),
    # where choose() picks it; elsewhere within 2 % of the best or behind it.
    'flw_r64_k128_c2': dict(_BASE, rows=64, keys=128, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=2),
    'qnflw_r64_k128_c2': dict(_BASE, rows=64, keys=128, producer='warp', overlap='pv', peel_last=True, ctas_per_sm=2,
                              persistent=264, prefetch_q=True),
    'fw_r64_k64_c2': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', ctas_per_sm=2),
    'fw_r64_k64_c3': dict(_BASE, rows=64, keys=64, producer='warp', overlap='pv', ctas_per_sm=3),
    'f_r64_k64_c4': dict(_BASE, rows=64, keys=64, overlap='pv', ctas_per_sm=4),
    'qopgw_r128_k64_s3': dict(_BASE, stages=3, rows=128, keys=64, producer='warpgroup', overlap=True, pingpong=True,
                              persistent=132),
    'e_r128_k64_mul': dict(_BASE, rows=128, keys=64, softmax='mul'),
    'p_r128_k64_mul': dict(_BASE, rows=128, keys=64, persistent=264, softmax='mul'),
    'e_r128_k128_c2_mul': dict(_BASE, rows=128, keys=128, ctas_per_sm=2, softmax='mul'),
    'm80_r64': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=64, keys=64),
    'm80_r64_mul': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=64, keys=64, softmax='mul'),
    'm80_r128': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=128, keys=64),
    # m80w_*: two 16-row m-tiles a warp (--warp-rows=32, FlashAttention-2's tiling): each K
    # and V fragment loaded feeds two mma.sync (128 rows on 4 warps); 0-176 bytes spilled
    # at 255 registers. Timed on the H100 of 2026-12-07: choose_sm80 says where they win.
    'm80w_r128': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=128, keys=64, warp_rows=32),
    'm80w_r64': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=64, keys=64, warp_rows=32),
    # ..._k32: 32 keys a step (FlashAttention-2's at D = 128): 0 bytes spilled at D = 128.
    'm80w_r128_k32': dict(_BASE, chip='sm_80', qk='mma', pv='mma', rows=128, keys=32, warp_rows=32),
}


def _twins(bases, mark, **option):
    """Each build of `bases` again with one gen.py option set (`option`), named
    `<base>_<mark>`: a build to time beside its base."""
    return {f'{name}_{mark}': dict(BUILDS[name], **option) for name in bases}


# *_o16: builds with --wide-stores (each lane stores 8 columns of out as one 16-byte vector
# after a transpose within its row's 4 lanes, instead of 4-byte pairs: Nsight Compute
# showed the pairs stalling the consumers on the store queue), each its base build's
# options and that one flag. On the H100 of 2026-12-07 (fourth session, bench/RESULTS.md):
# the first five (the picks) 1.04 of their base in geomean below S = 4096, 0.99 at and
# above it (choose); of the other four, e_r128_k128_c2_o16 was the best build at
# 1 x 32 x 4096 x 64 and 2 x 64 x 1500 x 64 in the sweep of 21 builds (one run), the rest
# nowhere: swept, not picked.
WIDE_STORE_BASES = ('qnflpgw24_r128_k128', 'flpgw_r128_k128', 'e_r64_k64', 'fw_r64_k64_c2', 'qnflw_r64_k128_c2',
                    'fw_r64_k64_c3', 'flw_r64_k64_c2', 'qnflw_r64_k64_c2', 'e_r128_k128_c2')
BUILDS.update(_twins(WIDE_STORE_BASES, 'o16', wide_stores=True))
# *_to: O through each warpgroup's Q tile and one TMA store per 64 rows (--tma-out), for the
# non-persistent 128-row builds: the picks at the causal and short D = 128 shapes, where
# the consumers' stores and the block's exit waiting on them stalled (bench/RESULTS.md,
# 2026-12-07, fourth session, item 6). Timed on the H100 (2026-12-07, seventh session, all
# 18 shapes twice on one lease), every kernel within the error bound: over the 4-byte
# stores 1.01-1.03 in geomean (1.08-1.20 at S = 512 and 4 x 32 x 1024 x 128), over the
# 16-byte stores (_o16) 0.99 for flpgw and 1.01 for e_r128_k128_c2; e_r128_k128_c2_to the
# best build at three or four D = 64 non-causal shapes in each run, by 1-4 %; on a second
# lease the e_r128_k128_c2 builds led there again, their store forms within 1-2 % of each
# other, so choose_sm90 takes the longer-proven e_r128_k128_c2(_o16) (bench/RESULTS.md,
# seventh session, item 6).
TMA_OUT_BASES = ('flpgw_r128_k128', 'e_r128_k128_c2')
BUILDS.update(_twins(TMA_OUT_BASES, 'to', tma_out=True))
# *_pdl: the picks with --pdl=1 (programmatic dependent launch, gen.py): a kernel's block
# starts and barrier inits run under the tail of the kernel before it in the stream. For
# the shapes of tens of microseconds (1 x 128 x 512 x 128 causal, 36 us, 0.93 of cuDNN on
# the H100 of 2026-12-07), where a launch's start and tail are a few percent of it.
# Built, not yet timed: choose never picks them.
PDL_BASES = ('flpgw_r128_k128', 'flpgw_r128_k128_o16', 'fw_r64_k64_c2_o16', 'qnflpgw24_r128_k128',
             'qnflpgw24_r128_k128_o16', 'e_r64_k64_o16', 'e_r128_k128_c2_o16', 'qnflw_r64_k128_c2_o16')
BUILDS.update(_twins(PDL_BASES, 'pdl', pdl=1))
# *_lpt: the causal picks (sm_90's, and sm_80's m80_r64) with --lpt (gen.py): a
# one-dimensional grid, every head's heaviest query block first within groups of heads
# whose K and V fit a third of L2. The grid of a block per (query block, head) starts a
# head's blocks side by side, so the last heads' heaviest blocks start in the last wave:
# counted in key blocks with one block an SM (bench/causal_tail.py), that order ends at
# 1.15 of the work's even share at 2 x 32 x 2048 x 128 (0.92 of cuDNN on the H100) and
# --lpt at 1.02; at 1 x 8 x 16384 x 128 (1.09 of cuDNN) 1.01 either way. Built, not yet timed.
LPT_BASES = ('flpgw_r128_k128', 'flpgw_r128_k128_o16', 'flpgw_r128_k128_to', 'e_r64_k64', 'e_r64_k64_o16',
             'fw_r64_k64_c2_o16', 'm80_r64')
BUILDS.update(_twins(LPT_BASES, 'lpt', lpt=True))


def choose(bh, s, d, causal, chip='sm_90'):
    """The build for `bh` (batch x heads) sequences of length `s`, head dimension `d` (64
    or 128), causal or not, on `chip` (sm_90: TMA and wgmma; sm_80: cp.async and
    mma.sync, the same source)."""
    if d not in (64, 128):
        raise ValueError(f'D = {d}: the builds take D = 64 or 128')
    if chip == 'sm_80':
        return choose_sm80(s, d, causal)
    if chip != 'sm_90':
        raise ValueError(f'chip {chip!r}: sm_80 or sm_90')
    pick = choose_sm90(s, d, causal)
    # Below S = 4096 the same build with 16-byte O stores (--wide-stores, the *_o16 builds):
    # on the H100 of 2026-12-07 (fourth session, three runs) 1.01-1.18 of the 4-byte
    # stores' speed at the short shapes and 0.94-0.98 at S >= 4096 (bench/RESULTS.md).
    return pick + '_o16' if s < 4096 else pick


def choose_sm90(s, d, causal):
    """The sm_90 build before the choice of O's stores (choose)."""
    if s <= 512:
        # Short sequences: 64-row blocks, several an SM, so one block's Q load and epilogue
        # run beside another's K loop (D = 128 causal: FlashAttention-3's order with a
        # producer warp, two an SM; D = 64 non-causal: 128 keys a step, persistent with the
        # next tile's Q loaded during this one's epilogue).
        if d == 128 and causal:
            return 'fw_r64_k64_c2'
        return 'qnflw_r64_k128_c2' if d == 64 and not causal else 'e_r64_k64'
    if causal:
        # FlashAttention-3's order in ping-pong turns, the loop one key block short
        # (--peel-last); at D = 64 below S = 4096, 64 x 64 tiles four an SM.
        return 'flpgw_r128_k128' if d == 128 or s >= 4096 else 'e_r64_k64'
    if d == 64 and s <= 4096:
        # D = 64, non-causal, up to S = 4096: 128 x 128 tiles, two blocks an SM, no producer
        # (e_r128_k128_c2; 16-byte O stores below S = 4096). Ahead of the 64 x 64 tiles and
        # of the persistent build at 1 x 32 x 4096 x 64 and 2 x 64 x 1500 x 64 on three
        # leases, and at 2 x 32 x 2048 x 64 on two of three (bench/RESULTS.md, 2026-12-07,
        # seventh session, item 6).
        return 'e_r128_k128_c2'
    # Non-causal: the same persistent, with the next tile's Q loaded during this one's
    # epilogue (--prefetch-q) and a producer warpgroup keeping 24 registers.
    return 'qnflpgw24_r128_k128'


# gen.py's flags a build passes only when it sets them away from _BASE, in this order:
# (BUILDS key, flag name); True is the bare flag (`--pingpong`), other values `--name=value`.
_OPTIONAL = [('overlap', 'overlap'), ('pingpong', 'pingpong'), ('persistent', 'persistent'), ('softmax', 'softmax'),
             ('pv_in_flight', 'pv-in-flight'), ('producer_registers', 'producer-registers'),
             ('peel_last', 'peel-last'), ('prefetch_q', 'prefetch-q'), ('warp_rows', 'warp-rows'),
             ('spread_loads', 'spread-loads'), ('wide_stores', 'wide-stores'), ('tma_out', 'tma-out'),
             ('pdl', 'pdl'), ('lpt', 'lpt')]


def options(build):
    """gen.py's flags after BH S D for `build`."""
    cfg = BUILDS[build]
    return [str(cfg['stages']), f'--chip={cfg["chip"]}', '--dtype=bf16', f'--swizzle={cfg["swizzle"]}',
            f'--rows={cfg["rows"]}', f'--qk={cfg["qk"]}', f'--pv={cfg["pv"]}', f'--keys={cfg["keys"]}',
            f'--out={cfg["out"]}', f'--mask={cfg["mask"]}', f'--ctas-per-sm={cfg["ctas_per_sm"]}',
            f'--producer={cfg["producer"]}'] + [
                f'--{flag}' if cfg[key] is True else f'--{flag}={cfg[key]}'
                for key, flag in _OPTIONAL if cfg[key] != _BASE[key]]


def gen_args(build, bh, s, d, causal):
    """examples/attention/gen.py's whole argument list for `build` at the shape."""
    return [str(bh), str(s), str(d)] + options(build) + (['--causal'] if causal else [])


def choose_sm80(s, d, causal):
    """The sm_80 build, by a rule read off the H100 run of 2026-12-07 (bench/RESULTS.md,
    call a: the sm_80 builds run on the sm_90 card against SDPA flash; the same picks on
    call c's lease). Causal, or at D = 128 a sequence that is not a whole number of
    64-key blocks: one 16-row m-tile a warp (m80_r64, 0.98-1.18 of flash causal).
    Otherwise FlashAttention-2's tiling, two m-tiles a warp (--warp-rows=32) in 128-row
    blocks: 32 keys a step at D = 128 (m80w_r128_k32, 1.01-1.06 of flash), 64 at D = 64
    (m80w_r128, 0.98-1.04; ragged 2 x 64 x 1500 0.85 and 0.94 on the two leases, m80_r64
    0.82 and 0.83)."""
    if causal or (s % 64 and d == 128):
        return 'm80_r64'
    return 'm80w_r128_k32' if d == 128 else 'm80w_r128'


def grid(build, bh, s):
    """The launch grid: a block per `rows` query rows of each (batch, head) (one-dimensional
    for an --lpt build), or a persistent build's W blocks (at most one per tile)."""
    cfg = BUILDS[build]
    if cfg['persistent']:
        return (min(cfg['persistent'], -(-s // cfg['rows']) * bh), 1, 1)
    if cfg['lpt']:
        return (-(-s // cfg['rows']) * bh, 1, 1)
    return (-(-s // cfg['rows']), bh, 1)


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith('--')]
    flags = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    if len(args) != 3:
        sys.exit(__doc__.strip().splitlines()[-2])
    bh, s, d = (int(v) for v in args)
    causal = '--causal' in sys.argv[1:]
    try:
        build = flags.get('build') or choose(bh, s, d, causal, flags.get('chip', 'sm_90'))
        if build not in BUILDS:
            raise ValueError(f'no build named {build!r}: {", ".join(BUILDS)}')
    except ValueError as error:
        sys.exit(f'choose.py: error: {error}')
    print(json.dumps({'build': build, 'source': 'named' if 'build' in flags else 'rule',
                      'gen_args': gen_args(build, bh, s, d, causal), 'grid': grid(build, bh, s)}))


if __name__ == '__main__':
    main()
