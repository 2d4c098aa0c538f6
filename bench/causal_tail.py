#!/usr/bin/env python3
"""How long a causal attention grid takes in key blocks, by block order: the hardware
starts a grid's blocks in order, each on the first SM that frees (list scheduling); a
block of query block q (128 rows) costs its q + 1 key blocks of 128 (the last one ragged).
Prints, per causal shape of the sweep, the even share (all key blocks / SMs) and the end
of three orders over it: `head` (examples/attention/gen.py without --lpt: a head's query
blocks side by side, heaviest first), `lpt` (--lpt: heaviest first within groups of
lpt_heads heads) and `all` (heaviest first over every head). A model of the tail, not a
timing: one block an SM, every key block the same time, no L2.

Usage: python3 bench/causal_tail.py [--sms 132] [--rows 128]
"""
import argparse
import heapq

import tc_sweep_shapes as shapes    # also puts examples/ on the path
from attention import gen           # examples/attention/gen.py's lpt_heads


def makespan(costs, sms):
    """When the last block ends: each block starts on the SM that frees first."""
    free = [0.0] * sms
    for cost in costs:
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def orders(bh, s, d, rows):
    """{order: [block cost in key blocks, in launch order]}."""
    nq = -(-s // rows)

    def cost(q):
        return min((q + 1) * rows, s) / rows

    group = gen.lpt_heads(bh, s, d)
    return {
        'head': [cost(nq - 1 - x) for h in range(bh) for x in range(nq)],
        'lpt': [cost(nq - 1 - lvl) for g in range(bh // group) for lvl in range(nq) for h in range(group)],
        'all': sorted((cost(q) for h in range(bh) for q in range(nq)), reverse=True),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--sms', type=int, default=132)
    parser.add_argument('--rows', type=int, default=128)
    args = parser.parse_args()
    print(f'{"shape":<22} {"even":>8} {"head":>6} {"lpt":>6} {"all":>6}   (end / even share)')
    for b, h, s, d, causal in shapes.ATTN_SHAPES:
        if not causal:
            continue
        costs = orders(b * h, s, d, args.rows)
        even = sum(costs['head']) / args.sms
        ends = {name: makespan(c, args.sms) / even for name, c in costs.items()}
        print(f'{b}x{h}x{s}x{d:<10} {even:8.1f} {ends["head"]:6.3f} {ends["lpt"]:6.3f} {ends["all"]:6.3f}')


if __name__ == '__main__':
    main()
