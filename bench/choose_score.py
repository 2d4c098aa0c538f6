#!/usr/bin/env python3
"""Scores examples/gemm/choose.py's cost model against a GEMM sweep record: at each
swept shape, the TFLOP/s of the build the model picks over the best build's, and their
geometric mean and minimum (what choose.py's docstring quotes for
bench/results/gemm-sweep.json). Needs no GPU.

Usage: python3 bench/choose_score.py [bench/results/gemm-sweep.json ...] [--all]
(--all: every shape's line, not only those below 0.9)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'gemm'))
import choose  # noqa: E402


def score(path):
    """[(shape, model's pick, its fraction of the best)] for one sweep record."""
    with open(path) as f:
        record = json.load(f)
    timed = {}
    for row in record['rows']:
        if row.get('tflops'):
            timed.setdefault(tuple(row['shape']), {})[row['build']] = row['tflops']
    result = []
    for shape, builds in timed.items():
        pick, _ = choose.choose(*shape, out='bf16')
        result.append((shape, pick, builds.get(pick, 0.0) / max(builds.values())))
    return result


def main():
    paths = [arg for arg in sys.argv[1:] if not arg.startswith('--')] or ['bench/results/gemm-sweep.json']
    for path in paths:
        rows = score(path)
        for shape, pick, fraction in rows:
            if fraction < 0.9 or '--all' in sys.argv:
                print(f'{path}: {"x".join(map(str, shape))}: {pick} at {fraction:.3f} of the best')
        fractions = [max(fraction, 1e-3) for _, _, fraction in rows]
        geomean = math.exp(sum(map(math.log, fractions)) / len(fractions))
        print(f'{path}: the model\'s pick at {geomean:.3f} of the best build (geomean), min {min(fractions):.3f}, '
              f'{len(rows)} shapes')


if __name__ == '__main__':
    main()
