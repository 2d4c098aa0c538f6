#!/usr/bin/env python3
"""Scores a chooser against a sweep record: at each swept shape, the TFLOP/s of the build
it picks over the best build's, and their geometric mean and minimum (what the choosers'
docstrings quote). A GEMM record (shapes M x N x K) scores examples/gemm/choose.py's cost
model (its pick among the record's builds), an attention record (B x H x S x D, causal) examples/attention/choose.py's rule,
among the bf16-out builds (a shape whose pick the record did not time is named and left out). Needs no GPU.

Usage: python3 bench/choose_score.py [bench/results/gemm-sweep.json ...] [--all]
(--all: every shape's line, not only those below 0.9)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'gemm'))
import choose  # noqa: E402
import tc_sweep_shapes  # noqa: E402  (it loads examples/attention/choose.py)


def score(path):
    """[(shape, model's pick, its fraction of the best)] for one sweep record."""
    with open(path) as f:
        record = json.load(f)
    timed = {}
    for row in record['rows']:
        if row.get('tflops') and row.get('out_dtype', 'bf16') == 'bf16':
            timed.setdefault(tuple(row['shape']), {})[row['build']] = row['tflops']
    result = []
    for shape, builds in timed.items():
        if len(shape) == 5:
            b, h, s, d, causal = shape
            pick = tc_sweep_shapes.attention_choose.choose(b * h, s, d, causal)
            if pick not in builds:
                # A build added since the record was swept: the shape is not scored.
                result.append((shape, pick, None))
                continue
        else:
            # Among the record's builds: a build added since it was swept is not scored.
            pick, _ = choose.choose(*shape, out='bf16', among=set(builds))
        result.append((shape, pick, builds.get(pick, 0.0) / max(builds.values())))
    return result


def main():
    paths = [arg for arg in sys.argv[1:] if not arg.startswith('--')] or ['bench/results/gemm-sweep.json']
    for path in paths:
        rows = score(path)
        unscored = [(shape, pick) for shape, pick, fraction in rows if fraction is None]
        for shape, pick in unscored:
            print(f'{path}: {"x".join(map(str, map(int, shape)))}: {pick} not in the record, not scored')
        rows = [row for row in rows if row[2] is not None]
        for shape, pick, fraction in rows:
            if fraction < 0.9 or '--all' in sys.argv:
                print(f'{path}: {"x".join(map(str, map(int, shape)))}: {pick} at {fraction:.3f} of the best')
        fractions = [max(fraction, 1e-3) for _, _, fraction in rows]
        geomean = math.exp(sum(map(math.log, fractions)) / len(fractions))
        print(f'{path}: the chooser\'s pick at {geomean:.3f} of the best build (geomean), min {min(fractions):.3f}, '
              f'{len(rows)} shapes')


if __name__ == '__main__':
    main()
